// The shapes live in the model so that the message builders need not import this folder.
export type { MaintenanceWindow, WindowStatus } from '../model.js';

export function windowKey(uid: string, occurrenceStart: string): string {
  return `${uid}|${occurrenceStart}`;
}
