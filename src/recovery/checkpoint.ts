/**
 * The last checkpoint a workload's log says it saved, read from the log's tail with the
 * timestamps `kubectl logs --timestamps` puts before each line (RFC 3339, nanoseconds).
 *
 * Each pattern is a line the framework prints by default (or the one it prints when asked),
 * copied from the framework's own source, named below with the snapshot it was read at. Only
 * the strings were taken. A save counts when it is durable: a line that only says a save
 * started counts once its completion line follows; an asynchronous save that was only
 * scheduled or staged (torchtitan's async modes, NeMo's async save) is not a save until its
 * "finalized" line.
 *
 * Linear in the tail: at most MAX_TAIL_LINES lines, each cut to MAX_LINE_CHARS, each pattern
 * tried only on a line holding its literal, every quantifier bounded.
 */
import { cleanLine } from '../triage/escape.js';

export const MAX_TAIL_LINES = 10_000;
const MAX_LINE_CHARS = 4096;

export type ProgressUnit = 'iteration' | 'step' | 'global step' | 'epoch';

export interface Progress {
  unit: ProgressUnit;
  value: number;
  /** The epoch beside a step (Lightning's `epoch=3-step=1200`). */
  epoch?: number;
}

export interface CheckpointEvent {
  /** When the line was written (its kubectl timestamp); undefined for a line without one. */
  at?: Date;
  progress?: Progress;
  /** Where it was saved, as the log says (workload text). */
  path?: string;
  /** Which framework's line it was. */
  framework: string;
}

export interface CheckpointSighting {
  /** Lines of the tail that were read. */
  linesRead: number;
  lastSaved?: CheckpointEvent;
  /** Milliseconds from lastSaved to now, when its line had a timestamp. */
  ageMs?: number;
  /** A save begun (or only scheduled) after the last completed one, with no completion line yet. */
  unfinished?: CheckpointEvent & { scheduled: boolean };
}

type Role =
  /** The save is durable when this line is printed. */
  | 'saved'
  /** The same, but an async save prints it at scheduling time: a "scheduled" line right after demotes it. */
  | 'saved-unless-scheduled'
  | 'started'
  /** An asynchronous save queued or staged, not yet durable. */
  | 'scheduled';

interface LinePattern {
  framework: string;
  /** Where the line is printed (repository, file, snapshot read). */
  source: string;
  /** Lowercase literal the line must hold before the pattern is tried. */
  needle: string;
  role: Role;
  /** Bounded; named groups `iteration`, `step`, `globalstep`, `epoch`, `path`, `tag`. */
  pattern: RegExp;
}

const MEGATRON = 'NVIDIA/Megatron-LM megatron/training/checkpointing.py save_checkpoint (d98e8a6)';
const TORCHTITAN = 'pytorch/torchtitan torchtitan/components/checkpointer/dcp.py _save, _save_last_step (b5bcd76)';
const NEMO2 = 'NVIDIA/NeMo nemo/lightning/io/pl.py save_checkpoint, nemo/lightning/pytorch/callbacks/model_checkpoint.py (8cfedd7)';
const NEMO1 = 'NVIDIA/NeMo nemo/utils/callbacks/nemo_model_checkpoint.py (8cfedd7)';
const LIGHTNING = 'Lightning-AI/pytorch-lightning src/lightning/pytorch/callbacks/model_checkpoint.py _update_best_and_save, on_exception (7f0c343); printed with verbose=True and a monitor';
const HF = 'huggingface/transformers src/transformers/trainer.py Trainer._save (logger.info: shown with log_level="info"); folder checkpoint-{global_step}';
const DEEPSPEED = 'microsoft/DeepSpeed deepspeed/runtime/engine.py _save_checkpoint, runtime/checkpoint_engine/torch_checkpoint_engine.py create/commit (38327e0); INFO, shown with "log_level": "info" since v0.17.6';
const KERAS = 'keras-team/keras keras/src/callbacks/model_checkpoint.py _should_save_model, _save_model (3422977); printed with verbose=1';

const PATH = String.raw`(?<path>[^\s'"]{1,512})`;

