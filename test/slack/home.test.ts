/**
 * The Home tab: published when a person opens it and when they click Refresh, with their
 * workloads by state, the alerts they got, the next maintenance window and their settings.
 */
import { ACTION } from '../../src/messages/ids.js';
import { viewViolation } from '../fakes/slack.js';
import { eventually } from '../helpers/bot.js';
import { ALICE, BOB, ERIN, startWorld, type World } from './world.js';

describe('the Home tab', () => {
  let world: World;

  beforeAll(async () => {
    world = await startWorld();
    await eventually(() => world.slack.messagesTo(ALICE.id).length > 0, "resnet's alert DM");
    await world.bot.settle();
  });

  afterAll(async () => {
    await world.close();
  });

  const homeOf = (userId: string) => world.slack.workspace.homeViews.get(userId);

  it('shows my workloads by state, my recent alerts, the maintenance calendar state and my settings', async () => {
    await world.bot.store.mute(ALICE.id, 'project:llm', undefined);
    await world.slack.sendEvent({ type: 'app_home_opened', user: ALICE.id, channel: 'DALICE', tab: 'home' });
    const home = await eventually(() => homeOf(ALICE.id), 'the published Home tab');
    const shown = JSON.stringify(home.view);
    expect(home.view.type).toBe('home');
    expect(viewViolation(home.view)).toBeUndefined();
    expect((home.view.blocks as unknown[]).length).toBeLessThanOrEqual(100);
    expect(shown).toContain('`resnet`');
    expect(shown).toContain('`bert`');
    expect(shown.indexOf('*Failed*')).toBeLessThan(shown.indexOf('*Running*'));
    expect(shown).toContain('Recent alerts');
    expect(shown).toMatch(/`resnet` in vision was \*Failed\*/);
    expect(shown).toContain('No maintenance calendar configured');
    expect(shown).toContain('Completed workloads: *off*');
    // README: the tips setting is shown in /runai settings and on the Home tab.
    expect(shown).toContain('Log-saving tips, at most one a week per kind: *on*');
    expect(shown).toContain('project llm until unmuted');
    expect(shown).not.toContain('sdxl');
  });

  it("shows a person without workloads or alerts that they have none, and no one else's", async () => {
    await world.slack.sendEvent({ type: 'app_home_opened', user: ERIN.id, channel: 'DERIN', tab: 'home' });
    const shown = JSON.stringify((await eventually(() => homeOf(ERIN.id), "Erin's Home tab")).view);
    expect(shown).toContain('You have no workloads');
    expect(shown).toContain('No alerts sent to you yet');
    expect(shown).not.toContain('resnet');
  });

  it('does not publish when the Messages tab is opened', async () => {
    const publishesFor = (user: string) => world.slack.callsTo('views.publish').filter((c) => c.body.user_id === user).length;
    const alice = publishesFor(ALICE.id);
    const bob = publishesFor(BOB.id);
    await world.slack.sendEvent({ type: 'app_home_opened', user: ALICE.id, channel: 'DALICE', tab: 'messages' });
    // Barriers, not a wait: two Home opens sent after it, each published (the same reads and the
    // same call a Messages open would make, started after it), bob's last. A publish for alice's
    // Messages open would have been made by the time bob's is.
    await world.slack.sendEvent({ type: 'app_home_opened', user: ALICE.id, channel: 'DALICE', tab: 'home' });
    await eventually(() => publishesFor(ALICE.id) > alice, 'alice\'s Home publish');
    await world.slack.sendEvent({ type: 'app_home_opened', user: BOB.id, channel: 'DBOB', tab: 'home' });
    await eventually(() => publishesFor(BOB.id) > bob, 'bob\'s Home publish');
    expect(publishesFor(ALICE.id)).toBe(alice + 1);
  });

  it('republishes with fresh data when Refresh is clicked', async () => {
    await world.bot.store.putSettings(ALICE.id, { completed: true, pending: true });
    const before = world.slack.callsTo('views.publish').length;
    const result = await world.slack.sendBlockAction({ user_id: ALICE.id, action_id: ACTION.homeRefresh, value: 'refresh' });
    expect(result.ack).toEqual({});
    await eventually(() => world.slack.callsTo('views.publish').length > before, 'the refreshed Home tab');
    expect(JSON.stringify(homeOf(ALICE.id)!.view)).toContain('Completed workloads: *on*');
  });
});
