/**
 * No Docker engine runs here, so the Dockerfile is checked statically: its stages, its base,
 * what reaches the runtime stage, and that everything it copies is in the build context.
 */
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const REPO = fileURLToPath(new URL('../../', import.meta.url));

interface Instruction {
  keyword: string;
  args: string;
}

interface Stage {
  base: string;
  name?: string;
  instructions: Instruction[];
}

/** Joins `\`-continued lines, drops comments and splits into stages at each FROM. */
function parseDockerfile(text: string): { stages: Stage[]; globalArgs: Map<string, string> } {
  const logicalLines = text
    .replace(/\\\r?\n(\s*#[^\n]*\n)*/g, ' ')
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line && !line.startsWith('#'));
  const globalArgs = new Map<string, string>();
  const stages: Stage[] = [];
  for (const line of logicalLines) {
    const [, keyword, args] = /^(\S+)\s*(.*)$/.exec(line)!;
    const instruction = { keyword: keyword.toUpperCase(), args: args.replace(/\s+/g, ' ') };
    if (instruction.keyword === 'FROM') {
      const [image, as, name] = instruction.args.split(' ');
      const base = image.replace(/\$\{(\w+)\}|\$(\w+)/g, (_, a, b) => globalArgs.get(a ?? b) ?? '');
      stages.push({ base, name: as?.toUpperCase() === 'AS' ? name : undefined, instructions: [] });
    } else if (stages.length === 0 && instruction.keyword === 'ARG') {
      const [key, value = ''] = instruction.args.split('=');
      globalArgs.set(key, value);
    } else {
      stages.at(-1)!.instructions.push(instruction);
    }
  }
  return { stages, globalArgs };
}

function argsOf(stage: Stage, keyword: string): string[] {
  return stage.instructions.filter((i) => i.keyword === keyword).map((i) => i.args);
}

/** COPY's sources (all words but the last, flags removed) and its --from stage, if any. */
function copiesOf(stage: Stage): Array<{ from?: string; sources: string[]; dest: string }> {
  return argsOf(stage, 'COPY').map((args) => {
    const words = args.split(' ');
    const from = words.find((w) => w.startsWith('--from='))?.slice('--from='.length);
    const paths = words.filter((w) => !w.startsWith('--'));
    return { from, sources: paths.slice(0, -1), dest: paths.at(-1)! };
  });
}

/** .dockerignore patterns as anchored regexes; a pattern also covers everything below it. */
function dockerignoreMatchers(text: string): RegExp[] {
  return text
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line && !line.startsWith('#'))
    .map((pattern) => {
      const body = pattern
        .replace(/^\/+|\/+$/g, '')
        .replace(/[.+^${}()|[\]\\]/g, '\\$&')
        .replace(/\*\*/g, '\u0000')
        .replace(/\*/g, '[^/]*')
        .replace(/\?/g, '[^/]')
        .replace(/\u0000/g, '.*');
      return new RegExp(`^${body}(/.*)?$`);
    });
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? filesUnder(join(dir, entry.name)) : [join(dir, entry.name)],
  );
}

const { stages } = parseDockerfile(readFileSync(join(REPO, 'Dockerfile'), 'utf8'));
const runtime = stages.at(-1)!;
const ignored = dockerignoreMatchers(readFileSync(join(REPO, '.dockerignore'), 'utf8'));

