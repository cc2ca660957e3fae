/**
 * The buttons on the alert DM, clicked through the simulated Slack: each one acked, answered
 * ephemerally without touching the alert, and checked against the clicker's rights again.
 */
import { ACTION } from '../../src/messages/ids.js';
import { messageViolation, type Json } from '../fakes/slack.js';
import { eventually } from '../helpers/bot.js';
import { ALICE, CAROL, ERIN, SECRET, shownText, startWorld, type World } from './world.js';

interface Button {
  action_id: string;
  value?: string;
  url?: string;
}

describe('alert DM buttons', () => {
  let world: World;
  let buttons: Button[];
  let dm: string;

  beforeAll(async () => {
    world = await startWorld();
    const alert = await eventually(() => world.slack.messagesTo(ALICE.id)[0], "resnet's alert DM");
    dm = alert.response !== null && typeof alert.response === 'object' ? String((alert.response as Json).channel) : '';
    const blocks = alert.body.blocks as Array<{ type: string; elements?: Button[] }>;
    buttons = blocks.find((b) => b.type === 'actions')!.elements!;
  });

  afterAll(async () => {
    await world.close();
  });

  const button = (id: string) => buttons.find((b) => b.action_id === id)!;

  async function click(userId: string, id: string, value = button(id).value) {
    const result = await world.slack.sendBlockAction({ user_id: userId, action_id: id, value, channel_id: dm, message_ts: '1.000001' });
    const reply = (await result.nextResponse()).body;
    return { ack: result.ack, reply, shown: shownText(reply) };
  }

  it('shows more of the log, ephemerally and redacted, without replacing the alert', async () => {
    const { ack, reply, shown } = await click(ALICE.id, ACTION.showLog);
    expect(ack).toEqual({});
    expect(reply.response_type).toBe('ephemeral');
    expect(reply.replace_original).toBe(false);
    expect(shown).toContain('step 1:');
    expect(shown).toContain('CUDA out of memory');
    expect(shown).not.toContain(SECRET);
    expect(messageViolation(reply)).toBeUndefined();
  });

  it('carries identifiers only in button values', () => {
    expect(JSON.parse(button(ACTION.showLog).value!)).toEqual({ ns: 'runai-vision', name: 'resnet', uid: expect.any(String) });
  });

  it('checks permission again on click: a stranger gets the refusal, a project member the log', async () => {
    const stranger = await click(ERIN.id, ACTION.showLog);
    expect(stranger.shown).toContain("I can't show you a workload named `resnet`.");
    expect(stranger.shown).not.toContain('CUDA');
    expect((await click(CAROL.id, ACTION.showLog)).shown).toContain('CUDA out of memory');
  });

  it('refuses a button whose workload was replaced by a new one of the same name', async () => {
    const forged = JSON.stringify({ ns: 'runai-vision', name: 'resnet', uid: 'another-uid' });
    expect((await click(ALICE.id, ACTION.showLog, forged)).shown).toContain("I can't show you a workload named `resnet`.");
    expect((await click(ALICE.id, ACTION.showLog, 'not json')).shown).toContain("I can't show you a workload named");
  });

  it('mutes the workload until unmuted and confirms ephemerally', async () => {
    const { shown } = await click(ALICE.id, ACTION.muteWorkload);
    expect(shown).toContain('Muted `resnet`');
    expect(await world.bot.store.activeMutes(ALICE.id, new Date())).toContainEqual({ scope: 'workload:runai-vision/resnet', until: undefined });
  });

  it('mutes the project for one day', async () => {
    const { shown } = await click(ALICE.id, ACTION.muteProject);
    expect(shown).toContain('Muted project `vision`');
    const mute = (await world.bot.store.activeMutes(ALICE.id, new Date())).find((m) => m.scope === 'project:vision');
    const hours = (Date.parse(mute!.until!) - Date.now()) / 3_600_000;
    expect(hours).toBeGreaterThan(23.9);
    expect(hours).toBeLessThanOrEqual(24);
  });

  it('does not let a stranger mute through a forwarded button', async () => {
    await click(ERIN.id, ACTION.muteWorkload);
    await click(ERIN.id, ACTION.muteProject);
    expect(await world.bot.store.activeMutes(ERIN.id, new Date())).toEqual([]);
  });

  it('acks the Open in Run:ai link button and sends nothing', async () => {
    expect(button(ACTION.openInRunai).url).toContain('https://runai.example.org/workloads?search=resnet');
    const before = world.slack.responses.length;
    const result = await world.slack.sendBlockAction({ user_id: ALICE.id, action_id: ACTION.openInRunai, channel_id: dm });
    expect(result.ack).toEqual({});
    // A later click's answer arrives, and nothing came for the link in between.
    await click(ALICE.id, ACTION.muteWorkload);
    expect(world.slack.responses.slice(before).map((r) => r.id)).not.toContain(result.responseId);
  });
});
