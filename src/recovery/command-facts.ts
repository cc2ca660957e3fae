/**
 * What a workload's command does with its output, read from its argv: which Python processes
 * it starts and whether they are unbuffered, which pipelines can hide the application's exit
 * status, which files it writes its output to and from how many ranks, and whether a
 * credential on the command line ends up in a saved log. The shapes covered are those of real
 * manifests and job scripts: `sh -c` / `bash -lc` strings, heredocs given to a shell, argument
 * arrays, wrappers (`env`, `exec`, `timeout`, `nohup`, `stdbuf`, `uv run`, …), Python
 * (`-u`, `-m`, `-c`), and the launchers `torchrun`, `accelerate launch`, `deepspeed`,
 * `mpirun` / `horovodrun` / `srun`.
 *
 * Facts, not advice: log-advice.ts turns them into findings against the guide.
 */
import { assignmentName, commandText, parseScript, type Command, type Redirect, type SimpleCommand, type Statement, type Word } from './shell.js';

export interface PythonRun {
  /** The command as written, bounded. */
  text: string;
  /** `-u`, or PYTHONUNBUFFERED set for it. */
  unbuffered: boolean;
  /** The launcher that starts it once per rank (mpirun, horovodrun, srun), if one does. */
  perRankVia?: string;
}

export interface MaskingPipe {
  /** The application whose status the pipe replaces. */
  producer: string;
  /** The command at the end of the pipe, whose status the shell reports: tee, grep, … */
  consumer: string;
}

export interface LogWrite {
  /** The target as written. */
  target: string;
  /** The absolute path written to, or the literal directory of it when the file name holds a variable; undefined when unknown. */
  path?: string;
  /** The target holds no variable: every process that runs the command writes this very file. */
  literal: boolean;
  /** `launcher`: a file the launcher writes its ranks' output to itself (MPICH's -outfile-pattern). */
  via: 'tee' | 'redirect' | 'launcher';
  /** Written by each rank a launcher starts (inside `mpirun … bash -c '…'`). */
  perRank: boolean;
  /**
   * The launcher whose several ranks all print into this one file: the file saves the output
   * of `torchrun --nproc_per_node=8 …`, `deepspeed …`, `mpirun -np 16 …` (see ranksStarted).
   */
  ranksVia?: string;
}

export interface CredentialWrite {
  /** What the redaction found (`huggingface-token`, `password`, …); the value itself is never kept. */
  kind: string;
  /** How it reaches the log: the command's output is saved (tee, redirect), or `set -x` prints it. */
  via: 'tee' | 'redirect' | 'xtrace';
  /** The command, as redacted. */
  text: string;
}

export interface CommandFacts {
  pythons: PythonRun[];
  /** Pipelines run without `pipefail` whose first part is an application. */
  maskingPipes: MaskingPipe[];
  /** The script reads `PIPESTATUS`: it checks the application's own status. */
  readsPipestatus: boolean;
  writes: LogWrite[];
  credentials: CredentialWrite[];
  /** The script reads a rank or host variable (a guard such as `[ "$RANK" = 0 ]`, or a per-rank name). */
  mentionsRank: boolean;
}

/** Variables that tell the ranks of a distributed job (or their hosts) apart. */
export const RANK_VARIABLES = [
  'RANK', 'LOCAL_RANK', 'NODE_RANK', 'GROUP_RANK', 'OMPI_COMM_WORLD_RANK', 'OMPI_COMM_WORLD_LOCAL_RANK', 'PMI_RANK', 'PMIX_RANK',
  'SLURM_PROCID', 'SLURM_LOCALID', 'SLURM_NODEID', 'HOROVOD_RANK', 'HOROVOD_LOCAL_RANK', 'MV2_COMM_WORLD_RANK', 'JOB_COMPLETION_INDEX',
  'PET_NODE_RANK', 'HOSTNAME', 'POD_NAME',
];
const RANK_REFERENCE = new RegExp(String.raw`\$\{?(?:${RANK_VARIABLES.join('|')})(?![A-Za-z0-9_])|\$\(\s{0,4}hostname\b|\x60hostname\b`);

