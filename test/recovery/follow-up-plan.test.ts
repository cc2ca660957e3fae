/**
 * The follow-ups' decision, row by row (recovery/follow-up-plan.ts): what a thread does with
 * each sight of the workloads of its chain, when a workload of the same name is a resubmission,
 * what the root's line is made of, and the guide's verdict on a resubmission.
 */
import { followUpChain } from '../../src/keys.js';
import type { LifecycleState, Workload } from '../../src/model.js';
import { awaitsResubmission, planFollowUp, resubmissionAdvice, statusEvents, stopCauseOf, stoppedFollowUp, type StopCause } from '../../src/recovery/follow-up-plan.js';
import { submissionOf } from '../../src/recovery/submission.js';
import type { StoredFollowUpThread } from '../../src/store/port.js';
import type { FollowUpEvent } from '../../src/messages/follow-ups.js';

const T0 = new Date('2026-11-30T10:00:00.000Z');
const at = (minutes: number) => new Date(T0.getTime() + minutes * 60_000);
const WEEK = 7 * 86_400_000;

const workload = (uid: string, state: LifecycleState, extra: Partial<Workload> = {}): Workload => ({
  uid, cluster: 'a', kind: 'TrainingWorkload', apiVersion: 'run.ai/v2alpha1', name: 'resnet', namespace: 'runai-vision', project: 'vision', owner: 'alice', state, pods: [], ...extra,
});

const thread = (extra: Partial<StoredFollowUpThread> = {}): StoredFollowUpThread => ({
  chain: followUpChain({ cluster: 'a', namespace: 'runai-vision', name: 'resnet' }),
  rootKey: 'wl:a/u1:Failed',
  current: 'a/u1',
  lastState: 'Failed',
  alerted: 'Failed',
  endedAt: T0.toISOString(),
  events: [],
  rootPayload: { text: 'x', blocks: [] },
  name: 'resnet',
  project: 'vision',
  muteScope: 'a/runai-vision/resnet',
  updatedAt: T0.toISOString(),
  ...extra,
});