/** The lines, tried in this order (the first match decides a line). */
export const CHECKPOINT_LINES: readonly LinePattern[] = [
  // Megatron-LM prints both with print_rank_0, whatever the log level; an async save prints the second when finalized.
  { framework: 'Megatron-LM', source: MEGATRON, needle: 'successfully saved local checkpoint from iteration', role: 'saved', pattern: /successfully saved local checkpoint from iteration\s{0,16}(?<iteration>\d{1,12})/ },
  // NeMo 2 prints the same words (capitalised) when an async save is finalized.
  { framework: 'Megatron-LM', source: `${MEGATRON}; ${NEMO2}`, needle: 'successfully saved checkpoint from iteration', role: 'saved', pattern: new RegExp(String.raw`successfully saved checkpoint from iteration\s{0,16}(?<iteration>\d{1,12}) to ${PATH}`, 'i') },
  { framework: 'Megatron-LM', source: MEGATRON, needle: 'saving checkpoint at iteration', role: 'started', pattern: new RegExp(String.raw`saving checkpoint at iteration\s{0,16}(?<iteration>\d{1,12}) to ${PATH}`) },
  { framework: 'NeMo', source: NEMO2, needle: 'finalized successfully', role: 'saved', pattern: /Async checkpoint save for step (?<step>\d{1,12}) \((?<path>[^()\s]{1,512})\) finalized successfully/ },
  { framework: 'NeMo', source: NEMO2, needle: 'scheduled async checkpoint save for', role: 'scheduled', pattern: new RegExp(String.raw`Scheduled async checkpoint save for ${PATH}`) },
  { framework: 'NeMo', source: NEMO2, needle: 'global checkpoint save', role: 'saved-unless-scheduled', pattern: /Global Checkpoint Save : Rank: \d{1,8} : Iteration: (?<iteration>\d{1,12})/ },
  { framework: 'NeMo', source: NEMO1, needle: 'checkpoint save for step', role: 'started', pattern: /Checkpoint save for step (?<step>\d{1,12}) started at/ },
  { framework: 'NeMo', source: NEMO1, needle: 'new .nemo model saved to:', role: 'saved', pattern: new RegExp(String.raw`New \.nemo model saved to: ${PATH}`) },
  // torchtitan: "Saving the checkpoint." / "Finished saving …" when synchronous; "Staging …" in both async modes, which never say when the upload is durable.
  { framework: 'torchtitan', source: TORCHTITAN, needle: 'staging the checkpoint', role: 'scheduled', pattern: /(?:Finished staging|Staging) the checkpoint/ },
  { framework: 'torchtitan', source: TORCHTITAN, needle: 'finished saving the checkpoint in', role: 'saved', pattern: /Finished saving the checkpoint in \d{1,9}\.\d{1,4} seconds/ },
  { framework: 'torchtitan', source: TORCHTITAN, needle: 'saving the checkpoint.', role: 'started', pattern: /\bSaving the checkpoint\./ },
  { framework: 'torchtitan', source: TORCHTITAN, needle: 'last step checkpoint completed in', role: 'saved', pattern: /Last step checkpoint completed in \d{1,9}\.\d{1,4}s/ },
  { framework: 'torchtitan', source: TORCHTITAN, needle: 'at last step, step', role: 'started', pattern: /checkpoint (?:in \S{1,32} )?at last step, step (?<step>\d{1,12})/ },
  { framework: 'PyTorch Lightning', source: LIGHTNING, needle: 'saving model to', role: 'saved', pattern: new RegExp(String.raw`Epoch (?<epoch>\d{1,9}), global step (?<globalstep>\d{1,12}): .{0,256}? reached .{0,128}?, saving model to '?${PATH}`) },
  { framework: 'PyTorch Lightning', source: LIGHTNING, needle: 'saved checkpoint to', role: 'saved', pattern: new RegExp(String.raw`was raised with message: .{0,1024}?, saved checkpoint to ${PATH}`) },
  { framework: 'Keras', source: KERAS, needle: 'saving model to', role: 'saved', pattern: new RegExp(String.raw`Epoch (?<epoch>\d{1,9}): (?:finished saving|(?:\S{1,128} improved from \S{1,32} to \S{1,32}, )?saving) model to ${PATH}`) },
  { framework: 'Hugging Face Trainer', source: HF, needle: 'saving model checkpoint to ', role: 'saved', pattern: new RegExp(String.raw`Saving model checkpoint to ${PATH}`) },
  { framework: 'DeepSpeed', source: DEEPSPEED, needle: 'is ready now!', role: 'saved', pattern: /\[Torch\] Checkpoint (?<tag>\S{1,256}) is ready now!/ },
  { framework: 'DeepSpeed', source: DEEPSPEED, needle: 'is about to be saved!', role: 'started', pattern: /\[Torch\] Checkpoint (?<tag>\S{1,256}) is about to be saved!/ },
  { framework: 'DeepSpeed', source: DEEPSPEED, needle: 'saving model checkpoint: ', role: 'started', pattern: new RegExp(String.raw`Saving model checkpoint: ${PATH}`) },
];

