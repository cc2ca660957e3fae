/** The TCP relay lives with the simulators (src/sim/tcp-cut.ts) so the failover harness (bench/) can put it in front of a replica's links too. */
export * from '../../src/sim/tcp-cut.js';
