import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Every line of every log under test/fixtures/logs/ (all sets, labels and READMEs left out),
 * read as latin1 as the scanner reads bytes: for checks that must hold on any real line.
 */
export function fixtureLines(): string[] {
  return logFiles(fileURLToPath(new URL('../fixtures/logs/', import.meta.url))).flatMap((path) => readFileSync(path, 'latin1').split('\n'));
}

function logFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return logFiles(path);
    return /\.(?:json|md)$/.test(name) ? [] : [path];
  });
}
