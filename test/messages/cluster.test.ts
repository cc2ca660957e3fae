/**
 * Every message about a workload names its cluster when it has one (the bot watches several
 * clusters), and reads exactly as before when it has none (one cluster configured the old way).
 * A cluster name is config text, yet it is escaped like any other field.
 */
import type { BurstEntry, MaintenanceWindow, Workload } from '../../src/model.js';
import { splitWorkloadId, workloadId } from '../../src/model.js';
import { buildWorkloadAlert, workloadRef } from '../../src/messages/alert.js';
import { buildOpsBurstMessage, buildOwnerBurstMessage } from '../../src/messages/burst.js';
import { buildCleanupDigest } from '../../src/messages/cleanup.js';
import { buildHomeView } from '../../src/messages/home.js';
import { buildOwnerNotice } from '../../src/messages/maintenance.js';
import { buildStuckMessage } from '../../src/messages/stuck.js';
import {
  ambiguousClusterMessage, listMessage, logsMessage, noPodsMessage, statusesMessage, statusMessage, unknownClusterMessage, usageMessage, whyMessage,
} from '../../src/messages/replies.js';
import type { SlackMessage } from '../../src/messages/blocks.js';
import { DEFAULT_SETTINGS } from '../../src/notify/settings.js';
import { messageViolation, viewViolation } from '../fakes/slack.js';

const now = new Date('2026-11-30T12:00:00Z');
const HOSTILE = 'gpu-east <!channel> *bold* <https://evil.example|click>';

function workload(cluster?: string): Workload {
  return {
    uid: '7f0c1d2e-0000-4000-8000-000000000001',
    ...(cluster !== undefined ? { cluster } : {}),
    kind: 'TrainingWorkload',
    apiVersion: 'run.ai/v2alpha1',
    name: 'train-1',
    namespace: 'runai-vision',
    project: 'vision',
    owner: 'alice',
    state: 'Failed',
    createdAt: '2026-11-30T10:00:00Z',
    pods: [],
  };
}

function entry(cluster: string | undefined, i: number): BurstEntry {
  return {
    key: `wl:${cluster ? `${cluster}/` : ''}uid-${i}:Failed`,
    ...(cluster ? { cluster } : {}),
    owner: 'alice', namespace: 'runai-vision', name: `train-${i}`, project: 'vision', kind: 'TrainingWorkload', state: 'Failed', node: 'node-07',
  };
}

const window: MaintenanceWindow = {
  uid: 'mw', occurrenceStart: '2026-12-01T08:00:00Z', key: 'mw', summary: 'Driver upgrade',
  start: new Date('2026-12-01T08:00:00Z'), end: new Date('2026-12-01T10:00:00Z'), allDay: false, status: 'confirmed', sequence: 0,
};

/** Every builder that shows a workload, for one workload (`w`) of a given cluster. */
function everyMessage(cluster?: string): Record<string, SlackMessage> {
  const w = workload(cluster);
  const running = { ...w, state: 'Running' as const };
  const stuck = { ...w, state: 'Pending' as const };
  const home = buildHomeView({
    now, workloads: [w], alerts: [{ entry: { key: `wl:${workloadId(w)}:Failed`, sentAt: now.toISOString() }, workload: w }],
    nextWindow: undefined, settings: DEFAULT_SETTINGS, mutes: [],
  });
  return {
    alert: buildWorkloadAlert({ workload: w, state: 'Failed' }),
    stuck: buildStuckMessage({ workload: stuck, state: 'Pending', since: new Date(now.getTime() - 3_600_000), reasons: [] }, now),
    ownerBurst: buildOwnerBurstMessage([entry(cluster, 1), entry(cluster, 2)]),
    opsBurst: buildOpsBurstMessage([entry(cluster, 1), entry(cluster, 2)], 60_000),
    cleanup: buildCleanupDigest({ workloads: [{ name: w.name, project: w.project, state: 'Failed', stateSince: '2026-11-20T00:00:00Z', ...(cluster ? { cluster } : {}) }], afterMs: 3 * 86_400_000 }),
    maintenanceOwner: buildOwnerNotice(window, [running], { timezone: 'UTC', now }),
    status: statusMessage({ workload: w, now }),
    logs: logsMessage({ workload: w, pod: 'train-1-0-0', container: 'train', previous: false, text: 'epoch 1\n', tail: 50, capped: false }),
    noPods: noPodsMessage(w),
    why: whyMessage({ workload: w, schedulerReasons: [] }),
    list: listMessage([w], now),
    home: { text: '', blocks: home.blocks as SlackMessage['blocks'] },
  };
}

