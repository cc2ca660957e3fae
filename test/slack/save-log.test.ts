/**
 * "Save the whole log" on a failure alert, clicked through the simulated Slack against the real
 * bot: the archive's copy of the failed container's log, redacted, uploaded through Slack's
 * current flow (files.getUploadURLExternal → upload URL → files.completeUploadExternal) into the
 * clicker's DM — only for the owner or an admin.
 */
import { readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { ACTION } from '../../src/messages/ids.js';
import { SAVE_LOG_MAX_BYTES } from '../../src/slack/save-log.js';
import { DEFAULT_SCOPES, messageViolation, type Json } from '../fakes/slack.js';
import { eventually, tempDir } from '../helpers/bot.js';
import { ns } from '../helpers/workloads.js';
import { ALICE, baseConfig, CAROL, DAVE, ERIN, SECRET, shownText, startWorld, type World } from './world.js';

interface Button {
  action_id: string;
  value?: string;
}

function archivedManifests(dir: string): string[] {
  return (readdirSync(dir, { recursive: true }) as string[]).filter((p) => p.endsWith('archive.json'));
}

describe('"Save the whole log" on the failure alert', () => {
  let world: World;
  let buttons: Button[];
  let dm: string;
  const archiveDir = tempDir('save-log-archive-');

  beforeAll(async () => {
    world = await startWorld({ ...baseConfig, archive: { dir: archiveDir } });
    const alert = await eventually(() => world.slack.messagesTo(ALICE.id)[0], "resnet's alert DM");
    dm = String((alert.response as Json).channel);
    buttons = (alert.body.blocks as Array<{ type: string; elements?: Button[] }>).find((b) => b.type === 'actions')!.elements!;
    await eventually(() => archivedManifests(archiveDir).length > 0, 'the archive of resnet');
  });

  afterAll(async () => {
    await world.close();
  });

  async function click(userId: string) {
    const value = buttons.find((b) => b.action_id === ACTION.saveLog)!.value;
    const result = await world.slack.sendBlockAction({ user_id: userId, action_id: ACTION.saveLog, value, channel_id: dm, message_ts: '1.000001' });
    const reply = (await result.nextResponse()).body;
    return { ack: result.ack, reply, shown: shownText(reply) };
  }

  const uploadCalls = () => world.slack.calls.filter((c) => c.method.startsWith('files.')).length;

  it('is on the failure alert, after "Show more of the log", carrying identifiers only', () => {
    expect(buttons.map((b) => b.action_id).slice(0, 2)).toEqual([ACTION.showLog, ACTION.saveLog]);
    expect(JSON.parse(buttons[1].value!)).toEqual({ ns: 'runai-vision', name: 'resnet', uid: expect.any(String) });
  });

  it("uploads the archive's redacted copy into the owner's DM through the external upload flow", async () => {
    const before = world.slack.calls.length;
    const { ack, reply, shown } = await click(ALICE.id);
    expect(ack).toEqual({});
    expect(reply.response_type).toBe('ephemeral');
    expect(shown).toContain('I put the log of `resnet` into our DM as a file');
    expect(messageViolation(reply)).toBeUndefined();
    expect(world.slack.calls.slice(before).map((c) => c.method)).toEqual(expect.arrayContaining(['conversations.open', 'files.getUploadURLExternal', 'files.completeUploadExternal']));
    const [file] = world.slack.filesSharedIn(ALICE.id);
    expect(file.filename).toBe('resnet.resnet.log');
    const text = file.bytes!.toString('utf8');
    expect(text).toContain('step 1: loss=');
    expect(text).toContain('torch.OutOfMemoryError: CUDA out of memory');
    expect(text).not.toContain(SECRET);
    expect(text).toContain('[REDACTED');
    expect(file.initialComment).toContain('the copy I archived when it failed, secrets redacted');
    expect(file.initialComment).toContain('pod resnet-0-0, container resnet');
  });

  it('gives an admin the file in their own DM; a project member and a stranger get none', async () => {
    expect((await click(DAVE.id)).shown).toContain('into our DM as a file');
    expect(world.slack.filesSharedIn(DAVE.id)).toHaveLength(1);
    const before = uploadCalls();
    const member = await click(CAROL.id);
    expect(member.shown).toContain('Only the owner of `resnet` or a bot admin can save its whole log');
    const stranger = await click(ERIN.id);
    expect(stranger.shown).toContain("I can't show you a workload named `resnet`.");
    expect(uploadCalls()).toBe(before);
    expect(world.slack.filesSharedIn(CAROL.id)).toHaveLength(0);
    expect(world.slack.filesSharedIn(ERIN.id)).toHaveLength(0);
  });

  it('says what is missing when the app lacks files:write', async () => {
    world.slack.setScopes(DEFAULT_SCOPES.filter((s) => s !== 'files:write'));
    try {
      expect((await click(ALICE.id)).shown).toContain('lacks the `files:write` scope');
    } finally {
      world.slack.setScopes(DEFAULT_SCOPES);
    }
  });

  it('reads the log from the cluster when the archive has no copy, keeping its last 2 MiB from a whole line', async () => {
    rmSync(join(archiveDir, 'vision'), { recursive: true, force: true });
    const big = Array.from({ length: 30_000 }, (_, i) => `filler ${i} ${'y'.repeat(90)} token=${SECRET}`).join('\n');
    world.kube.appendLog(ns('vision'), 'resnet-0-0', 'resnet', `\n${big}\nthe very last line\n`);
    const sharedBefore = world.slack.filesSharedIn(ALICE.id).length;
    const { shown } = await click(ALICE.id);
    expect(shown).toContain(', its end).');
    const file = world.slack.filesSharedIn(ALICE.id)[sharedBefore];
    const text = file.bytes!.toString('utf8');
    expect(file.bytes!.length).toBeLessThanOrEqual(SAVE_LOG_MAX_BYTES);
    expect(text.endsWith('the very last line\n')).toBe(true);
    expect(text).toMatch(/^filler \d+ /);
    expect(text).not.toContain(SECRET);
    expect(file.initialComment).toContain('read from the cluster now (no archived copy)');
    expect(file.initialComment).toMatch(/Its first [\d.]+ MB were left off/);
  });
});