/**
 * Folder and file names the frameworks save under, for a save line of a framework not listed
 * above: `checkpoint-500` (Hugging Face), `global_step500` (DeepSpeed), `step-500`
 * (torchtitan), `epoch=3-step=1200.ckpt` (Lightning), `iter_0012000` (Megatron-LM).
 */
const CHECKPOINT_PATH = /(?:^|[/\s'"=:[(])(?<path>[^\s'"]{0,256}?(?:checkpoint-(?<hf>\d{1,12})|global_step(?<ds>\d{1,12})|step-(?<titan>\d{1,12})|epoch=(?<epoch>\d{1,9})-step=(?<pl>\d{1,12})|iter_(?<iter>\d{7}))[^\s'"]{0,256})/;
const PATH_NEEDLES = ['checkpoint-', 'global_step', 'step-', '-step=', 'iter_'];
const SAVE_VERB = /\bsav(?:e|ed|ing)\b/i;
/** A line naming a checkpoint path that is not a save of one. */
const NOT_A_SAVE = /\b(?:load|loaded|loading|resum\w{0,8}|delet\w{0,8}|remov\w{0,8}|fail\w{0,8}|error|unable|cannot|could not|skip\w{0,8}|not saved)\b/i;

/** torchtitan's own lines name no step; its training log line does (components/metrics.py). */
const TORCHTITAN_STEP = /\bstep:\s{0,4}(\d{1,12})\s{1,8}loss:/;

/** `kubectl logs --timestamps`: an RFC 3339 time, then a space, then the line. */
const TIMESTAMP = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2})(\.\d{1,9})?(Z|[+-]\d{2}:\d{2}) /;

function timestampOf(line: string): { at?: Date; rest: string } {
  const m = TIMESTAMP.exec(line);
  if (!m) return { rest: line };
  const at = new Date(`${m[1]}${(m[2] ?? '').slice(0, 4)}${m[3]}`);
  return { at: Number.isNaN(at.getTime()) ? undefined : at, rest: line.slice(m[0].length) };
}

function progressOf(groups: Record<string, string | undefined>): Progress | undefined {
  const n = (v: string | undefined) => (v === undefined ? undefined : Number(v));
  const epoch = n(groups.epoch);
  if (groups.iteration !== undefined) return { unit: 'iteration', value: Number(groups.iteration) };
  if (groups.iter !== undefined) return { unit: 'iteration', value: Number(groups.iter) };
  if (groups.globalstep !== undefined || groups.pl !== undefined) return { unit: 'global step', value: Number(groups.globalstep ?? groups.pl), ...(epoch !== undefined && { epoch }) };
  if (groups.step !== undefined || groups.titan !== undefined) return { unit: 'step', value: Number(groups.step ?? groups.titan) };
  if (groups.hf !== undefined || groups.ds !== undefined) return { unit: 'global step', value: Number(groups.hf ?? groups.ds) };
  if (epoch !== undefined) return { unit: 'epoch', value: epoch };
  return undefined;
}

