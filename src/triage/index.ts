/**
 * Triage of a workload's log: the first relevant error, its category and retry advice,
 * redaction of secrets and escaping for Slack. Pure: values in, values out.
 */
export type { Category, Evidence, FirstError, LogSource, TriageHints, TriageResult } from './types.js';
export { triageText, triageStream, SNIPPET_MAX_CHARS } from './triage.js';
export { triageSources } from './sources.js';
export { redact, redactLine } from './redact.js';
export { forCodeBlock, forFile, forInlineCode, forMrkdwn, forPlainText, safeLine, safeLines, safeTail, sanitize, DESTINATIONS, type Destination } from './sanitize.js';
export { cleanLine } from './escape.js';
export { escapeForSlackCode } from './sanitize.js';
export { categoryLabel, CATEGORIES } from './categories.js';