describe('planFollowUp', () => {
  it('does nothing without a thread, or for the state the thread already noted', () => {
    expect(planFollowUp(undefined, { workload: workload('u1', 'Running'), firstSeen: false }, at(1), WEEK)).toEqual({ action: 'none' });
    expect(planFollowUp(thread(), { workload: workload('u1', 'Failed'), firstSeen: false }, at(1), WEEK)).toEqual({ action: 'none' });
  });

  it.each<[LifecycleState, FollowUpEvent]>([
    ['Running', 'running'],
    ['Completed', 'completed'],
    ['Stopped', 'stopped'],
    ['Deleted', 'deleted'],
    ['Failed', 'failed'],
  ])('tells %s of the alerted workload as the event %s, numbered by its place in the thread', (state, event) => {
    const from = thread({ lastState: state === 'Failed' ? 'Running' : 'Failed', events: state === 'Failed' ? ['running'] : [] });
    const step = planFollowUp(from, { workload: workload('u1', state), firstSeen: false }, at(5), WEEK);
    expect(step).toMatchObject({ action: 'tell', event, seq: from.events.length + 1, resubmission: false });
    if (step.action !== 'tell') throw new Error('unreachable');
    expect(step.thread.lastState).toBe(state);
    expect(step.thread.events).toEqual([...from.events, event]);
    // A failure or a stop is the attempt's end: a resubmission counts from it.
    expect(step.thread.endedAt).toBe(event === 'failed' || event === 'stopped' ? at(5).toISOString() : T0.toISOString());
  });

  it.each<LifecycleState>(['Pending', 'Initializing'])('notes %s without a word', (state) => {
    const step = planFollowUp(thread(), { workload: workload('u1', state), firstSeen: false }, at(1), WEEK);
    expect(step).toEqual({ action: 'note', thread: thread({ lastState: state, updatedAt: at(1).toISOString() }) });
  });

  it('takes a new workload of the same chain, first seen within the window after the failure, as its resubmission', () => {
    const step = planFollowUp(thread({ events: ['deleted'], lastState: 'Deleted' }), { workload: workload('u2', 'Pending', { createdAt: at(10).toISOString() }), firstSeen: true }, at(10), WEEK);
    expect(step).toMatchObject({ action: 'tell', event: 'resubmitted', seq: 2, resubmission: true });
    if (step.action !== 'tell') throw new Error('unreachable');
    expect(step.thread).toMatchObject({ current: 'a/u2', lastState: 'Pending', events: ['deleted', 'resubmitted'] });
    // Its later states are the resubmission's.
    expect(planFollowUp(step.thread, { workload: workload('u2', 'Running'), firstSeen: false }, at(11), WEEK)).toMatchObject({ action: 'tell', event: 'running', seq: 3, resubmission: true });
  });

  it('counts a resubmission first seen running (or failed) with where it stands, saying only "resubmitted"', () => {
    const running = planFollowUp(thread(), { workload: workload('u2', 'Running'), firstSeen: true }, at(10), WEEK);
    expect(running).toMatchObject({ action: 'tell', event: 'resubmitted', seq: 1, thread: { events: ['resubmitted', 'running'], lastState: 'Running' } });
    const failed = planFollowUp(thread(), { workload: workload('u2', 'Failed'), firstSeen: true }, at(10), WEEK);
    expect(failed).toMatchObject({ action: 'tell', event: 'resubmitted', thread: { events: ['resubmitted', 'failed'] } });
  });

  it.each<[string, Partial<StoredFollowUpThread>, Partial<Workload>, boolean, number]>([
    ['seen before (not new)', {}, {}, false, 10],
    ['past the window', {}, {}, true, 7 * 24 * 60 + 1],
    ['created well before the failure (an old object seen late)', {}, { createdAt: at(-30).toISOString() }, true, 10],
    ['after the workload ran again', { lastState: 'Running', events: ['running'] }, {}, true, 10],
    ['after it completed and was deleted', { lastState: 'Deleted', events: ['running', 'completed', 'deleted'] }, {}, true, 10],
  ])('does not take a workload of the same name as a resubmission when %s', (_why, from, extra, firstSeen, minutes) => {
    expect(planFollowUp(thread(from), { workload: workload('u2', 'Pending', extra), firstSeen }, at(minutes), WEEK)).toEqual({ action: 'none' });
  });

  it('decides the same snapshot the same way twice (a restart, a second replica): the same step and number', () => {
    const sight = { workload: workload('u1', 'Running'), firstSeen: false };
    expect(planFollowUp(thread(), sight, at(3), WEEK)).toEqual(planFollowUp(thread(), sight, at(3), WEEK));
  });
});

describe('awaitsResubmission', () => {
  it.each<[string, string[], boolean]>([
    ['Failed', [], true],
    ['Stopped', [], true],
    ['Deleted', ['deleted'], true],
    ['Deleted', ['resubmitted', 'failed', 'deleted'], true],
    ['Pending', ['resubmitted'], true],
    ['Running', ['running'], false],
    ['Deleted', ['running', 'deleted'], false],
    ['Completed', ['completed'], false],
  ])('%s after %j: %s', (lastState, events, expected) => {
    expect(awaitsResubmission({ lastState, events })).toBe(expected);
  });
});

describe('statusEvents', () => {
  it.each<[FollowUpEvent[], FollowUpEvent[]]>([
    [[], []],
    [['running'], ['running']],
    [['deleted', 'resubmitted'], ['resubmitted']],
    [['deleted', 'resubmitted', 'running'], ['resubmitted', 'running']],
    [['deleted', 'resubmitted', 'failed', 'deleted', 'resubmitted'], ['resubmitted', 'resubmitted']],
  ])('%j → %j', (events, expected) => {
    expect(statusEvents(events)).toEqual(expected);
  });
});