describe('Dockerfile', () => {
  it('has a build stage and a separate runtime stage, both on Node 22 LTS slim', () => {
    expect(stages.length).toBeGreaterThanOrEqual(2);
    for (const stage of stages) expect(stage.base).toBe('node:22-bookworm-slim');
  });

  it('compiles the native addon and the TypeScript in the build stage only', () => {
    const build = stages.find((s) => s.name === 'build')!;
    const buildRuns = argsOf(build, 'RUN').join('\n');
    expect(buildRuns).toMatch(/apt-get install[^\n]*\bpython3\b[^\n]*\bmake\b[^\n]*\bg\+\+/);
    expect(buildRuns).toMatch(/\bnpm ci\b/);
    expect(buildRuns).toMatch(/\bnpm run build\b/);
    expect(argsOf(runtime, 'RUN').join('\n')).not.toMatch(/apt-get install|\bnpm (ci|install|run)\b/);
  });

  it('gives the runtime stage production dependencies only', () => {
    const nodeModules = copiesOf(runtime).find((c) => c.sources.some((s) => s.includes('node_modules')));
    expect(nodeModules?.from).toBeDefined();
    const source = stages.find((s) => s.name === nodeModules!.from)!;
    const runs = argsOf(source, 'RUN');
    const lastIndexOf = (pattern: RegExp) => runs.map((r) => pattern.test(r)).lastIndexOf(true);
    const lastInstall = lastIndexOf(/\bnpm (ci|install)\b/);
    const prune = lastIndexOf(/\bnpm prune\b[^\n]*--omit=dev/);
    const installIsProdOnly = /\bnpm ci\b[^\n]*--omit=dev/.test(runs[lastInstall] ?? '');
    expect(installIsProdOnly || prune >= lastInstall).toBe(true);
  });

  it('leaves the demo and the simulators out of the built app the runtime stage copies', () => {
    const build = stages.find((s) => s.name === 'build')!;
    const runs = argsOf(build, 'RUN').join('\n');
    expect(runs).toMatch(/\bnpm run build\b[\s\S]*\brm -rf dist\/demo dist\/sim\b/);
  });

  it('ships the bundle (scripts/bundle.mjs) as dist/, built after tsc has checked the types', () => {
    const build = stages.find((s) => s.name === 'build')!;
    const runs = argsOf(build, 'RUN').join('\n');
    expect(runs).toMatch(/\bnpm run build\b[\s\S]*\bnpm run bundle\b[\s\S]*\brm -rf dist && mv bundle dist\b/);
    expect(copiesOf(build).flatMap((c) => c.sources)).toContain('scripts/bundle.mjs');
  });

  it('copies the built app, its package.json and the Slack manifest into /app', () => {
    expect(argsOf(runtime, 'WORKDIR').at(-1)).toBe('/app');
    const copied = copiesOf(runtime).flatMap((c) => c.sources.map((s) => s.replace(/^\/app\//, '')));
    expect(copied).toEqual(expect.arrayContaining(['package.json', 'node_modules', 'dist', 'manifest.yml']));
  });

  it('runs as a fixed non-root uid, the one the Kubernetes securityContext names', () => {
    const user = argsOf(runtime, 'USER').at(-1)!;
    const [uid] = user.split(':');
    expect(uid).toMatch(/^\d+$/); // numeric, so kubelet can verify runAsNonRoot
    expect(Number(uid)).toBe(10001);
  });

  it('writes only to the store volume, so a read-only root filesystem works', () => {
    const runs = argsOf(runtime, 'RUN').join('\n');
    expect(runs).toMatch(/chown 10001:10001 \/var\/lib\/runai-slack-bot/);
    expect(argsOf(runtime, 'VOLUME')).toEqual(['["/var/lib/runai-slack-bot"]']);
    expect(runs).toMatch(/path: \/var\/lib\/runai-slack-bot\//);
  });

  it('starts the bot with the mounted config by default, in production mode, on the ops port 9090 and the Slack port 3000', () => {
    expect(argsOf(runtime, 'ENV').join(' ')).toMatch(/\bNODE_ENV=production\b/);
    expect(argsOf(runtime, 'ENV').join(' ')).toMatch(/\bRUNAI_BOT_CONFIG=\/etc\/runai-slack-bot\/config\.yml\b/);
    expect(argsOf(runtime, 'EXPOSE')).toEqual(['9090', '3000']); // one line each, each with its comment
    expect(JSON.parse(argsOf(runtime, 'ENTRYPOINT').at(-1)!)).toEqual(['node', '--max-semi-space-size=4', 'dist/cli.js']);
    expect(JSON.parse(argsOf(runtime, 'CMD').at(-1)!)).toEqual(['start', '--config', '/etc/runai-slack-bot/config.yml']);
  });

  it('copies from the build context only files that exist and .dockerignore lets through', () => {
    const contextSources = stages.flatMap((s) => copiesOf(s).filter((c) => !c.from)).flatMap((c) => c.sources);
    expect(contextSources.length).toBeGreaterThan(0);
    for (const source of contextSources) {
      expect(existsSync(join(REPO, source))).toBe(true);
      expect(ignored.filter((pattern) => pattern.test(source))).toEqual([]);
    }
  });

  it('keeps local installs, builds, history and databases out of the build context', () => {
    for (const path of ['node_modules/yaml/package.json', 'dist/cli.js', 'bundle/cli.js', '.git/HEAD', 'bot.db', 'bot.db-wal']) {
      expect(ignored.some((pattern) => pattern.test(path))).toBe(true);
    }
  });

  it('builds from src/ alone: no source file imports from outside it', () => {
    // The image context carries src/ but not test/ or bench/, so such an import would break `npm run build`.
    const src = join(REPO, 'src');
    const outside: string[] = [];
    for (const file of filesUnder(src).filter((f) => f.endsWith('.ts'))) {
      const text = readFileSync(file, 'utf8');
      for (const [, specifier] of text.matchAll(/(?:from|import\s*\()\s*['"](\.{1,2}\/[^'"]+)['"]/g)) {
        const target = resolve(dirname(file), specifier);
        if (relative(src, target).startsWith('..')) outside.push(`${relative(REPO, file)} → ${specifier}`);
      }
    }
    expect(outside).toEqual([]);
  });
});
