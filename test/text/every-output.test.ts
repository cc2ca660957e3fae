/**
 * One hostile corpus through EVERY path that shows or stores workload text: no secret and no
 * live Slack markup may survive anywhere. Each row is a real builder fed the corpus where the
 * cluster would put it (log, command, arguments, owner, phase message, events, names).
 */
import type { Workload } from '../../src/model.js';
import { LineRedactor } from '../../src/archive/redact-lines.js';
import { buildOpsBurstMessage, buildOwnerBurstMessage } from '../../src/messages/burst.js';
import { buildArchiveProblemMessage } from '../../src/messages/archive-problem.js';
import { buildCleanupDigest } from '../../src/messages/cleanup.js';
import { buildHomeView } from '../../src/messages/home.js';
import { buildWorkloadAlert } from '../../src/messages/alert.js';
import { buildStuckMessage } from '../../src/messages/stuck.js';
import { logsMessage, statusMessage, whyMessage } from '../../src/messages/replies.js';
import { buildOwnerNotice } from '../../src/messages/maintenance.js';
import { withOwnerNote } from '../../src/notify/outbox.js';
import { DEFAULT_SETTINGS } from '../../src/notify/settings.js';
import { triageText } from '../../src/triage/index.js';
import { messageViolation } from '../fakes/slack.js';
import { HOSTILE_ARGUMENTS, HOSTILE_COMMAND, HOSTILE_LINE, HOSTILE_OWNER, hostileLog, leakIn, SECRETS, slackProblem, strings } from './corpus.js';

const now = new Date('2026-11-29T12:00:00Z');
const log = hostileLog();
const triage = triageText(log, { exitCode: 1 });
const field = `${HOSTILE_LINE} ${SECRETS[2].text} ${SECRETS[4].text}`;

const workload: Workload = {
  uid: 'uid-1',
  kind: 'TrainingWorkload',
  apiVersion: 'run.ai/v2alpha1',
  name: 'train-llm',
  namespace: 'runai-vision',
  project: 'vision',
  owner: HOSTILE_OWNER,
  phase: 'Failed',
  state: 'Failed',
  image: `nvcr.io/nvidia/pytorch:24.01 ${field}`,
  command: HOSTILE_COMMAND,
  arguments: HOSTILE_ARGUMENTS,
  phaseMessage: field,
  createdAt: '2026-11-29T10:00:00Z',
  pods: [
    {
      name: 'train-llm-0',
      namespace: 'runai-vision',
      node: 'dgx-01',
      phase: 'Failed',
      reason: field,
      message: field,
      containers: [{ name: 'main', restartCount: 0, ready: false, terminated: { exitCode: 1, reason: field, message: field }, waiting: { reason: field, message: field } }],
    },
  ],
};

const entry = { key: 'k', owner: HOSTILE_OWNER, namespace: 'runai-vision', name: 'train-llm', project: field, kind: 'TrainingWorkload', state: 'Failed', node: field, category: 'cuda', categoryLabel: field, firstError: triage.firstError?.line ?? field };
const stored = { uid: 'uid-1', namespace: 'runai-vision', name: field, project: field, owner: HOSTILE_OWNER, kind: 'TrainingWorkload', state: 'Failed', stateSince: '2026-11-01T00:00:00Z', snapshot: '{}' };

const slackOutputs: Array<[string, () => unknown]> = [
  ['alert DM', () => buildWorkloadAlert({ workload, state: 'Failed', triage, site: { pod: 'train-llm-0', container: 'main', node: field, termination: { exitCode: 1, reason: field } }, logProblem: field })],
  ['alert in a channel, with the owner note', () => buildWorkloadAlert({ workload, state: 'Failed', triage, ownerNote: field })],
  ['stuck warning', () => buildStuckMessage({ workload: { ...workload, state: 'Pending' }, state: 'Pending', since: new Date(now.getTime() - 3_600_000), reasons: [{ plain: 'No GPUs', detail: field }] }, now)],
  ['burst to the owner', () => buildOwnerBurstMessage([entry, { ...entry, key: 'k2' }])],
  ['burst to operators', () => buildOpsBurstMessage([entry, { ...entry, key: 'k2' }], 60_000)],
  ['/runai status', () => statusMessage({ workload, now, stateSince: '2026-11-29T11:00:00Z', podProblem: field })],
  ['/runai logs and "Show more of the log"', () => logsMessage({ workload, pod: 'train-llm-0', container: field, previous: false, text: log, tail: 200, capped: false, note: field })],
  ['/runai why (failed)', () => whyMessage({ workload, triage, where: field, schedulerReasons: [], logProblem: field })],
  ['/runai why (pending)', () => whyMessage({ workload: { ...workload, state: 'Pending' }, schedulerReasons: [{ reason: field, message: field, count: 3 }], plainReasons: [] })],
  ['Home tab', () => buildHomeView({ now, workloads: [workload], alerts: [{ entry: { key: 'wl:uid-1:Failed', sentAt: '2026-11-29T11:00:00Z' }, workload: stored }], nextWindow: null, settings: DEFAULT_SETTINGS, mutes: [{ scope: `workload:${field}` }] })],
  ['cleanup digest', () => buildCleanupDigest({ workloads: [stored], afterMs: 7 * 86_400_000 })],
  ['archive problem (operators)', () => buildArchiveProblemMessage({ problem: { kind: 'io-error', code: field, message: field }, dir: '/archive', workload: field })],
  ['maintenance notice to an owner', () => buildOwnerNotice({ uid: 'w', occurrenceStart: '2026-12-01T00:00:00Z', key: 'w', summary: field, start: new Date('2026-12-01T00:00:00Z'), end: new Date('2026-12-01T04:00:00Z'), allDay: false, status: 'confirmed', sequence: 0 }, [{ ...workload, state: 'Running', name: field, project: field }], { timezone: 'UTC', now })],
  ['owner note on a channel post', () => withOwnerNote(buildWorkloadAlert({ workload, state: 'Failed', triage }), HOSTILE_OWNER)],
];

describe('every output path, one hostile corpus', () => {
  it('finds the error in the hostile log (the corpus reaches the renderers)', () => {
    expect(triage.firstError?.line).toContain('RuntimeError');
  });

  it.each(slackOutputs)('%s: no secret, no live markup, valid Block Kit', (_name, build) => {
    const output = build();
    const problems = strings(output)
      .map(([path, text]) => [path, slackProblem(text, path.endsWith('.plain'))] as const)
      .filter(([, problem]) => problem !== undefined);
    expect(problems).toEqual([]);
    const blocks = (output as { blocks?: unknown[] }).blocks;
    if (blocks && (output as { type?: string }).type !== 'home') expect(messageViolation(output as never)).toBeUndefined();
    for (const [path, text] of strings(output)) if (!path.endsWith('.plain')) expect((text.match(/```/g) ?? []).length % 2).toBe(0);
  });

  it('the archive file holds no secret, whatever the chunking', () => {
    for (const size of [1, 7, 4096, 1 << 20]) {
      const bytes = Buffer.from(log);
      const redactor = new LineRedactor();
      const out: Buffer[] = [];
      for (let i = 0; i < bytes.length; i += size) out.push(...redactor.push(bytes.subarray(i, i + size)).map((b) => Buffer.from(b)));
      out.push(...redactor.end());
      const file = Buffer.concat(out).toString('utf8');
      expect(leakIn(file)).toBeUndefined();
      expect(file).toContain('Starting training on 8 GPUs');
    }
  });
});
