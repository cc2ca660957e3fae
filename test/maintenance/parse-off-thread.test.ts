/**
 * parseFeed in a worker thread (the compiled dist/ worker, built from these sources when missing
 * or older than them): the same windows as the pure function, errors as values, and an event
 * loop that keeps turning while a big feed is parsed.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseFeed } from '../../src/maintenance/parse.js';
import { parseFeedOffThread, workerAvailable } from '../../src/maintenance/parse-off-thread.js';
import { generatedFeed } from './generated-feed.js';
import { countTurns } from '../helpers/turns.js';

const ROOT = join(import.meta.dirname, '..', '..');
const WORKER = join(ROOT, 'dist', 'maintenance', 'parse-worker.js');
const workerUrl = pathToFileURL(WORKER);
const YEAR_2026 = { timezone: 'Europe/Berlin', from: new Date('2026-01-01T00:00:00Z'), to: new Date('2027-01-01T00:00:00Z') };

function newestSource(): number {
  const dir = join(ROOT, 'src', 'maintenance');
  return Math.max(...readdirSync(dir).map((f) => statSync(join(dir, f)).mtimeMs));
}

beforeAll(() => {
  if (!existsSync(WORKER) || statSync(WORKER).mtimeMs < newestSource()) execFileSync('npm', ['run', 'build'], { cwd: ROOT, stdio: 'inherit' });
}, 180_000);

describe('parseFeedOffThread', () => {
  it('finds the compiled worker', () => {
    expect(workerAvailable({ workerUrl })).toBe(true);
  });

  it('gives the same windows and problems as parseFeed on the calling thread', async () => {
    const text = generatedFeed(300);
    const answer = await parseFeedOffThread(text, YEAR_2026, { workerUrl });
    expect(answer).toEqual({ ok: true, result: parseFeed(text, YEAR_2026) });
    // A Date from the worker (another realm than jest's): check its tag, not instanceof.
    if (answer.ok) expect(Object.prototype.toString.call(answer.result.windows[0].start)).toBe('[object Date]');
  });

  it('returns a feed that is no calendar as an error value', async () => {
    const answer = await parseFeedOffThread('BEGIN:VCARD\r\nVERSION:3.0\r\nFN:Someone\r\nEND:VCARD\r\n', YEAR_2026, { workerUrl });
    expect(answer).toEqual({ ok: false, error: expect.stringContaining('not an iCalendar feed'), feedError: true });
  });

  it('returns a worker that cannot start as an error value, not a rejection', async () => {
    const broken = pathToFileURL(join(ROOT, 'package.json'));
    const answer = await parseFeedOffThread(generatedFeed(3), YEAR_2026, { workerUrl: broken });
    expect(answer.ok).toBe(false);
  });

  it('lets the event loop turn while a big feed is parsed', async () => {
    const loop = countTurns();
    const answer = await parseFeedOffThread(generatedFeed(3000), YEAR_2026, { workerUrl });
    loop.stop();
    expect(answer.ok).toBe(true);
    // Parsed on this thread, the loop would not have turned at all before the answer.
    expect(loop.turns).toBeGreaterThan(20);
  });
});
