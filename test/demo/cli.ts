/** Where the built CLI is. test/global-setup.js builds dist/ fresh before every run. */
import { join } from 'node:path';

export const ROOT = join(import.meta.dirname, '..', '..');
export const CLI = join(ROOT, 'dist', 'cli.js');
