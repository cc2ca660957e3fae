import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { EXIT, runTriageLog, type TriageLogFlags } from '../../src/commands/triage-log.js';

const fixtures = fileURLToPath(new URL('../fixtures/logs/', import.meta.url));
const root = fileURLToPath(new URL('../../', import.meta.url));

async function run(file: string, flags: TriageLogFlags = {}, stdin: Array<Buffer | string> = []) {
  let stdout = '';
  let stderr = '';
  const code = await runTriageLog(file, flags, {
    stdout: { write: (s: string) => (stdout += s) },
    stderr: { write: (s: string) => (stderr += s) },
    stdin: (async function* () {
      yield* stdin;
    })(),
  });
  return { code, stdout, stderr };
}

describe('triage-log command', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'triage-log-'));
  });

  it('prints exactly one JSON object with the documented fields, secrets redacted', async () => {
    const { code, stdout } = await run(join(fixtures, 'secrets-env-dump.log'), { json: true });
    expect(code).toBe(EXIT.ok);
    expect(stdout.trim().split('\n')).toHaveLength(1);
    const out = JSON.parse(stdout);
    expect(out).toMatchObject({ firstError: { line: "KeyError: 'labels'", lineNumber: 17 }, category: 'other', transient: false });
    expect(typeof out.advice).toBe('string');
    expect(typeof out.snippet).toBe('string');
    expect(stdout).not.toContain('hunter2');
    expect(stdout).not.toContain('ghp_aBcDeF');
  });

  it('prints a human summary with the error line marked in its context', async () => {
    const { code, stdout } = await run(join(fixtures, 'gpu-oom-ddp-rank3.log'));
    expect(code).toBe(EXIT.ok);
    expect(stdout).toContain('Category:    GPU out of memory (needs a change before a retry)');
    expect(stdout).toMatch(/First error: line \d+ \(rank 3\)/);
    expect(stdout).toMatch(/^> +\d+ \| \[default3\]:torch\.OutOfMemoryError/m);
  });

  it('uses --exit-code and --reason', async () => {
    const file = join(fixtures, 'host-oom-reason-only.log');
    expect(JSON.parse((await run(file, { json: true, reason: 'Evicted' })).stdout)).toMatchObject({ category: 'eviction', transient: true });
    expect(JSON.parse((await run(file, { json: true, exitCode: '139' })).stdout)).toMatchObject({ category: 'crash' });
  });

  it('says an empty log is empty and exits 0', async () => {
    const empty = join(dir, 'empty.log');
    writeFileSync(empty, '');
    const { code, stdout } = await run(empty);
    expect(code).toBe(EXIT.ok);
    expect(stdout).toContain('The log is empty');
    expect(JSON.parse((await run(empty, { json: true })).stdout).firstError).toBeNull();
  });

  it('says a binary file looks binary and exits 0', async () => {
    const { code, stdout } = await run(join(fixtures, 'binary-garbage.log'));
    expect(code).toBe(EXIT.ok);
    expect(stdout).toContain('looks like binary data');
    expect(stdout).not.toMatch(/[\x00-\x08\x0b-\x1f\x7f]/);
  });

  it('reads standard input for -', async () => {
    const { stdout } = await run('-', { json: true }, ['step 1\nPermissionError: [Errno 13] ', Buffer.from('Permission denied\n')]);
    expect(JSON.parse(stdout)).toMatchObject({ category: 'permission', firstError: { lineNumber: 2 } });
  });

  it('exits 1 with a clear message for a file it cannot read', async () => {
    const missing = await run(join(dir, 'missing.log'));
    expect(missing).toMatchObject({ code: EXIT.unreadable, stdout: '' });
    expect(missing.stderr).toMatch(/cannot read .*missing\.log: ENOENT/);
    expect((await run(dir)).code).toBe(EXIT.unreadable);
  });

  it('exits 2 for a bad --exit-code', async () => {
    const { code, stderr } = await run(join(fixtures, 'gpu-oom-single.log'), { exitCode: 'abc' });
    expect(code).toBe(EXIT.usage);
    expect(stderr).toContain('--exit-code');
  });

  describe('the built CLI', () => {
    const cli = join(root, 'dist/cli.js');

    it('runs triage-log --json on a fixture and exits 0', () => {
      const out = execFileSync('node', [cli, 'triage-log', join(fixtures, 'import-module-not-found.log'), '--json'], { encoding: 'utf8' });
      expect(JSON.parse(out)).toMatchObject({ category: 'import', firstError: { lineNumber: 6 } });
    });

    it('exits 2 when the file argument is missing', () => {
      expect(spawnSync('node', [cli, 'triage-log'], { encoding: 'utf8' }).status).toBe(EXIT.usage);
    });
  });
});
