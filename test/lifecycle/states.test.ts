import { readFileSync } from 'node:fs';
import { GUIDE, LOG_SAVING, SAFE_RECOVERY, stateForPhase } from '../../src/lifecycle/states.js';
import { LIFECYCLE_STATES } from '../../src/model.js';

const guidePath = new URL('../fixtures/spec/workload-lifecycle-guide.txt', import.meta.url);

describe('lifecycle states', () => {
  it('quotes every row of the lifecycle guide verbatim', () => {
    const guide = readFileSync(guidePath, 'utf8');
    for (const state of LIFECYCLE_STATES) {
      expect(guide).toContain(`${state}\t${GUIDE[state].meaning}\t${GUIDE[state].nextAction}`);
    }
  });

  it('quotes the Save application logs section, and the one-change rule of Safe recovery, verbatim', () => {
    const guide = readFileSync(guidePath, 'utf8');
    for (const sentence of [...Object.values(LOG_SAVING), SAFE_RECOVERY.oneChange, SAFE_RECOVERY.oneChangeAtATime]) expect(guide).toContain(sentence);
  });

  it.each([
    ['Creating', 'Initializing'],
    ['Pending', 'Pending'],
    ['Initializing', 'Initializing'],
    ['Resuming', 'Initializing'],
    ['Running', 'Running'],
    ['Degraded', 'Running'],
    ['Completed', 'Completed'],
    ['Failed', 'Failed'],
    ['Stopped', 'Stopped'],
    ['Stopping', 'Stopped'],
    ['Deleting', 'Deleted'],
    [' failed ', 'Failed'],
  ])('maps Run:ai phase %s to the guide state %s', (phase, state) => {
    expect(stateForPhase(phase)).toBe(state);
  });

  it('answers undefined for a phase it does not know, instead of guessing', () => {
    expect(stateForPhase('Exploded')).toBeUndefined();
    expect(stateForPhase(undefined)).toBeUndefined();
  });
});
