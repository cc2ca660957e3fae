/** Runs the built CLI (dist/cli.js), building it first when missing (CI builds before testing). */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';

export const ROOT = join(import.meta.dirname, '..', '..');
export const CLI = join(ROOT, 'dist', 'cli.js');

export function ensureBuilt(): void {
  if (!existsSync(CLI)) execFileSync('npm', ['run', 'build'], { cwd: ROOT, stdio: 'inherit' });
}
