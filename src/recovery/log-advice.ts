/**
 * The guide's "Save application logs to persistent storage" rules held against a workload's
 * own command, before anything fails: is the application's exit status hidden by a pipe, is
 * Python's output buffered, does the log go somewhere that outlives the pod, do all ranks
 * write one file, is a credential written to the log. Pure: a Submission in, findings out,
 * each with the guide's sentence it applies and a short fix.
 */
import { LOG_SAVING } from '../lifecycle/states.js';
import { commandFacts, type CommandFacts, type LogWrite } from './command-facts.js';
import type { Mount, Submission } from './submission.js';

export type LogFindingKind = 'masked-exit' | 'buffered-output' | 'log-not-persistent' | 'one-log-all-ranks' | 'credential-in-log';

/**
 * A sentence of the bot's own words (plain strings, mrkdwn allowed) and workload text
 * (`code` parts: a path, a program name), which whoever shows it escapes for its destination.
 */
export type Phrase = ReadonlyArray<string | { code: string }>;

export interface LogFinding {
  kind: LogFindingKind;
  /** What happens: "the exit status of the application is replaced by `tee`'s: a failure can show as Completed". */
  problem: Phrase;
  /** The guide's sentence that applies, verbatim. */
  guide: string;
  /** What to change, in one sentence. */
  fix: Phrase;
  /** The command it is about, as written and redacted (workload text: escape it where it is shown). */
  command?: string;
  /** The log file it is about (workload text). */
  path?: string;
}

/** The order findings are given in: what loses a failure first, then what loses its lines, then what leaks. */
export const FINDING_ORDER: readonly LogFindingKind[] = ['masked-exit', 'buffered-output', 'log-not-persistent', 'one-log-all-ranks', 'credential-in-log'];

/**
 * Kubeflow's training operator puts PYTHONUNBUFFERED=1 into every container of a PyTorchJob
 * (pkg/controller.v1/pytorch/envvar.go, "Set PYTHONUNBUFFERED to true, to disable output
 * buffering"), and a Run:ai distributed PyTorch workload runs as one.
 */
function operatorUnbuffers(submission: Submission): boolean {
  return submission.distribution?.framework?.toLowerCase() === 'pytorch';
}

function gpuCount(submission: Submission): number {
  const n = Number(submission.gpu.devices);
  return Number.isFinite(n) ? n : 0;
}

/** The mount a path is under (the longest match), if any. */
export function mountOf(path: string, mounts: readonly Mount[]): Mount | undefined {
  let best: Mount | undefined;
  for (const m of mounts) {
    const root = m.path.endsWith('/') ? m.path.slice(0, -1) : m.path;
    if ((path === root || path.startsWith(`${root}/`) || root === '') && (!best || root.length > best.path.length)) best = m;
  }
  return best;
}

/** The facts of a Submission's command (shared with maskedFailure). */
export function factsOf(submission: Submission): CommandFacts {
  return commandFacts({
    argv: submission.argv,
    env: operatorUnbuffers(submission) ? [...submission.env, 'PYTHONUNBUFFERED'] : submission.env,
    ...(submission.workingDir && { workingDir: submission.workingDir }),
    gpus: gpuCount(submission),
  });
}

/** The masked-exit finding of a set of facts, if its command has one. */
export function maskedExitFinding(facts: CommandFacts): LogFinding | undefined {
  const pipe = facts.maskingPipes[0];
  if (!pipe || facts.readsPipestatus) return undefined;
  return {
    kind: 'masked-exit',
    problem: ['the exit status of the application is replaced by ', { code: pipe.consumer }, "'s: a failure can show as Completed"],
    guide: LOG_SAVING.pipefail,
    fix: ['Put `set -o pipefail` before the pipeline (or exit with `${PIPESTATUS[0]}`).'],
    command: pipe.producer,
  };
}

function bufferedFinding(facts: CommandFacts): LogFinding | undefined {
  const run = facts.pythons.find((p) => !p.unbuffered);
  if (!run) return undefined;
  const launcher = run.perRankVia === 'mpirun' || run.perRankVia === 'mpiexec' || run.perRankVia === 'orterun' ? ' (with mpirun also `-x PYTHONUNBUFFERED=1`)' : '';
  return {
    kind: 'buffered-output',
    problem: ['Python runs without `-u` and without `PYTHONUNBUFFERED`: its output is buffered, and the last lines before a crash may be lost'],
    guide: LOG_SAVING.unbuffered,
    fix: [`Run Python with \`-u\`, or set \`PYTHONUNBUFFERED=1\` in the workload's environment${launcher}.`],
    command: run.text,
  };
}

function persistentMounts(submission: Submission): Mount[] {
  return submission.mounts.filter((m) => m.persistent && !m.readOnly);
}

function notPersistentFinding(writes: readonly LogWrite[], submission: Submission): LogFinding | undefined {
  for (const write of writes) {
    if (!write.path) continue;
    const mount = mountOf(write.path, submission.mounts);
    if (mount?.persistent) continue;
    const where: Phrase = mount
      ? [` is written on a ${mount.source === 'empty-dir' ? 'emptyDir' : mount.source} volume at `, { code: mount.path }, ', which goes with the pod']
      : [' is written inside the container, and is lost with the pod'];
    const target = persistentMounts(submission)[0];
    return {
      kind: 'log-not-persistent',
      problem: ['the log ', { code: write.target }, ...where],
      guide: LOG_SAVING.persistentMount,
      fix: target
        ? ['Write it under ', { code: target.path }, ` (${target.source === 'pvc' ? 'PVC' : target.source} `, { code: target.name }, '), e.g. ', { code: `tee -a ${target.path}/logs/train.log` }, '.']
        : ['Mount a PVC or data source for it and write the log there.'],
      path: write.target,
    };
  }
  return undefined;
}

