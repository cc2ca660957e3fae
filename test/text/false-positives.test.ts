/**
 * Redaction must not mangle ordinary training output. Every line of the fixture logs (the
 * triage fixtures in test/fixtures/logs and the hand-written ordinary training log in
 * test/fixtures/text: loss values, git SHAs, UUIDs, checksums, checkpoint paths, base64
 * image thumbnails in JSON, flags such as --sort_key_column) goes through the pipeline; a
 * line that changes must hold a secret, i.e. be listed below with the secret's kind.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cleanLine } from '../../src/triage/escape.js';
import { redactLine } from '../../src/triage/redact.js';

const here = fileURLToPath(new URL('.', import.meta.url));
const DIRS = [join(here, '../fixtures/logs'), join(here, '../fixtures/text')];

/** Fixture files and the number of their lines that hold a secret (and so must change). */
const SECRET_LINES: Record<string, number> = {
  'permission-gated-repo-chain.log': 1,
  'secrets-env-dump.log': 13,
  'secrets-private-key.log': 8,
};

function lines(): Array<{ file: string; line: string }> {
  return DIRS.flatMap((dir) =>
    readdirSync(dir)
      .filter((f) => f.endsWith('.log'))
      .flatMap((file) => readFileSync(join(dir, file), 'utf8').split(/\r?\n/).map((line) => ({ file, line }))),
  );
}

describe('false positives of redaction on ordinary logs', () => {
  const all = lines();
  const changed = all.filter(({ line }) => redactLine(cleanLine(line)) !== cleanLine(line));

  it('changes no line of a file that holds no secret', () => {
    const wrong = changed.filter(({ file }) => !(file in SECRET_LINES)).map(({ file, line }) => `${file}: ${line}`);
    expect(wrong).toEqual([]);
  });

  it('changes exactly the secret-bearing lines of the secret fixtures', () => {
    const counts: Record<string, number> = {};
    for (const { file } of changed) counts[file] = (counts[file] ?? 0) + 1;
    expect(counts).toEqual(SECRET_LINES);
  });

  it('keeps the ordinary training log byte for byte', () => {
    const text = readFileSync(join(DIRS[1], 'ordinary-training.log'), 'utf8');
    for (const line of text.split('\n')) expect(redactLine(cleanLine(line))).toBe(cleanLine(line));
    expect(text.split('\n').length).toBeGreaterThan(20);
  });

  it('reports the false-positive figure', () => {
    const falsePositives = changed.filter(({ file }) => !(file in SECRET_LINES)).length;
    // Figure for the report: lines changed that hold no secret, over all fixture lines.
    process.stdout.write(`redaction false positives: ${falsePositives} of ${all.length} fixture lines (${changed.length} changed, all holding a secret)\n`);
    expect(falsePositives).toBe(0);
  });
});
