/**
 * The config keys of the surfaces: ops endpoints on a port of their own, never Slack's public
 * one, and Slack SDK debug output only when asked for.
 */
import { ConfigError, parseConfig } from '../../src/config.js';

describe('ops and log config', () => {
  it('serves ops on 9090 on every interface by default, with Slack debug output off', () => {
    const config = parseConfig({});
    expect(config.ops).toEqual({ port: 9090 });
    expect(config.log).toEqual({ level: 'info', slackDebug: false });
  });

  it('keeps an existing ops.port (Socket Mode may share the number with the unused slack.port)', () => {
    expect(parseConfig({ slack: { port: 3000 }, ops: { port: 3000, host: '127.0.0.1' } }).ops).toEqual({ port: 3000, host: '127.0.0.1' });
  });

  it('refuses ops.port equal to slack.port in HTTP mode, where the Slack port is public', () => {
    const parse = () => parseConfig({ slack: { mode: 'http', port: 3000 }, ops: { port: 3000 } });
    expect(parse).toThrow(ConfigError);
    expect(parse).toThrow(/ops\.port: 3000 is also slack\.port; in HTTP mode Slack's port is public/);
    expect(parseConfig({ slack: { mode: 'http', port: 0 }, ops: { port: 0 } }).ops.port).toBe(0);
  });
});
