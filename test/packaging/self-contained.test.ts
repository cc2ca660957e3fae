/**
 * The repository must work cloned on its own: no code, test, benchmark or script may reach for
 * the design docs that sit beside it during development. Fixtures are copied into
 * test/fixtures/ instead (see its README.md).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
// Spelled in pieces so this file does not match itself.
const SIBLING = ['..', 'shared', ''].join('/');
const SCANNED = ['src', 'test', 'bench', 'scripts', 'deploy'];

function* sourceFiles(dir: string): Generator<string> {
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return;
  }
  for (const e of entries) {
    const path = join(dir, e.name);
    // Copied fixtures are data; their notes may name upstream paths.
    if (e.isDirectory() && path !== join(ROOT, 'test', 'fixtures')) yield* sourceFiles(path);
    else if (e.isFile() && /\.(?:[cm]?[jt]s|json|ya?ml|sh)$/.test(e.name)) yield path;
  }
}

test('no source, test, benchmark or script file refers to the design folder beside the repository', () => {
  const offenders: string[] = [];
  for (const top of [...SCANNED.map((d) => join(ROOT, d)), ROOT]) {
    const files = top === ROOT
      ? readdirSync(ROOT).filter((f) => /\.(?:json|[cm]?js|ts)$/.test(f)).map((f) => join(ROOT, f))
      : [...sourceFiles(top)];
    for (const file of files) {
      if (file.includes('node_modules')) continue;
      if (readFileSync(file, 'utf8').includes(SIBLING)) offenders.push(relative(ROOT, file));
    }
  }
  expect(offenders).toEqual([]);
});
