/**
 * The lines `/runai status`, `/runai why`, `/runai list` filters, the owners' maintenance DM and
 * "Save the whole log" add: row by row, pure.
 */
import type { Workload } from '../../src/model.js';
import type { LogFinding } from '../../src/recovery/log-advice.js';
import { filteredListMessage, filterWords } from '../../src/messages/replies.js';
import { noLogToSaveMessage, notOwnerToSaveMessage, savedLogComment, savedLogMessage, sizeText } from '../../src/messages/save-log.js';
import { checkpointNote, logFindingsSection } from '../../src/messages/status-notes.js';

const now = new Date('2026-12-01T12:00:00Z');
const w: Workload = { uid: 'u1', kind: 'TrainingWorkload', apiVersion: 'run.ai/v2alpha1', name: 'gpt', namespace: 'runai-llm', project: 'llm', state: 'Failed', pods: [] };

describe('checkpointNote', () => {
  it.each([
    [{ sighting: { linesRead: 2000, lastSaved: { framework: 'Megatron-LM', progress: { unit: 'iteration' as const, value: 12000 }, at: new Date(now.getTime() - 40 * 60_000) }, ageMs: 40 * 60_000 }, pod: 'p', container: 'c' }, 'Last checkpoint saved 40 min ago (iteration 12000)'],
    [{ sighting: { linesRead: 312 }, pod: 'p', container: 'c' }, 'No checkpoint line in the last 312 lines of its log'],
    [{ problem: 'its log could not be read (timeout)' }, 'Could not look for its last checkpoint: its log could not be read (timeout)'],
    [{ problem: 'its pods could not be listed (<!channel>)' }, 'Could not look for its last checkpoint: its pods could not be listed (&lt;!channel&gt;)'],
  ])('%j → %s', (reading, line) => {
    expect(checkpointNote(reading, now)).toBe(line);
  });
});

describe('logFindingsSection', () => {
  const finding = (kind: LogFinding['kind'], code: string): LogFinding => ({ kind, problem: ['the log ', { code }, ' is lost'], guide: 'g', fix: ['Mount ', { code: '/data' }, ''] });

  it('lists each finding as its problem and fix, the workload text as escaped inline code', () => {
    expect(logFindingsSection([finding('log-not-persistent', '/tmp/<@U1>.log')])).toBe(
      ':memo: *Keeping its log* (cluster guide: save application logs to persistent storage):\n• the log `/tmp/&lt;@U1&gt;.log` is lost. Mount `/data`',
    );
  });

  it('says nothing when there is nothing to say, and bounds each line', () => {
    expect(logFindingsSection([])).toBeUndefined();
    const long = logFindingsSection([finding('masked-exit', 'x'.repeat(5000))])!;
    expect(long.length).toBeLessThan(800);
  });
});

describe('/runai list with a filter', () => {
  it.each([
    [{ project: 'vision' }, 2, 'workloads in project `vision`'],
    [{ state: 'failed' }, 1, 'failed workload'],
    [{ state: 'running', cluster: 'gpu-east', project: 'llm' }, 3, 'running workloads in project `llm` on cluster *gpu-east*'],
  ])('names the filter %j in words', (filter, count, words) => {
    expect(filterWords(filter, count)).toBe(words);
  });

  it('answers "none you may see" the same whether the project exists or not', () => {
    expect(filteredListMessage([], { project: 'nosuch' }, now).text).toBe('There are no workloads in project `nosuch` that you may see.');
    expect(filteredListMessage([w], { state: 'failed' }, now).text).toBe('1 failed workload that you may see, by state.');
  });
});

describe('"Save the whole log" messages', () => {
  const saved = { workload: w, pod: 'gpt-0-0', container: 'gpt', previous: true, from: 'archive' as const, bytes: 2_097_152, cutBytes: 5_300_000 };

  it.each([[840, '840 bytes'], [12_500, '12.5 KB'], [2_097_152, '2.1 MB']])('sizes %d bytes as %s', (bytes, text) => {
    expect(sizeText(bytes)).toBe(text);
  });

  it('says where the file came from, what was cut, and that it is redacted', () => {
    expect(savedLogComment(saved)).toBe('The log of `gpt` in project *llm* (pod gpt-0-0, container gpt, previous run): the copy I archived when it failed, secrets redacted. Its first 5.3 MB were left off to keep the file under the size limit.');
    expect(savedLogComment({ ...saved, from: 'cluster', cutBytes: 0, previous: false })).toBe('The log of `gpt` in project *llm* (pod gpt-0-0, container gpt): read from the cluster now (no archived copy), secrets redacted.');
    expect(savedLogMessage(saved).text).toBe('I put the log of `gpt` into our DM as a file (2.1 MB, its end).');
  });

  it('tells a project member who may save it, and says why there is nothing to save', () => {
    expect(notOwnerToSaveMessage(w).text).toContain('Only the owner of `gpt` or a bot admin');
    expect(noLogToSaveMessage(w).text).toBe('I have no log of `gpt` to save: it is not in the archive and its pods are gone.');
    expect(noLogToSaveMessage(w, 'its log is empty').text).toBe('I have no log of `gpt` to save: its log is empty.');
  });
});
