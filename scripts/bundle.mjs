/**
 * The production build: one ES module per entry point, with only the code the bot reaches.
 *
 * Why: client-node's KubeConfig imports its generated index, which loads every API group and
 * model class (~70 MB resident at start for four calls); a bundle keeps the four API classes the
 * bot uses and drops the rest (bench/profiles/ has the measurements). tsc's dist/ stays what
 * tests and the demo run; the image ships this bundle as its dist/.
 *
 *   node scripts/bundle.mjs           → bundle/cli.js + bundle/parse-worker.js (the image's dist/)
 *   node scripts/bundle.mjs --bench   → build/bench-bundle/bot-process.js + parse-worker.js
 *   --outdir DIR: elsewhere (the packaging test); --metafile: also DIR/meta.json, what went in.
 *
 * The iCal worker sits beside the entry because parse-off-thread.ts finds it relative to its own
 * module (`./parse-worker.js`), which in a bundle is the entry. The demo and the simulators stay
 * out: commands/demo.ts imports them with import() of paths relative to dist/commands/, which do
 * not exist beside the bundle, so `demo` says to run it from a clone, as the image did before.
 */
import { build } from 'esbuild';
import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

const TARGETS = {
  production: { entryPoints: { cli: 'src/cli.ts', 'parse-worker': 'src/maintenance/parse-worker.ts' }, outdir: 'bundle' },
  bench: { entryPoints: { 'bot-process': 'bench/bot-process.ts', 'parse-worker': 'src/maintenance/parse-worker.ts' }, outdir: 'build/bench-bundle' },
};

export async function bundle(target, { outdir = TARGETS[target].outdir, metafile = false } = {}) {
  const { entryPoints } = TARGETS[target];
  const result = await build({
    absWorkingDir: ROOT,
    entryPoints,
    outdir,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    sourcemap: true,
    // Whitespace and syntax only: comments go (V8 keeps a module's whole source in memory), names
    // stay for stack traces. Renaming too measured more resident memory, not less.
    minifyWhitespace: true,
    minifySyntax: true,
    // Native addons load from node_modules; pg-native is pg's optional binding, never installed.
    external: ['better-sqlite3', 'pg-native'],
    // The demo and the simulators: loaded with import() by the demo command only (see above).
    plugins: [leaveOut(/^\.\.\/(?:demo|sim)\//)],
    // CommonJS dependencies call require() for Node's modules; an ES module bundle has none.
    banner: { js: "import { createRequire as __bundleCreateRequire } from 'node:module'; const require = __bundleCreateRequire(import.meta.url);" },
    logLevel: 'warning',
    legalComments: 'linked',
    metafile,
  });
  if (metafile) writeFileSync(resolve(ROOT, outdir, 'meta.json'), JSON.stringify(result.metafile));
  return result;
}

/** Keeps matching import() specifiers as they are, unresolved, so nothing of them is bundled. */
function leaveOut(filter) {
  return { name: 'leave-out', setup: (b) => b.onResolve({ filter }, (args) => ({ path: args.path, external: true })) };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const outdir = process.argv.includes('--outdir') ? process.argv[process.argv.indexOf('--outdir') + 1] : undefined;
  await bundle(process.argv.includes('--bench') ? 'bench' : 'production', { outdir, metafile: process.argv.includes('--metafile') });
}