/**
 * How each launcher keeps its ranks apart, from its own options: torchrun's `--log-dir` with
 * `--tee 3` writes every local rank's stdout and stderr to a file of its own, and
 * `--local-ranks-filter 0` leaves only rank 0 on the console (torch/distributed/run.py);
 * deepspeed's `--enable_each_rank_log DIR` "redirect[s] the stdout and stderr from each rank
 * into different log files" (deepspeed/launcher/runner.py); Open MPI's and horovodrun's
 * `--output-filename DIR` write each rank's output under DIR (mpirun(1), `rank.N/stdout`).
 */
function launcherFix(launcher: string, dir: string): Phrase | undefined {
  const apart = (name: string, option: string): Phrase => [`Let ${name} keep the ranks apart: `, { code: option }, ' writes each rank to a file of its own.'];
  switch (launcher) {
    case 'torchrun':
      return ['Let torchrun keep the ranks apart: ', { code: `--log-dir ${dir} --tee 3` }, ' writes each rank to a file of its own, and ', { code: '--local-ranks-filter 0' }, ' leaves only rank 0 in the output you save.'];
    case 'deepspeed':
      return apart('deepspeed', `--enable_each_rank_log ${dir}`);
    case 'mpirun':
    case 'mpiexec':
    case 'orterun':
    case 'horovodrun':
      return apart(launcher, `--output-filename ${dir}`);
    default:
      return undefined;
  }
}

const PER_RANK_FIX: Phrase = ['Put the rank in the file name (e.g. `train.$RANK.log`), or let only rank 0 write it.'];

function allRanksFinding(writes: readonly LogWrite[], facts: CommandFacts, submission: Submission): LogFinding | undefined {
  if (facts.mentionsRank) return undefined;
  const everyPod = submission.distribution?.runsOn === 'every-pod' && (submission.distribution.pods ?? 2) > 1;
  for (const write of writes) {
    if (!write.literal) continue;
    const shared = write.path !== undefined && mountOf(write.path, submission.mounts)?.persistent === true;
    // Ranks inside one pod share its filesystem; pods share only a persistent mount. A
    // launcher's ranks print through it, so a file saving its output holds them all.
    if (write.ranksVia) {
      return {
        kind: 'one-log-all-ranks',
        problem: ['every rank ', { code: write.ranksVia }, ' starts prints into the same file, ', { code: write.target }, ': their lines interleave, and none says which rank wrote it'],
        guide: LOG_SAVING.perRank,
        fix: write.via === 'launcher'
          ? ['Put the rank in the pattern (`%r`), e.g. ', { code: `${write.target}.%r` }, ': each rank then writes a file of its own.']
          : launcherFix(write.ranksVia, `${persistentMounts(submission)[0]?.path ?? '/data'}/logs`) ?? ['Write one file per rank from the program itself (each rank reads its `RANK`), or let only rank 0 print.'],
        path: write.target,
      };
    }
    if (write.perRank || (everyPod && shared)) {
      return {
        kind: 'one-log-all-ranks',
        problem: ['every rank writes the same file, ', { code: write.target }, ': their lines interleave or overwrite each other'],
        guide: LOG_SAVING.perRank,
        fix: PER_RANK_FIX,
        path: write.target,
      };
    }
  }
  return undefined;
}

const CREDENTIAL_NAMES: Readonly<Record<string, string>> = {
  'huggingface-token': 'a Hugging Face token',
  'github-token': 'a GitHub token',
  'gitlab-token': 'a GitLab token',
  'slack-token': 'a Slack token',
  'ngc-key': 'an NGC key',
  'openai-key': 'an OpenAI key',
  'anthropic-key': 'an Anthropic key',
  'aws-access-key': 'an AWS access key',
  'aws-secret-key': 'an AWS secret key',
  'wandb-key': 'a W&B key',
  password: 'a password',
  token: 'a token',
  'api-key': 'an API key',
};

function credentialFinding(facts: CommandFacts): LogFinding | undefined {
  const credential = facts.credentials[0];
  if (!credential) return undefined;
  const what = CREDENTIAL_NAMES[credential.kind] ?? 'a credential';
  const how = credential.via === 'xtrace' ? '`set -x` prints the command, and with it the credential, into the log' : 'its output is saved to a file, and programs often print their arguments when they start';
  return {
    kind: 'credential-in-log',
    problem: [`${what} is on the command line and reaches the log: ${how}`],
    guide: LOG_SAVING.noCredentials,
    fix: ['Pass it from a Secret as an environment variable (and refer to it as `$NAME`) instead of writing it on the command line.'],
    command: credential.text,
  };
}

/** What the workload's command gets wrong about saving its log, one finding per kind, in FINDING_ORDER. */
export function logAdvice(submission: Submission): LogFinding[] {
  const facts = factsOf(submission);
  const findings = [
    maskedExitFinding(facts),
    bufferedFinding(facts),
    notPersistentFinding(facts.writes, submission),
    allRanksFinding(facts.writes, facts, submission),
    credentialFinding(facts),
  ];
  return findings.filter((f): f is LogFinding => f !== undefined);
}
