/**
 * Leadership (src/ops/leadership.ts): when the outbox sends and the schedules run. The outbox
 * here is a recording Sender (leadership only starts and stops it; the sending is outbox.test.ts's),
 * and the duties are counters.
 */
import { Leadership, type LeadPermit, type Sender } from '../../src/ops/leadership.js';
import { captureLog } from '../helpers/log.js';

class RecordingSender implements Sender {
  readonly permits: LeadPermit[] = [];
  stops = 0;
  /** A send in flight: stop() resolves only once it ends. */
  inFlight?: Promise<void>;
  start(permit: LeadPermit): void {
    this.permits.push(permit);
  }
  async stop(): Promise<void> {
    this.stops += 1;
    await this.inFlight;
  }
}

function setup(leading: boolean) {
  const outbox = new RecordingSender();
  const duty = { starts: 0, stops: 0 };
  const changes: boolean[] = [];
  let stopping = false;
  const leadership = new Leadership({
    outbox,
    leading,
    stopping: () => stopping,
    log: captureLog().log,
    onChange: (l) => changes.push(l),
    duties: [{ name: 'counter', start: () => void duty.starts++, stop: () => void duty.stops++ }],
  });
  return { leadership, outbox, duty, changes, stop: () => (stopping = true) };
}

describe('leadership', () => {
  it('sends only when both hold: this replica leads and Slack accepted the token; the Lease\'s permit reaches the outbox', () => {
    const { leadership, outbox, duty } = setup(false);
    leadership.slackAuthenticated();
    expect(outbox.permits).toHaveLength(0);
    const permit = () => 1234;
    leadership.lead(permit);
    expect(outbox.permits).toEqual([permit]);
    expect(duty.starts).toBe(1);
    // Leading again (a renewal's callback, a second authentication) starts nothing twice.
    leadership.lead(permit);
    leadership.slackAuthenticated();
    expect(outbox.permits).toHaveLength(1);
    expect(duty.starts).toBe(1);
  });

  it('without ha leads from the start, with a permit that never runs out, once Slack accepts the token', () => {
    const { leadership, outbox, changes } = setup(true);
    expect(changes).toEqual([true]);
    leadership.lead();
    expect(outbox.permits).toHaveLength(0);
    leadership.slackAuthenticated();
    expect(outbox.permits).toHaveLength(1);
    expect(outbox.permits[0]()).toBe(Infinity);
  });

  it('stands down only after the send in flight has ended, outbox first, then the schedules', async () => {
    const { leadership, outbox, duty, changes } = setup(false);
    leadership.slackAuthenticated();
    leadership.lead(() => 1000);
    let endSend!: () => void;
    outbox.inFlight = new Promise<void>((resolve) => (endSend = resolve));
    let followed = false;
    const following = leadership.follow().then(() => (followed = true));
    // Not leading from this moment (the gauge, /readyz), but follow() waits for the send.
    expect(leadership.leading).toBe(false);
    expect(changes).toEqual([false, true, false]);
    expect(outbox.stops).toBe(1);
    expect(duty.stops).toBe(1);
    await Promise.resolve();
    await Promise.resolve();
    expect(followed).toBe(false);
    endSend();
    await following;
    expect(followed).toBe(true);
  });

  it('starts nothing again once the bot is stopping', () => {
    const { leadership, outbox, duty, stop } = setup(false);
    leadership.slackAuthenticated();
    stop();
    leadership.lead(() => 1000);
    expect(outbox.permits).toHaveLength(0);
    expect(duty.starts).toBe(0);
    expect(leadership.leading).toBe(false);
  });

  it('a new lead after a stand-down starts a new sending turn with the new lease\'s permit', async () => {
    const { leadership, outbox } = setup(false);
    leadership.slackAuthenticated();
    const first = () => 1;
    const second = () => 2;
    leadership.lead(first);
    await leadership.follow();
    leadership.lead(second);
    expect(outbox.permits).toEqual([first, second]);
  });
});
