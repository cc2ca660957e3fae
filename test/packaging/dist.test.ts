/**
 * What `start` loads, read from the compiled output (test/global-setup.js builds dist/ fresh
 * before the run): the production path must not carry the demo or the simulators, which are
 * test and try-it-out code, nor `ws`, a dev dependency that the image does not install.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const DIST = join(ROOT, 'dist');

// Static imports and re-exports only: `import(…)` loads on demand and is what the demo uses.
const STATIC_IMPORT = /^(?:import|export)\s+(?:[^;'"()]*?\s*from\s*)?['"]([^'"]+)['"]/gm;

/** Every compiled file `entry` loads at start-up, and every bare package specifier they name. */
function staticGraph(entry: string): { files: Set<string>; packages: Set<string> } {
  const files = new Set<string>();
  const packages = new Set<string>();
  const pending = [entry];
  while (pending.length > 0) {
    const file = pending.pop()!;
    if (files.has(file)) continue;
    files.add(file);
    for (const [, specifier] of readFileSync(file, 'utf8').matchAll(STATIC_IMPORT)) {
      if (specifier.startsWith('.')) pending.push(resolve(dirname(file), specifier));
      else if (!specifier.startsWith('node:')) packages.add(specifier);
    }
  }
  return { files, packages };
}

function jsFilesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? jsFilesUnder(join(dir, e.name)) : e.name.endsWith('.js') ? [join(dir, e.name)] : [],
  );
}

describe('dist/cli.js at start-up', () => {
  const { files, packages } = staticGraph(join(DIST, 'cli.js'));
  const reached = [...files].map((f) => relative(DIST, f));

  it('loads the bot (the walk follows the compiled imports)', () => {
    expect(reached).toEqual(expect.arrayContaining(['app.js', 'commands/start.js', 'commands/demo.js']));
    expect(packages).toContain('@slack/bolt');
  });

  it('reaches no file of dist/sim or dist/demo', () => {
    expect(reached.filter((f) => /^(?:sim|demo)\//.test(f))).toEqual([]);
  });

  it('imports ws nowhere (Bolt and client-node bring their own)', () => {
    expect([...packages].filter((p) => p === 'ws' || p.startsWith('ws/'))).toEqual([]);
  });
});

describe('the build of the run', () => {
  it('has one compiled file per source file and nothing else', () => {
    const compiled = jsFilesUnder(DIST).map((f) => relative(DIST, f).replace(/\.js$/, ''));
    const sources = jsFilesUnder(join(ROOT, 'src')).length; // no .js in src/
    expect(sources).toBe(0);
    const expected = readdirSync(join(ROOT, 'src'), { recursive: true, encoding: 'utf8' })
      .filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts'))
      .map((f) => f.replace(/\.ts$/, ''));
    expect(compiled.sort()).toEqual(expected.sort());
    expect(existsSync(join(DIST, 'cli.js'))).toBe(true);
  });
});
