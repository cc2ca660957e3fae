/** One occurrence of a maintenance event, as the rest of the bot sees it. */
export type WindowStatus = 'confirmed' | 'tentative' | 'cancelled';

export interface MaintenanceWindow {
  uid: string;
  /** ISO UTC of the occurrence's original slot (its RECURRENCE-ID), or of the start. */
  occurrenceStart: string;
  /**
   * Stable identity across feed edits: uid + original slot for an instance of a recurring event
   * (or an override without its master), the uid alone for a single event.
   */
  key: string;
  summary: string;
  description?: string;
  location?: string;
  start: Date;
  end: Date;
  allDay: boolean;
  status: WindowStatus;
  sequence: number;
}

export function windowKey(uid: string, occurrenceStart: string): string {
  return `${uid}|${occurrenceStart}`;
}
