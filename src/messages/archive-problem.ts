/**
 * Messages to the operators' channel about the log archive: it cannot be written (once per
 * kind of problem), and it works again. Pure: values in, a message out.
 */
import type { StorageProblem } from '../model.js';
import { context, fields, header, section, type SlackMessage } from './blocks.js';
import { forMrkdwn, forInlineCode } from './mrkdwn.js';

const TITLE: Readonly<Record<StorageProblem['kind'], string>> = {
  'disk-full': 'Log archive is full',
  unwritable: 'Log archive cannot be written',
  'io-error': 'Log archive failed',
};

const FIX: Readonly<Record<StorageProblem['kind'], string>> = {
  'disk-full': 'Free space on the archive volume or make it larger.',
  unwritable:
    "Check that `archive.dir` is a directory on a mounted, writable volume and that the bot's user (uid 10001 in the image) may write to it.",
  'io-error': 'Check the archive volume and its mount.',
};

export function buildArchiveProblemMessage(input: { problem: StorageProblem; dir: string; workload: string }): SlackMessage {
  const { problem, dir, workload } = input;
  return {
    text: forMrkdwn(`${TITLE[problem.kind]}: logs of ${workload} were not saved to ${dir} (${problem.code ?? problem.kind}).`),
    blocks: [
      header(`:floppy_disk: ${TITLE[problem.kind]}`),
      section(`The bot could not save the logs of ${forInlineCode(workload)} to ${forInlineCode(dir, 400)}. ${FIX[problem.kind]}`),
      fields([
        ['Problem', forInlineCode(problem.message, 500)],
        ['Error code', problem.code ? forMrkdwn(problem.code) : undefined],
      ]),
      context(
        "Owners' alerts are still sent, without saved logs. This is reported once; if it breaks again after working, it is reported again.",
      ),
    ],
  };
}

export function buildArchiveRecoveredMessage(input: { dir: string; path: string }): SlackMessage {
  return {
    text: forMrkdwn(`Log archive works again: logs were saved to ${input.path}.`),
    blocks: [section(`:floppy_disk: The log archive in ${forInlineCode(input.dir, 400)} works again: logs were saved to ${forInlineCode(input.path, 400)}.`)],
  };
}