describe('resubmissionAdvice', () => {
  const cr = (image: string, args = 'train.py') => ({ kind: 'TrainingWorkload', spec: { image: { value: image }, command: { value: 'python' }, arguments: { value: args } } });
  const before = submissionOf(cr('reg/train:2.1'));

  it('names one change and holds it as the guide asks', () => {
    const advice = resubmissionAdvice(thread({ submission: before }), submissionOf(cr('reg/train:2.2')));
    expect(advice).toEqual({ changes: [{ kind: 'image-tag', subject: 'reg/train', before: '2.1', after: '2.2' }], verdict: 'one-change' });
  });

  it('warns of several changes at once', () => {
    expect(resubmissionAdvice(thread({ submission: before }), submissionOf(cr('reg/train:2.2', 'train.py --lr=3e-4')))?.verdict).toBe('several-changes');
  });

  it.each<[string, Partial<StoredFollowUpThread>, string]>([
    ['an application error', { transient: false }, 'unchanged-after-application-error'],
    ['a transient failure', { transient: true }, 'unchanged-after-transient-failure'],
    ['a stop', { alerted: 'Stopped' }, 'unchanged-after-stop'],
    ['a failure of unknown kind', {}, 'unchanged'],
    ['a stop after the resubmission before it failed', { events: ['resubmitted', 'stopped'], transient: false }, 'unchanged-after-stop'],
  ])('says what the guide says of an unchanged resubmission after %s', (_after, from, verdict) => {
    expect(resubmissionAdvice(thread({ submission: before, ...from }), before)?.verdict).toBe(verdict);
  });

  it('has nothing to say without the earlier submission', () => {
    expect(resubmissionAdvice(thread(), before)).toBeUndefined();
  });
});

describe('stopCauseOf and stoppedFollowUp: who stopped the workload a thread follows, and how it is told', () => {
  const stopped = (phaseMessage?: string, podReason?: string) => ({
    owner: 'alice',
    phaseMessage,
    pods: podReason ? [{ name: 'job-0-0', namespace: 'runai-vision', reason: podReason, containers: [] }] : [],
  });
  it.each<[string, ReturnType<typeof stopped>, StopCause, 'reply' | 'escalate']>([
    ['nothing says who: no one named, a reply', stopped(), { by: 'unnamed' }, 'reply'],
    ['a phase message naming no one', stopped('Workload stopped'), { by: 'unnamed' }, 'reply'],
    ['stopped by its owner (username)', stopped('Workload stopped by alice'), { by: 'owner' }, 'reply'],
    ['stopped by its owner (email)', stopped('suspended by user Alice@example.org'), { by: 'owner' }, 'reply'],
    ['stopped by another person', stopped('Workload stopped by bob'), { by: 'someone-else', who: 'bob' }, 'escalate'],
    ['preempted (the scheduler\'s Evict words)', stopped('Pod runai-vision/job-0-0 was preempted by higher priority workload runai-nlp/bert'), { by: 'system', why: 'preempted' }, 'escalate'],
    ['reclaimed by another project', stopped('reclaimed by job nlp-train'), { by: 'system', why: 'reclaimed' }, 'escalate'],
    ['stopped by a project timeout (policy)', stopped('Workload stopped by project timeout'), { by: 'system', why: 'timeout' }, 'escalate'],
    ['its pod was evicted', stopped(undefined, 'Evicted'), { by: 'system', why: 'evicted' }, 'escalate'],
    ['a pod reason that is no stop (OOMKilled is the container\'s)', stopped(undefined, 'OOMKilled'), { by: 'unnamed' }, 'reply'],
  ])('%s', (_, w, cause, told) => {
    expect(stopCauseOf(w)).toEqual(cause);
    expect(stoppedFollowUp(cause)).toBe(told);
  });

  it('reads only the head of a megabyte of phase message, in linear time', () => {
    const started = performance.now();
    expect(stopCauseOf(stopped(`${'stopped  '.repeat(120_000)}preempted`)).by).toBe('unnamed');
    expect(performance.now() - started).toBeLessThan(500);
  });
});
