import { assess, type Accepted } from '../../bench/chaos-assess.js';
import { planChaos, SHORT } from '../../bench/chaos-plan.js';

const post = (channel: string, ts: string, content: string, atMs = 0): Accepted => ({ method: 'chat.postMessage', channel, ts, content, atMs });
const update = (channel: string, ts: string, content: string, atMs = 0): Accepted => ({ method: 'chat.update', channel, ts, content, atMs });

describe('chaos assessment', () => {
  const owed = [
    { name: 'wl-0001', conversation: 'DA', atMs: 0 },
    { name: 'wl-0002', conversation: 'DA', atMs: 0 },
    { name: 'wl-0003', conversation: 'CPROJ1', atMs: 0 },
  ];

  it('finds an alert lost when the message that named it was rewritten without it', () => {
    const a = assess(owed, [post('DA', '1', 'wl-0001 failed', 5), update('DA', '1', '2 failed: wl-0002', 9), post('CPROJ1', '2', 'wl-0003')]);
    expect(a.lost).toEqual(['wl-0001']);
    expect(a.firstToldAt.get('wl-0002')).toBe(9);
  });

  it('counts a workload in two posted messages as a duplicate, and an edit of one message as none', () => {
    const a = assess(owed, [post('DA', '1', 'wl-0001'), update('DA', '1', 'wl-0001 wl-0002'), post('DA', '2', 'wl-0002'), post('CPROJ1', '3', 'wl-0003')]);
    expect(a.lost).toEqual([]);
    expect(a.duplicates).toBe(1);
    expect(a.duplicated).toEqual([{ name: 'wl-0002', messages: 2 }]);
  });

  it('reports a workload named in another owner\'s DM or another project\'s channel', () => {
    const a = assess(owed, [post('DA', '1', 'wl-0001 wl-0002 wl-0003'), post('CPROJ2', '2', 'wl-0003')]);
    expect(a.crosstalk).toEqual([{ name: 'wl-0003', conversation: 'DA' }, { name: 'wl-0003', conversation: 'CPROJ2' }]);
    expect(a.lost).toEqual(['wl-0003']);
  });

  it('takes an "…and N more" of a grouped message as telling that many unnamed workloads', () => {
    const a = assess(owed, [post('DA', '1', '2 of your workloads changed state …and 1 more. wl-0001'), post('CPROJ1', '2', 'wl-0003')]);
    expect(a.lost).toEqual([]);
    expect(a.summarized).toBe(1);
  });
});

describe('chaos plan', () => {
  it('replays exactly from its seed, and differs for another', () => {
    expect(planChaos(SHORT, 42)).toEqual(planChaos(SHORT, 42));
    expect(planChaos(SHORT, 43).workloads.map((w) => w.atMs)).not.toEqual(planChaos(SHORT, 42).workloads.map((w) => w.atMs));
  });

  it('plans the transitions, kills and faults the short variant promises', () => {
    const plan = planChaos(SHORT, 1);
    expect(plan.workloads).toHaveLength(200);
    expect(new Set(plan.workloads.filter((w) => w.slackUser).map((w) => w.owner)).size).toBe(20);
    expect(new Set(plan.workloads.filter((w) => !w.slackUser).map((w) => w.project)).size).toBeGreaterThan(1);
    expect(plan.kills).toHaveLength(6);
    expect(new Set(plan.faults.map((f) => f.name))).toEqual(new Set(['kube-500', 'watch-drop', 'watch-410', 'slack-outage', 'slack-429-storm', 'store-lock']));
  });
});
