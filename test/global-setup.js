/**
 * Builds dist/ once, fresh, before every test run. Some suites run the compiled CLI and the
 * packaging tests read dist/ itself; building only when dist/ was missing let a stale build be
 * tested without a word. Plain JS because jest loads it before any transform is set up.
 */
import { execFileSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

export default function buildDist() {
  const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
  // tsc never deletes output, so a module removed from src/ would linger in dist/.
  rmSync(new URL('../dist', import.meta.url), { recursive: true, force: true });
  try {
    execFileSync(process.execPath, [tsc, '-p', 'tsconfig.build.json'], { cwd: ROOT, stdio: 'pipe', encoding: 'utf8' });
  } catch (err) {
    const output = `${err.stdout ?? ''}${err.stderr ?? ''}`.trim() || err.message;
    throw new Error(`npm test builds dist/ first (tsc -p tsconfig.build.json), and the build failed:\n${output}`);
  }
}