/** Producers whose status nobody misses: `echo … | tee file`. */
const TRIVIAL_PRODUCERS = new Set(['echo', 'printf', 'cat', 'yes', 'true', 'date', 'ls', 'env', 'printenv', 'nvidia-smi', 'hostname', 'pwd', 'id', 'whoami', 'seq', 'df', 'free', 'findmnt']);
const SHELLS = new Set(['sh', 'bash', 'dash', 'zsh', 'ksh', 'ash']);
const PER_RANK_LAUNCHERS = new Set(['mpirun', 'mpiexec', 'orterun', 'mpiexec.hydra', 'horovodrun', 'srun']);
/** Launchers whose workers they start as `python -u` (torch/distributed/run.py, deepspeed/launcher/launch.py). */
const UNBUFFERED_LAUNCHERS = new Set(['torchrun', 'deepspeed']);
const UNBUFFERED_MODULES = new Set(['torch.distributed.run', 'torch.distributed.launch', 'deepspeed.launcher.runner', 'deepspeed.launcher.launch']);
/** `python -m pip install …` and the like are not the application. */
const TOOL_MODULES = new Set(['pip', 'venv', 'ensurepip', 'site', 'json.tool', 'http.server']);
const PYTHON = /^(?:python|pypy)(?:\d+(?:\.\d+)?)?$/;
/** Where writing is not writing a log: the container's own output, or nothing. */
const NOT_A_LOG = /^\/(?:dev|proc|sys)\//;

const MAX_DEPTH = 4;

interface State {
  pipefail: boolean;
  xtrace: boolean;
  cwd?: string;
  /** PYTHONUNBUFFERED is in the environment here. */
  unbuffered: boolean;
}

interface Context {
  state: State;
  /** What this command prints is saved to a file, and how. */
  savedVia?: 'tee' | 'redirect';
  /** The launcher that runs this once per rank. */
  perRankVia?: string;
  depth: number;
  /** GPUs the workload asks for: `accelerate launch` starts one process per visible GPU by default. */
  gpus: number;
  /** The files this command's output is saved to (a tee after it, a redirect of it or of a group around it). */
  savedTo?: readonly LogWrite[];
}

const basename = (p: string): string => p.slice(p.lastIndexOf('/') + 1);

class Walker {
  readonly facts: CommandFacts = { pythons: [], maskingPipes: [], readsPipestatus: false, writes: [], credentials: [], mentionsRank: false };
  /** The lists of files a launcher's ranks were already found to print into. */
  private readonly marked = new WeakSet<readonly LogWrite[]>();

  /** An exec-style argv: a program and its arguments, no shell between. */
  argv(args: readonly string[], ctx: Context, text: string): void {
    if (ctx.depth > MAX_DEPTH) return;
    const { program, rest, env } = unwrap(args);
    if (env.includes('PYTHONUNBUFFERED')) ctx = { ...ctx, state: { ...ctx.state, unbuffered: true } };
    if (program === undefined) return;
    const name = basename(program);
    if (SHELLS.has(name)) return this.shell(rest, ctx);
    if (PYTHON.test(name) || name.endsWith('.py')) return this.python(name.endsWith('.py') ? [program, ...rest] : rest, ctx, text);
    if (name === 'coverage' && rest[0] === 'run') return this.python(rest.slice(1), ctx, text);
    if (UNBUFFERED_LAUNCHERS.has(name)) return this.launcher(name, rest, ctx);
    if (name === 'accelerate' && rest[0] === 'launch') {
      const processes = accelerateProcesses(rest.slice(1), ctx.gpus);
      if (processes === 'one') this.facts.pythons.push({ text, unbuffered: ctx.state.unbuffered, ...(ctx.perRankVia && { perRankVia: ctx.perRankVia }) });
      if (processes === 'several') this.launcher('accelerate launch', [], ctx);
      return;
    }
    if (PER_RANK_LAUNCHERS.has(name)) {
      this.launcher(name, rest, ctx);
      const inner = launcherCommand(name, rest);
      const unbuffered = ctx.state.unbuffered || inner.env.includes('PYTHONUNBUFFERED');
      this.argv(inner.command, { ...ctx, perRankVia: name, state: { ...ctx.state, unbuffered }, depth: ctx.depth + 1 }, text);
    }
  }