/** What a person sees: the text and the blocks, without button values (identifiers, never shown). */
const shown = (m: SlackMessage) => `${m.text}\n${JSON.stringify(m.blocks, (key, value: unknown) => (key === 'value' ? undefined : value))}`;

/** Every mrkdwn text in the blocks: what Slack parses for mentions and links. */
function mrkdwnTexts(node: unknown): string[] {
  if (Array.isArray(node)) return node.flatMap(mrkdwnTexts);
  if (!node || typeof node !== 'object') return [];
  const o = node as Record<string, unknown>;
  const own = o.type === 'mrkdwn' && typeof o.text === 'string' ? [o.text] : [];
  return [...own, ...Object.values(o).flatMap(mrkdwnTexts)];
}

describe('messages with several clusters', () => {
  it('name the cluster in every message about a workload, in its blocks and in the notification text', () => {
    for (const [what, message] of Object.entries(everyMessage('gpu-east'))) {
      expect([what, shown(message)]).toEqual([what, expect.stringContaining('gpu-east')]);
      if (!['home', 'opsBurst', 'list'].includes(what)) expect([what, message.text]).toEqual([what, expect.stringContaining('gpu-east')]);
      if (what !== 'home') expect([what, messageViolation(message as never)]).toEqual([what, undefined]);
    }
  });

  it('say it where a reader looks for it: a Cluster field, "on cluster", the typed form', () => {
    const m = everyMessage('gpu-east');
    expect(shown(m.alert)).toContain('*Cluster*\\ngpu-east');
    expect(shown(m.alert)).toContain('in project *vision* on cluster *gpu-east* is *Failed*');
    expect(m.alert.text).toContain('(project vision, cluster gpu-east)');
    expect(shown(m.status)).toContain('gpu-east/train-1: Failed');
    expect(shown(m.logs)).toContain('*Log of `gpu-east/train-1`*');
    expect(shown(m.ownerBurst)).toContain('*train-1* (vision, cluster gpu-east) failed');
    expect(shown(m.opsBurst)).toContain('*By cluster:* gpu-east (2)');
    expect(shown(m.opsBurst)).toContain('gpu-east/node-07 (2)');
    expect(shown(m.list)).toContain('`train-1` in vision on cluster *gpu-east*');
    expect(shown(m.home)).toMatch(/`train-1` in vision on cluster \*gpu-east\* was \*Failed\*/);
  });

  it('tell node-07 of one cluster from node-07 of another in the operators\' burst summary', () => {
    const m = buildOpsBurstMessage([entry('gpu-east', 1), entry('gpu-west', 2), entry('gpu-west', 3)], 60_000);
    expect(shown(m)).toContain('gpu-west/node-07 (2), gpu-east/node-07 (1)');
    expect(shown(m)).toContain('*By cluster:* gpu-west (2), gpu-east (1)');
  });

  it('escape a hostile cluster name like any other field: no ping, no link, no formatting', () => {
    for (const [what, message] of Object.entries(everyMessage(HOSTILE))) {
      // plain_text (headers) is shown literally by Slack; every mrkdwn text must be escaped.
      const text = [message.text, ...mrkdwnTexts(message.blocks)].join('\n');
      expect([what, text]).toEqual([what, expect.not.stringContaining('<!channel>')]);
      expect([what, text]).toEqual([what, expect.not.stringContaining('<https://evil.example')]);
    }
    expect(shown(everyMessage(HOSTILE).alert)).toContain('&lt;!channel&gt;');
    const choices = ambiguousClusterMessage('logs', 'train-1', [`${HOSTILE}/train-1`, 'gpu-west/train-1']);
    expect(shown(choices)).not.toContain('<!channel>');
    expect(shown(unknownClusterMessage(HOSTILE, ['gpu-east', 'gpu-west']))).not.toContain('<!channel>');
  });

  it('carry workloadId() in button values, which reads back to the cluster and the uid', () => {
    const w = workload('gpu-east');
    const ref = JSON.parse(workloadRef(w)) as { ns: string; name: string; uid: string };
    expect(ref).toEqual({ ns: 'runai-vision', name: 'train-1', uid: `gpu-east/${w.uid}` });
    expect(splitWorkloadId(ref.uid)).toEqual({ cluster: 'gpu-east', uid: w.uid });
    const buttons = (buildWorkloadAlert({ workload: w, state: 'Failed' }).blocks.find((b) => b.type === 'actions') as { elements: Array<{ value?: string }> }).elements;
    for (const b of buttons) if (b.value) expect(JSON.parse(b.value).uid).toBe(`gpu-east/${w.uid}`);
    // A button of one cluster (or from before clusters had names): a bare uid.
    expect(splitWorkloadId(JSON.parse(workloadRef(workload())).uid)).toEqual({ uid: w.uid });
  });

  it('show several statuses in one reply inside Slack\'s limits, and the choices when asked for one', () => {
    const both = statusesMessage([statusMessage({ workload: workload('gpu-east'), now }), statusMessage({ workload: workload('gpu-west'), now })]);
    expect(messageViolation(both as never)).toBeUndefined();
    expect(shown(both)).toContain('gpu-east/train-1: Failed');
    expect(shown(both)).toContain('gpu-west/train-1: Failed');
    const many = statusesMessage(Array.from({ length: 20 }, (_, i) => statusMessage({ workload: workload(`c${i}`), now })));
    expect(many.blocks.length).toBeLessThanOrEqual(50);
    const which = ambiguousClusterMessage('logs', 'train-1', ['gpu-east/train-1', 'gpu-west/train-1']);
    expect(which.text).toContain('`gpu-east/train-1`, `gpu-west/train-1`');
    expect(which.text).toContain('`/runai logs gpu-east/train-1`');
  });

  it('list the configured clusters when asked for one that is not, and in the usage', () => {
    expect(unknownClusterMessage('gpu-north', ['gpu-east', 'gpu-west']).text).toContain("I don't know a cluster named `gpu-north`. The clusters I watch are `gpu-east`, `gpu-west`.");
    expect(unknownClusterMessage('gpu-north', []).text).toContain('I watch one cluster only');
    expect(shown(usageMessage(undefined, ['gpu-east', 'gpu-west']))).toContain('/runai status|logs|why CLUSTER/NAME');
    expect(shown(usageMessage(undefined, ['gpu-east', 'gpu-west']))).toContain('`gpu-east`, `gpu-west`');
  });
});

describe('messages with one cluster', () => {
  it('never mention a cluster of their own', () => {
    for (const [what, message] of Object.entries(everyMessage())) {
      const text = shown(message);
      expect([what, text]).toEqual([what, expect.not.stringMatching(/on cluster|Cluster\*|, cluster |By cluster|(?<!runai-vision)\/train-1/)]);
    }
    expect(shown(usageMessage())).not.toContain('CLUSTER');
    expect(shown(usageMessage(undefined, ['only-one']))).not.toContain('CLUSTER');
  });

  it('keep the button value buttons always carried (the existing message tests pin the rest, unchanged)', () => {
    expect(JSON.parse(workloadRef(workload()))).toEqual({ ns: 'runai-vision', name: 'train-1', uid: '7f0c1d2e-0000-4000-8000-000000000001' });
    expect(viewViolation(buildHomeView({ now, workloads: [workload()], alerts: [], nextWindow: undefined, settings: DEFAULT_SETTINGS, mutes: [] }))).toBeUndefined();
  });
});