/** The step a checkpoint path or tag names (`…/checkpoint-500`, `global_step500`). */
function progressInPath(text: string | undefined): Progress | undefined {
  if (!text) return undefined;
  const m = CHECKPOINT_PATH.exec(` ${text}`);
  return m?.groups ? progressOf(m.groups) : undefined;
}

interface Match {
  role: Role;
  event: CheckpointEvent;
}

function matchLine(line: string, lower: string, torchtitanStep: number | undefined): Match | undefined {
  for (const p of CHECKPOINT_LINES) {
    if (!lower.includes(p.needle)) continue;
    const m = p.pattern.exec(line);
    if (!m) continue;
    const groups = m.groups ?? {};
    const path = groups.path ?? groups.tag;
    let progress = progressOf(groups) ?? progressInPath(path);
    if (!progress && p.framework === 'torchtitan' && torchtitanStep !== undefined) progress = { unit: 'step', value: torchtitanStep };
    return { role: p.role, event: { framework: p.framework, ...(progress && { progress }), ...(path && { path }) } };
  }
  if (PATH_NEEDLES.some((n) => lower.includes(n)) && SAVE_VERB.test(line) && !NOT_A_SAVE.test(line)) {
    const m = CHECKPOINT_PATH.exec(line);
    if (m?.groups) {
      const progress = progressOf(m.groups);
      return { role: 'saved', event: { framework: 'checkpoint path', path: m.groups.path, ...(progress && { progress }) } };
    }
  }
  return undefined;
}

/**
 * The last checkpoint saved according to the tail of a log read with timestamps, and a save
 * still unfinished after it. `now` only dates it: nothing here reads a clock.
 */
export function lastCheckpoint(lines: readonly string[], now: Date): CheckpointSighting {
  const tail = lines.length > MAX_TAIL_LINES ? lines.slice(lines.length - MAX_TAIL_LINES) : lines;
  let lastSaved: CheckpointEvent | undefined;
  let beforeLast: CheckpointEvent | undefined;
  let lastWasDemotable = false;
  let unfinished: (CheckpointEvent & { scheduled: boolean }) | undefined;
  let torchtitanStep: number | undefined;
  for (const raw of tail) {
    const { at, rest } = timestampOf(raw.length > MAX_LINE_CHARS ? raw.slice(0, MAX_LINE_CHARS) : raw);
    const line = cleanLine(rest);
    const lower = line.toLowerCase();
    if (lower.includes('loss:')) {
      const step = TORCHTITAN_STEP.exec(line);
      if (step) torchtitanStep = Number(step[1]);
    }
    const match = matchLine(line, lower, torchtitanStep);
    if (!match) continue;
    const event: CheckpointEvent = { ...match.event, ...(at && { at }) };
    if (match.role === 'started') {
      unfinished = { ...event, scheduled: false };
      lastWasDemotable = false;
    } else if (match.role === 'scheduled') {
      // NeMo logs its "Global Checkpoint Save" line when an async save is merely scheduled.
      if (lastWasDemotable && lastSaved) {
        unfinished = { ...lastSaved, ...(at && { at }), scheduled: true };
        lastSaved = beforeLast;
      } else {
        unfinished = { ...(unfinished ?? {}), ...event, scheduled: true };
      }
      lastWasDemotable = false;
    } else {
      // A completion line often names less than its start line did (torchtitan names nothing).
      const begun = unfinished;
      beforeLast = lastSaved;
      lastSaved = {
        ...event,
        ...(!event.progress && begun?.progress && { progress: begun.progress }),
        ...(!event.path && begun?.path && { path: begun.path }),
      };
      unfinished = undefined;
      lastWasDemotable = match.role === 'saved-unless-scheduled';
    }
  }
  const sighting: CheckpointSighting = { linesRead: tail.length };
  if (lastSaved) {
    sighting.lastSaved = lastSaved;
    if (lastSaved.at) sighting.ageMs = Math.max(0, now.getTime() - lastSaved.at.getTime());
  }
  if (unfinished) sighting.unfinished = unfinished;
  return sighting;
}

/** What reading a workload's log for checkpoints came to: a sighting, or why there is none. */
export type CheckpointReading =
  | { sighting: CheckpointSighting; pod: string; container: string }
  | { problem: string };