  /** A launcher that starts several ranks makes every file its output is saved to a file of all of them. */
  private launcher(name: string, args: readonly string[], ctx: Context): void {
    const options = name === 'accelerate launch' ? [] : launcherOptions(name, args);
    if (name !== 'accelerate launch' && !ranksStarted(name, options, ctx.gpus)) return;
    // MPICH's -outfile-pattern is a file the launcher writes itself: every rank's, unless it names the rank (%r) or host (%h).
    const pattern = optionValue(options, OUTFILE_PATTERN);
    if (pattern !== undefined && !NOT_A_LOG.test(pattern)) {
      const word: Word = { text: pattern, raw: pattern, quoted: false, expands: /[$`]/.test(pattern) };
      const path = resolvePath(word, ctx.state.cwd);
      const apart = /%[rh]/.test(pattern);
      this.facts.writes.push({ target: pattern, ...(path && { path }), literal: !word.expands && !apart, via: 'launcher', perRank: false, ...(!apart && { ranksVia: name }) });
    }
    const saved = ctx.savedTo;
    if (!saved?.length || this.marked.has(saved) || keepsRanksApart(name, options)) return;
    // Each list of files is marked once, however many launchers share it: linear in the script.
    this.marked.add(saved);
    for (const write of saved) write.ranksVia ??= name;
  }


  private python(args: readonly string[], ctx: Context, text: string): void {
    const opts = pythonOptions(args);
    if (opts.module && TOOL_MODULES.has(opts.module)) return;
    if (opts.module && UNBUFFERED_MODULES.has(opts.module)) {
      const launcher = opts.module.startsWith('deepspeed') ? 'deepspeed' : 'torchrun';
      return this.launcher(launcher, args.slice(args.indexOf(opts.module) + 1), ctx);
    }
    this.facts.pythons.push({ text, unbuffered: opts.unbuffered || ctx.state.unbuffered, ...(ctx.perRankVia && { perRankVia: ctx.perRankVia }) });
  }

  /**
   * `bash [-e] [-x] [-o pipefail] -c [--] SCRIPT`: a fresh shell with the options it was
   * started with. With `-c` the script is the first word that is not an option, wherever
   * the `c` stood in the option words (`-lc`, `-euxo pipefail -c`, `-c --`).
   */
  private shell(args: readonly string[], ctx: Context): void {
    const state: State = { pipefail: false, xtrace: false, unbuffered: ctx.state.unbuffered, ...(ctx.state.cwd && { cwd: ctx.state.cwd }) };
    let command = false;
    let i = 0;
    for (; i < args.length; i++) {
      const a = args[i];
      if (a === '--') {
        i++;
        break;
      }
      if (!/^[-+][A-Za-z]{1,16}$/.test(a)) break;
      const on = a[0] === '-';
      if (a.includes('x')) state.xtrace = on;
      if (a.includes('c') && on) command = true;
      if (a.includes('o') && (args[i + 1] === 'pipefail' || args[i + 1] === 'xtrace' || args[i + 1] === 'errexit')) {
        if (args[i + 1] === 'pipefail') state.pipefail = on;
        if (args[i + 1] === 'xtrace') state.xtrace = on;
        i++;
      }
    }
    if (command && i < args.length) this.script(args[i], { ...ctx, state, depth: ctx.depth + 1 });
  }

  script(text: string, ctx: Context): void {
    if (ctx.depth > MAX_DEPTH) return;
    if (text.includes('PIPESTATUS')) this.facts.readsPipestatus = true;
    if (RANK_REFERENCE.test(text)) this.facts.mentionsRank = true;
    this.statements(parseScript(text).statements, ctx);
  }

  private statements(statements: Statement[], ctx: Context): void {
    for (const statement of statements) this.pipeline(statement.pipeline.commands, ctx);
  }

  private pipeline(commands: Command[], ctx: Context): void {
    const last = commands[commands.length - 1];
    const consumer = commands.length > 1 && last.kind === 'simple' ? programOf(last) : undefined;
    const teed = consumer === 'tee' && last.kind === 'simple' ? teeTargets(last).flatMap((target) => this.write(target, 'tee', ctx)) : [];
    if (commands.length > 1 && !ctx.state.pipefail) {
      const producer = commands.slice(0, -1).find((c) => c.kind === 'group' || !TRIVIAL_PRODUCERS.has(programOf(c) ?? ''));
      if (producer) this.facts.maskingPipes.push({ producer: describe(producer), consumer: consumer ?? 'the last command' });
    }
    commands.forEach((command, i) => {
      const own = outputRedirects(command.redirects);
      const redirected = own.flatMap((target) => this.write(target, 'redirect', ctx));
      const savedVia = ctx.savedVia ?? (own.length ? 'redirect' : i < commands.length - 1 && consumer === 'tee' ? 'tee' : undefined);
      const here = i < commands.length - 1 ? [...redirected, ...teed] : redirected;
      // Shared, not copied, when this command adds no file: a group of many commands stays linear.
      const savedTo = here.length ? [...(ctx.savedTo ?? []), ...here] : ctx.savedTo;
      const child: Context = { ...ctx, ...(savedVia && { savedVia }), ...(savedTo && { savedTo }) };
      if (command.kind === 'group') this.statements(command.body, child);
      else this.simple(command, child);
    });
  }

  /** Records a write and returns it (none for the container's own output or `-`). */
  private write(target: Word, via: LogWrite['via'], ctx: Context): LogWrite[] {
    if (NOT_A_LOG.test(target.text) || target.text === '-') return [];
    const path = resolvePath(target, ctx.state.cwd);
    const write: LogWrite = { target: target.raw, ...(path && { path }), literal: !target.expands, via, perRank: ctx.perRankVia !== undefined };
    this.facts.writes.push(write);
    return [write];
  }

  private simple(command: SimpleCommand, ctx: Context): void {
    const words = command.words.map((w) => w.text);
    const name = programOf(command);
    const assigned = command.assignments.map(assignmentName);
    const text = commandText(command);
    if (name === 'set') return setOptions(words.slice(1), ctx.state);
    if (name === 'export' || name === 'declare' || name === 'typeset') {
      if (command.words.slice(1).some((w) => /^PYTHONUNBUFFERED(?:=|$)/.test(w.text))) ctx.state.unbuffered = true;
      return;
    }
    if (name === 'cd') {
      ctx.state.cwd = changeDirectory(command.words[1], ctx.state.cwd);
      return;
    }
    const credential = [...command.assignments, ...command.words].map((w) => /\[REDACTED:([a-z0-9-]{1,40})\]/.exec(w.text)?.[1]).find(Boolean);
    const via = ctx.state.xtrace ? 'xtrace' : ctx.savedVia;
    if (credential && via && name !== undefined) this.facts.credentials.push({ kind: credential, via, text });
    if (name === undefined) return;
    const here = command.redirects.find((r) => r.heredoc !== undefined);
    const local: Context = assigned.includes('PYTHONUNBUFFERED') ? { ...ctx, state: { ...ctx.state, unbuffered: true } } : ctx;
    if (here?.heredoc !== undefined && SHELLS.has(basename(words[0])) && !words.slice(1).some((w) => /^-[A-Za-z]*c[A-Za-z]*$/.test(w))) {
      // `bash <<'EOF' … EOF`: the heredoc is the script.
      this.script(here.heredoc, { ...local, state: { pipefail: false, xtrace: false, unbuffered: local.state.unbuffered }, depth: ctx.depth + 1 });
      return;
    }
    this.argv(words, local, text);
  }
}

/** Wrappers that run the rest of their arguments as the command, and how many option words each takes. */
function unwrap(args: readonly string[]): { program?: string; rest: string[]; env: string[] } {
  const env: string[] = [];
  let i = 0;
  for (let guard = 0; guard < 16 && i < args.length; guard++) {
    const name = basename(args[i]);
    if (name === 'env') {
      i++;
      while (i < args.length && (args[i].startsWith('-') || /^[A-Za-z_][A-Za-z0-9_]*=/.test(args[i]))) {
        if (args[i] === '-u' || args[i] === '-C' || args[i] === '-S') i++;
        else if (!args[i].startsWith('-')) env.push(args[i].slice(0, args[i].indexOf('=')));
        i++;
      }
    } else if (['exec', 'nohup', 'time', 'dumb-init', 'tini', 'nice', 'ionice', 'stdbuf', 'sudo', 'nvidia_entrypoint.sh', 'entrypoint.sh'].includes(name)) {
      i++;
      while (i < args.length && args[i].startsWith('-')) {
        if (args[i] === '--') {
          i++;
          break;
        }
        // Options given their value as the next word.
        if (['-n', '-c', '-u', '-a', '-o', '-e', '-i', '-g'].includes(args[i]) && name !== 'exec') i++;
        i++;
      }
    } else if (name === 'timeout') {
      i++;
      while (i < args.length && args[i].startsWith('-')) i += args[i] === '-s' || args[i] === '-k' ? 2 : 1;
      i++; // the duration
    } else if (name === 'numactl' || name === 'taskset') {
      i++;
      while (i < args.length && args[i].startsWith('-')) i += args[i].includes('=') || name === 'numactl' ? 1 : 2;
      if (name === 'taskset' && i < args.length && /^(?:0x)?[0-9a-f,-]+$/i.test(args[i])) i++;
    } else if (['uv', 'poetry', 'pipenv', 'pixi', 'rye', 'hatch'].includes(name) && args[i + 1] === 'run') {
      i += 2;
      while (i < args.length && args[i].startsWith('-')) {
        if (args[i] === '--') {
          i++;
          break;
        }
        i += ['--with', '--python', '-p', '--project', '--directory', '--env-file', '-e', '--environment'].includes(args[i]) ? 2 : 1;
      }
    } else if ((name === 'conda' || name === 'mamba' || name === 'micromamba') && args[i + 1] === 'run') {
      i += 2;
      while (i < args.length && args[i].startsWith('-')) i += ['-n', '--name', '-p', '--prefix', '--cwd'].includes(args[i]) ? 2 : 1;
    } else break;
  }
  return { program: args[i], rest: args.slice(i + 1), env };
}

/** Python's own options: `-u`, `-m MODULE`, `-c CODE`, until the script. */
function pythonOptions(args: readonly string[]): { unbuffered: boolean; module?: string } {
  let unbuffered = false;
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a === '--' || a === '-' || !a.startsWith('-') || a.startsWith('--')) {
      if (a.startsWith('--') && a !== '--') continue;
      break;
    }
    for (let j = 1; j < a.length; j++) {
      const flag = a[j];
      if (flag === 'u') unbuffered = true;
      else if (flag === 'm') return { unbuffered, module: a.slice(j + 1) || args[i + 1] };
      else if (flag === 'c') return { unbuffered };
      else if (flag === 'W' || flag === 'X') {
        if (j === a.length - 1) i++;
        break;
      }
    }
  }
  return { unbuffered };
}

/**
 * How many processes `accelerate launch` starts. Several, it starts them through
 * torch.distributed.run (so as `python -u`): asked for, or by default when more than one GPU
 * is visible (accelerate/commands/launch.py, _validate_launch_command). With a config file, or
 * a plugin that launches on its own (DeepSpeed, FSDP, Megatron-LM), the number cannot be told.
 */
function accelerateProcesses(args: readonly string[], gpus: number): 'one' | 'several' | 'unknown' {
  let processes: number | undefined;
  let unknown = false;
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (!a.startsWith('-')) break;
    if (/^--multi_gpu(?:=|$)/.test(a)) return 'several';
    if (/^--(?:use_deepspeed|use_fsdp|use_megatron_lm|config_file)(?:=|$)/.test(a)) unknown = true;
    const n = /^--(?:num_processes|num_machines)(?:=(\d+))?$/.exec(a);
    if (n) {
      const value = Number(n[1] ?? args[i + 1]);
      if (value > 1) return 'several';
      if (a.startsWith('--num_processes')) processes = value;
    }
  }
  if (unknown) return 'unknown';
  return processes === undefined && gpus > 1 ? 'several' : 'one';
}

/**
 * A launcher's own option words, before the program it starts: up to the command per-rank
 * launchers run (launcherCommand), or up to the script (`train.py`, or what follows `-m` /
 * `--no-python`) of torchrun and deepspeed.
 */
function launcherOptions(name: string, args: readonly string[]): readonly string[] {
  if (PER_RANK_LAUNCHERS.has(name)) return args.slice(0, args.length - launcherCommand(name, args).command.length);
  const end = args.findIndex((a) => a.endsWith('.py') || ['-m', '--module', '--no-python', '--no_python'].includes(a));
  return end === -1 ? args : args.slice(0, end);
}

/** MPICH / Intel MPI Hydra: `-outfile-pattern FILE` (`%r` the rank, `%h` the host) takes the ranks' output from the launcher's. */
const OUTFILE_PATTERN = ['-outfile-pattern', '-errfile-pattern'];

/** The value of a launcher option given as `--name=V` or `--name V`, the last one given. */
function optionValue(options: readonly string[], names: readonly string[]): string | undefined {
  let value: string | undefined;
  for (let i = 0; i < options.length; i++) {
    const a = options[i];
    const eq = a.indexOf('=');
    if (eq > 0 && names.includes(a.slice(0, eq))) value = a.slice(eq + 1);
    else if (names.includes(a)) value = options[++i];
  }
  return value;
}

/** A count that starts more than one: a number above 1, or a variable (a count made a parameter is there to be more than one). */
function several(count: string | undefined): boolean {
  if (count === undefined) return false;
  if (/^\d+$/.test(count)) return Number(count) > 1;
  return /[$`]/.test(count);
}

/**
 * The launcher already writes each rank to a file of its own, the guide's "separate file per
 * rank" (and what log-advice's fix tells): torchrun `--log-dir DIR` with `--redirects` or
 * `--tee` (files under DIR per local rank; without `--log-dir` they go to a temporary
 * directory, lost with the pod), deepspeed `--enable_each_rank_log DIR` ("None" is its
 * default: off), Open MPI's and horovodrun's `--output-filename DIR`. MPICH Hydra's
 * `-outfile-pattern` leaves the launcher's own output empty too; the file it names is judged
 * as a write of its own (Walker.launcher).
 */
function keepsRanksApart(name: string, options: readonly string[]): boolean {
  if (name === 'torchrun') {
    const streams = optionValue(options, ['--redirects', '-r', '--tee', '-t']);
    return optionValue(options, ['--log-dir', '--log_dir']) !== undefined && streams !== undefined && streams !== '0';
  }
  if (name === 'deepspeed') {
    const dir = optionValue(options, ['--enable_each_rank_log']);
    return dir !== undefined && dir !== 'None';
  }
  return optionValue(options, ['--output-filename', '-output-filename', ...OUTFILE_PATTERN]) !== undefined;
}

/**
 * Whether a launcher starts several ranks whose output reaches its own stdout, so that a tee
 * or redirect of the launcher saves them all into one file. From the launchers' own options:
 * - torchrun / `python -m torch.distributed.run`: `--nproc-per-node` (`--nproc_per_node`),
 *   default 1; `gpu` and `auto` mean one per visible GPU (torch/distributed/run.py,
 *   docs.pytorch.org "torchrun (Elastic Launch)"). `--local-ranks-filter` naming one rank
 *   leaves only that rank on the console ("Only show logs from specified ranks in console").
 * - deepspeed: `--num_gpus` (`--num_accelerators`), by default every GPU of the node, and
 *   `--num_nodes`, `--hostfile` or `--include` that run ranks on other nodes through pdsh,
 *   whose output comes back to the launcher (deepspeed/launcher/runner.py).
 * - mpirun / mpiexec / orterun / horovodrun: `-np` / `-n` / `-c`; without it Open MPI starts
 *   one process per slot, all the job's workers (mpirun(1)). srun: `-n` / `--ntasks`, default one.
 */
function ranksStarted(name: string, options: readonly string[], gpus: number): boolean {
  if (name === 'torchrun') {
    const filter = optionValue(options, ['--local-ranks-filter', '--local_ranks_filter']);
    if (filter !== undefined && /^\d+$/.test(filter)) return false;
    const nproc = optionValue(options, ['--nproc-per-node', '--nproc_per_node']);
    if (nproc === 'gpu' || nproc === 'auto') return gpus > 1;
    return several(nproc);
  }
  if (name === 'deepspeed') {
    if (several(optionValue(options, ['--num_nodes'])) || optionValue(options, ['--hostfile', '-H', '--include', '-i']) !== undefined) return true;
    const local = optionValue(options, ['--num_gpus', '--num_accelerators']);
    return local === undefined ? gpus > 1 : several(local);
  }
  if (name === 'srun') return several(optionValue(options, ['-n', '--ntasks']));
  const np = optionValue(options, ['-np', '-n', '-c', '--np', '-N', '-npernode', '--npernode']);
  return np === undefined || several(np);
}

/** Options of the per-rank launchers that take the next word as their value (`-np 16`, `-x NAME`, `-mca pml ob1`). */
const LAUNCHER_VALUE_OPTIONS = new Set([
  '-np', '-n', '-c', '-N', '-H', '-host', '--host', '-hosts', '--hostfile', '-hostfile', '--machinefile', '-machinefile', '-x', '-bind-to', '--bind-to',
  '-map-by', '--map-by', '-rank-by', '--rank-by', '-npernode', '--npernode', '-ppn', '-wdir', '--wdir', '-wd', '--prefix', '-p', '--port',
  '--start-timeout', '--network-interface', '--gloo-timeout-seconds', '-genv', '-env', '--ntasks', '--nodes', '--gpus', '--cpus-per-task', '-t', '--time',
  '--output-filename', '-output-filename', '-outfile-pattern', '-errfile-pattern', '--mca', '-mca', '-gmca', '--gmca',
]);

/** The command a launcher runs once per rank, and the environment it passes (`-x NAME=V`). */
function launcherCommand(name: string, args: readonly string[]): { command: string[]; env: string[] } {
  const env: string[] = [];
  let i = 0;
  while (i < args.length && args[i].startsWith('-')) {
    const a = args[i];
    if (a === '--') {
      i++;
      break;
    }
    if ((a === '-x' || a === '-genv' || a === '-env') && args[i + 1]) env.push(args[i + 1].split('=')[0]);
    if (a === '-mca' || a === '--mca' || a === '-gmca' || a === '--gmca' || a === '-genv' || (a === '-env' && name !== 'srun')) i += 3;
    else if (!a.includes('=') && LAUNCHER_VALUE_OPTIONS.has(a)) i += 2;
    else i++;
  }
  return { command: args.slice(i), env };
}

function programOf(command: Command): string | undefined {
  if (command.kind !== 'simple') return undefined;
  const { program } = unwrap(command.words.map((w) => w.text));
  return program === undefined ? undefined : basename(program);
}

function describe(command: Command): string {
  if (command.kind === 'simple') return commandText(command);
  const first = command.body[0]?.pipeline.commands[0];
  return first ? `( ${describe(first)} … )` : '( … )';
}

/** tee's file operands: the words after `tee` that are not options. */
function teeTargets(command: SimpleCommand): Word[] {
  const words = command.words;
  const at = words.findIndex((w) => basename(w.text) === 'tee');
  return words.slice(at + 1).filter((w) => !w.text.startsWith('-'));
}

/** Redirections that send output to a file (`>`, `>>`, `&>`, `2>`), not input and not fd copies (`2>&1`). */
function outputRedirects(redirects: Redirect[]): Word[] {
  return redirects.flatMap((r) => {
    if (!r.target || !['>', '>>', '&>', '&>>', '>|', '>&'].includes(r.op)) return [];
    if (r.op === '>&' && /^\d+$|^-$/.test(r.target.text)) return [];
    return [r.target];
  });
}

function setOptions(args: readonly string[], state: State): void {
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    const on = a.startsWith('-');
    if (!/^[-+][A-Za-z]{1,16}$/.test(a)) continue;
    if (a.includes('x')) state.xtrace = on;
    if (a.includes('o')) {
      const option = args[i + 1];
      if (option === 'pipefail') state.pipefail = on;
      if (option === 'xtrace') state.xtrace = on;
      i++;
    }
  }
}

function changeDirectory(target: Word | undefined, cwd: string | undefined): string | undefined {
  if (!target || target.expands) return undefined;
  if (target.text.startsWith('/')) return normalise(target.text);
  return cwd ? normalise(`${cwd}/${target.text}`) : undefined;
}

/** `a//b/./c/` → `a/b/c`; undefined with `..` (where it leads depends on links). */
function normalise(path: string): string | undefined {
  const parts = path.split('/').filter((p) => p !== '' && p !== '.');
  if (parts.includes('..')) return undefined;
  return `/${parts.join('/')}`;
}

/**
 * The absolute path a target writes, or the literal directory before a variable in it
 * (`/data/logs/train.$RANK.log` → `/data/logs`); undefined when not known (a relative path in
 * an unknown directory, a variable directory).
 */
function resolvePath(target: Word, cwd: string | undefined): string | undefined {
  let text = target.text;
  if (target.expands) {
    const cut = text.search(/[$`]/);
    const literal = cut === -1 ? text : text.slice(0, cut);
    const slash = literal.lastIndexOf('/');
    if (slash <= 0) return undefined;
    text = literal.slice(0, slash);
  }
  if (text.startsWith('/')) return normalise(text);
  return cwd ? normalise(`${cwd}/${text}`) : undefined;
}

export interface CommandContext {
  argv: readonly string[];
  env: readonly string[];
  workingDir?: string;
  gpus: number;
}

/** The facts of one container command. */
export function commandFacts(command: CommandContext): CommandFacts {
  const walker = new Walker();
  const state: State = { pipefail: false, xtrace: false, unbuffered: command.env.includes('PYTHONUNBUFFERED'), ...(command.workingDir && { cwd: normalise(command.workingDir) }) };
  walker.argv(command.argv, { state, depth: 0, gpus: command.gpus }, command.argv.join(' ').slice(0, 300));
  return walker.facts;
}
