/**
 * Which maintenance reminders are due now. Pure: the clock, what was already posted (`sent`) and
 * what was last announced per window (`known`) come in; the reminders to post go out. The caller
 * marks a reminder's `key` and `settles` as sent once it has posted it, and remembers the window.
 *
 * Rules:
 * - advance: at each offset before the start (default 14 d, 7 d, 1 d, 2 h). When several offsets
 *   have passed unsent (the bot was down, or the window was first seen late), only the most
 *   recent one is sent, and only before the start. So a window first seen inside the shortest
 *   offset is announced at once, and a window first seen 5 days ahead gets its 7-day notice now.
 * - owners: once, from `ownerNoticeMs` before the start until the start.
 * - start: once, from the start until `lateGraceMs` after it (and not after the end).
 * - end ("the cluster is back"): once, from the end until `lateGraceMs` after it.
 * - changed: a window announced before whose start, end or status changed, or whose SEQUENCE
 *   rose, until it ends. It replaces an advance reminder due at the same moment (`settles`).
 * - cancelled: a window announced before that is now cancelled, or that vanished from a feed
 *   known to be complete for its time, until it would have ended. Never-announced windows are
 *   cancelled silently.
 * Each reminder has a key; a key in `sent` is never due again.
 */
import type { DueReminder, KnownWindow, MaintenanceWindow, ReminderKind } from '../model.js';

export type { DueReminder, KnownWindow, ReminderKind } from '../model.js';

export interface PlanInput {
  windows: MaintenanceWindow[];
  now: Date;
  /** Reminder offsets before the start, in ms. */
  offsetsMs: number[];
  /** When owners of running workloads are told (ms before the start); 0 turns it off. */
  ownerNoticeMs: number;
  sent: ReadonlySet<string>;
  known: ReadonlyMap<string, KnownWindow>;
  /** How late a start or end notice may still go out (default 2 h). */
  lateGraceMs?: number;
  /**
   * The range in which `windows` is the whole feed (it parsed without problems). An announced
   * window starting inside it that is missing was removed, and is announced as cancelled.
   */
  complete?: { from: Date; to: Date };
}

export const DEFAULT_LATE_GRACE_MS = 2 * 3600_000;

const KIND_ORDER: readonly ReminderKind[] = ['cancelled', 'changed', 'advance', 'owners', 'start', 'end'];

export function reminderKey(windowKey: string, kind: ReminderKind, detail?: string | number): string {
  return detail === undefined ? `${windowKey}#${kind}` : `${windowKey}#${kind}:${detail}`;
}

function changeOf(window: MaintenanceWindow, previous: KnownWindow): boolean {
  return (
    previous.start !== window.start.toISOString() ||
    previous.end !== window.end.toISOString() ||
    previous.status !== window.status ||
    window.sequence > previous.sequence
  );
}

function changeKey(window: MaintenanceWindow): string {
  const version = `${window.sequence}@${window.start.toISOString()}/${window.end.toISOString()}/${window.status}`;
  return reminderKey(window.key, 'changed', version);
}

function remindersForWindow(w: MaintenanceWindow, input: PlanInput, grace: number): DueReminder[] {
  const now = input.now.getTime();
  const start = w.start.getTime();
  const end = w.end.getTime();
  const previous = input.known.get(w.key);
  const due: DueReminder[] = [];
  const add = (reminder: Omit<DueReminder, 'window' | 'settles'> & { settles?: string[] }) => {
    if (!input.sent.has(reminder.key)) due.push({ window: w, settles: [], ...reminder });
  };

  if (w.status === 'cancelled') {
    if (previous && previous.status !== 'cancelled' && now < end) {
      add({ key: reminderKey(w.key, 'cancelled', w.sequence), kind: 'cancelled', previous });
    }
    return due;
  }

  const passedOffsets = input.offsetsMs.filter((offset) => offset > 0 && start - offset <= now);
  const advanceKey =
    now < start && passedOffsets.length > 0
      ? reminderKey(w.key, 'advance', Math.min(...passedOffsets))
      : undefined;
  const changed = previous !== undefined && now < end && changeOf(w, previous);

  if (changed) {
    const settles = advanceKey && !input.sent.has(advanceKey) ? [advanceKey] : [];
    add({ key: changeKey(w), kind: 'changed', previous, settles });
  } else if (advanceKey) {
    add({ key: advanceKey, kind: 'advance', offsetMs: Math.min(...passedOffsets) });
  }
  if (input.ownerNoticeMs > 0 && start - input.ownerNoticeMs <= now && now < start) {
    add({ key: reminderKey(w.key, 'owners'), kind: 'owners' });
  }
  if (start <= now && now < end && now < start + grace) {
    add({ key: reminderKey(w.key, 'start'), kind: 'start' });
  }
  if (end <= now && now < end + grace) {
    add({ key: reminderKey(w.key, 'end'), kind: 'end' });
  }
  return due;
}

/** A cancelled stand-in for an announced window that is no longer in the feed. */
function vanishedWindow(key: string, previous: KnownWindow): MaintenanceWindow {
  const cut = key.lastIndexOf('|');
  const uid = cut >= 0 ? key.slice(0, cut) : key;
  return {
    uid,
    occurrenceStart: cut >= 0 ? key.slice(cut + 1) : previous.start,
    key,
    summary: previous.summary ?? uid,
    start: new Date(previous.start),
    end: new Date(previous.end),
    allDay: false,
    status: 'cancelled',
    sequence: previous.sequence,
  };
}

function removedFromFeed(input: PlanInput): DueReminder[] {
  if (!input.complete) return [];
  const present = new Set(input.windows.map((w) => w.key));
  const from = input.complete.from.getTime();
  const to = input.complete.to.getTime();
  const now = input.now.getTime();
  const due: DueReminder[] = [];
  for (const [key, previous] of input.known) {
    const start = Date.parse(previous.start);
    if (present.has(key) || previous.status === 'cancelled') continue;
    if (start < from || start >= to || Date.parse(previous.end) <= now) continue;
    const reminder = reminderKey(key, 'cancelled', 'removed');
    if (!input.sent.has(reminder)) {
      due.push({ key: reminder, kind: 'cancelled', window: vanishedWindow(key, previous), previous, settles: [] });
    }
  }
  return due;
}

export function remindersDue(input: PlanInput): DueReminder[] {
  const grace = input.lateGraceMs ?? DEFAULT_LATE_GRACE_MS;
  const due = [...input.windows.flatMap((w) => remindersForWindow(w, input, grace)), ...removedFromFeed(input)];
  return due.sort(
    (a, b) =>
      a.window.start.getTime() - b.window.start.getTime() ||
      KIND_ORDER.indexOf(a.kind) - KIND_ORDER.indexOf(b.kind) ||
      a.key.localeCompare(b.key),
  );
}
