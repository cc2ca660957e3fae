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
import { filteredListMessage, logsMessage, statusMessage, whyMessage } from '../../src/messages/replies.js';
import { noLogToSaveMessage, notOwnerToSaveMessage, savedLogComment, savedLogMessage } from '../../src/messages/save-log.js';
import { checkpointNote } from '../../src/messages/status-notes.js';
import { redactedTail } from '../../src/slack/save-log.js';
import { buildOwnerNotice } from '../../src/messages/maintenance.js';
import { withOwnerNote } from '../../src/notify/outbox.js';
import { buildFailedAgainDm, buildResubmittedReply, buildStateFollowUp, buildStoppedElsewhereDm, withRootStatus } from '../../src/messages/follow-ups.js';
import { buildLogTip, buildMaskedFailureDm, checkpointLine, logLossLine } from '../../src/messages/log-advice.js';
import { lastCheckpoint } from '../../src/recovery/checkpoint.js';
import { diffSubmission } from '../../src/recovery/diff.js';
import { logAdvice } from '../../src/recovery/log-advice.js';
import { maskedFailure } from '../../src/recovery/masked.js';
import { submissionOf } from '../../src/recovery/submission.js';
import { submissionOfWorkload } from '../../src/recovery/workload-submission.js';
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

/**
 * Workloads submitted with the corpus everywhere a CR holds text: image, command, arguments (a
 * megabyte of them in the second), environment names, mount paths and claims, node pools;
 * their command pipes into a hostile log path and carries every flag-shaped secret.
 */
function hostileSubmission(tag: string, extraArguments = '') {
  const secrets = SECRETS.filter((x) => !x.text.includes('\n')).map((x) => x.text).join(' ');
  // Markup a shell reads as text inside double quotes (backticks and pipes would be syntax).
  const markup = '<!channel> <!here> <@U123> <http://evil.example> @channel \u202e\u200b\x1b[31m';
  const script = `{ python train.py "${markup}" ${secrets}; } 2>&1 | tee "/workspace/${markup}.log"`;
  return submissionOf({
    kind: 'TrainingWorkload',
    spec: {
      image: { value: `nvcr.io/${field}:${tag}` },
      command: { value: 'bash' },
      arguments: { value: `-c '${script.replace(/'/g, '')}' ${extraArguments}` },
      environment: { items: { [HOSTILE_LINE]: { value: SECRETS[0].text }, WANDB_API_KEY: { value: SECRETS[3].text } } },
      pvcs: { items: { a: { value: { claimName: field, path: `/data/${HOSTILE_LINE}` } } } },
      nodePools: { value: field },
    },
  });
}
const previousSubmission = hostileSubmission('1');
const nextSubmission = hostileSubmission('2', `${HOSTILE_LINE} `.repeat(30_000));
const changes = diffSubmission(previousSubmission, nextSubmission);
const findings = logAdvice(nextSubmission);
const masked = maskedFailure(nextSubmission, triage);
/**
 * The Submission the notifier builds for a failed or completed workload: the normalised
 * workload's command and arguments (the corpus, with a megabyte more) and its pods' environment
 * names and volumes (the corpus again), as alerts/masked checks read them.
 */
const fromPods = submissionOfWorkload({ ...workload, command: 'bash -c', arguments: `"python train.py ${HOSTILE_LINE} ${SECRETS.filter((x) => !x.text.includes('\n')).map((x) => x.text).join(' ')} | tee '/tmp/${HOSTILE_LINE}.log'" ${`${HOSTILE_LINE} `.repeat(30_000)}` }, [
  {
    metadata: { name: field, labels: { 'training.kubeflow.org/replica-type': 'master' } },
    spec: {
      containers: [{ name: 'main', image: field, env: [{ name: HOSTILE_LINE, value: SECRETS[0].text }], volumeMounts: [{ name: 'v', mountPath: `/data/${HOSTILE_LINE}` }] }],
      volumes: [{ name: 'v', persistentVolumeClaim: { claimName: field } }],
    },
  },
]);
const fromPodsFindings = logAdvice(fromPods);
const fromPodsMasked = maskedFailure(fromPods, triage);
const sighting = lastCheckpoint([`2026-11-29T11:00:00Z Saving model checkpoint to /out/<!channel><@U123>@channel\u202e<http://evil.example|x>/checkpoint-5 ${SECRETS[0].text}`, ...log.split('\n')], now);

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
  ['follow-up: resubmitted, with the diff', () => buildResubmittedReply({ workload, previous: previousSubmission, changes, verdict: 'several-changes', earlierCategory: field })],
  ['follow-up: running again', () => buildStateFollowUp('running', workload)],
  ['follow-up: completed', () => buildStateFollowUp('completed', workload, { resubmission: true })],
  ['root status edit', () => withRootStatus(buildWorkloadAlert({ workload, state: 'Failed', triage }), field, 'Failed \u2192 resubmitted, running')],
  ['failed again DM', () => buildFailedAgainDm({ workload, state: 'Failed', triage, site: { pod: field, node: field } }, { permalink: 'https://runai.example.org/archives/D0123/p1732870000123456', failures: 3 })],
  ['stopped-by-someone-else DM (the stopper named by the cluster)', () => buildStoppedElsewhereDm({ workload: { ...workload, state: 'Stopped' }, state: 'Stopped' }, { permalink: 'https://runai.example.org/archives/D0123/p1732870000123456' }, { by: 'someone-else', who: field })],
  ['stopped-by-the-system DM', () => buildStoppedElsewhereDm({ workload: { ...workload, state: 'Stopped' }, state: 'Stopped' }, {}, { by: 'system', why: field })],
  ['log-saving tip, one per finding', () => findings.map((f) => buildLogTip(workload, f))],
  ['masked-failure DM', () => buildMaskedFailureDm(workload, masked!, 'https://runai.example.org')],
  ['failure DM log-loss line', () => ({ text: logLossLine(findings), blocks: [] })],
  ['alert DM with the log-loss line from its workload and pods', () => buildWorkloadAlert({ workload, state: 'Failed', triage: triageText('', { exitCode: 1 }), logProblem: field, logLossLine: logLossLine(fromPodsFindings) })],
  ['log-saving tip from the workload and pods, one per finding', () => fromPodsFindings.map((f) => buildLogTip(workload, f))],
  ['masked-failure DM from the workload and pods', () => buildMaskedFailureDm(workload, fromPodsMasked!, 'https://runai.example.org')],
  ['masked-failure DM in a channel, with the owner note', () => withOwnerNote(buildMaskedFailureDm(workload, fromPodsMasked!), HOSTILE_OWNER)],
  ['checkpoint line', () => ({ text: checkpointLine(sighting, now), blocks: [] })],
  ['checkpoint note, and one for a log that could not be read', () => ({ text: `${checkpointNote({ sighting, pod: field, container: field }, now)} ${checkpointNote({ problem: field }, now)}`, blocks: [] })],
  ['/runai status of a running workload: checkpoint and log-saving findings', () => statusMessage({ workload: { ...workload, state: 'Running' }, now, checkpoint: { sighting, pod: field, container: field }, logFindings: fromPodsFindings })],
  ['/runai status: a checkpoint that could not be read', () => statusMessage({ workload: { ...workload, state: 'Running' }, now, checkpoint: { problem: field }, logFindings: findings })],
  ['/runai why with the log-saving findings', () => whyMessage({ workload, triage, where: field, schedulerReasons: [], logProblem: field, logFindings: fromPodsFindings })],
  ['maintenance notice to an owner, with checkpoint lines', () => buildOwnerNotice({ uid: 'w', occurrenceStart: '2026-12-01T00:00:00Z', key: 'w', summary: field, start: new Date('2026-12-01T00:00:00Z'), end: new Date('2026-12-01T04:00:00Z'), allDay: false, status: 'confirmed', sequence: 0 }, [{ ...workload, state: 'Running', name: field, project: field }, { ...workload, state: 'Running' }], { timezone: 'UTC', now }, [{ sighting, pod: field, container: field }, { problem: field }])],
  ['/runai list with a filter', () => filteredListMessage([workload, { ...workload, uid: 'uid-2', name: field, project: field }], { project: field, cluster: field, state: 'failed' }, now)],
  ['/runai list with a filter, nothing to see', () => filteredListMessage([], { project: field, cluster: field }, now)],
  ['"Save the whole log": the file\'s message and the answers', () => {
    const saved = { workload: { ...workload, name: field, project: field, cluster: field }, pod: field, container: field, previous: true, from: 'archive' as const, bytes: 2_000_000, cutBytes: 12_345 };
    return [{ text: savedLogComment(saved), blocks: [] }, savedLogMessage(saved), notOwnerToSaveMessage(saved.workload), noLogToSaveMessage(saved.workload, field)];
  }],
];

describe('every output path, one hostile corpus', () => {
  it('finds the error in the hostile log (the corpus reaches the renderers)', () => {
    expect(triage.firstError?.line).toContain('RuntimeError');
  });

  it('reaches the follow-up and log-advice builders with the corpus in it', () => {
    expect(changes.length).toBeGreaterThan(1);
    expect(findings.map((f) => f.kind)).toEqual(['masked-exit', 'buffered-output', 'log-not-persistent', 'credential-in-log']);
    expect(masked).toBeDefined();
    expect(sighting.lastSaved?.progress?.value).toBe(5);
    expect(nextSubmission.cut).toBe(true);
    expect(fromPods.cut).toBe(true);
    expect(fromPodsFindings.map((f) => f.kind)).toEqual(expect.arrayContaining(['masked-exit', 'buffered-output']));
    expect(logLossLine(fromPodsFindings)).toBeDefined();
    expect(fromPodsMasked).toBeDefined();
    expect(JSON.stringify(fromPods)).not.toContain(SECRETS[0].leak);
  });

  it('keeps environment values out of every submission and change', () => {
    const kept = JSON.stringify([previousSubmission, nextSubmission, changes]);
    expect(kept).not.toContain(SECRETS[0].leak);
    expect(kept).not.toContain(SECRETS[3].leak);
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

  it('the file "Save the whole log" uploads holds no secret, whole or cut anywhere', () => {
    const bytes = Buffer.from(log);
    // Cut anywhere, and just inside the private-key block: its BEGIN line gone, its body must not pass.
    const key = bytes.indexOf('-----BEGIN');
    for (const start of [0, 1, 17, key + 3, bytes.indexOf(0x0a, key) + 1, Math.floor(bytes.length / 2), bytes.length - 5]) {
      const { text } = redactedTail({ bytes: bytes.subarray(start), before: start });
      expect(leakIn(text.toString('utf8'))).toBeUndefined();
    }
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
