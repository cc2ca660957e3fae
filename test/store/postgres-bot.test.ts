/**
 * The real bot with its whole store in PostgreSQL (`store.url`), end to end against the
 * simulated Kubernetes API server and Slack: it delivers a failure DM, and a restart (a new
 * process's worth of state: another data directory, no SQLite file) sends nothing twice and
 * catches up on what failed while it was down. Skipped with a note when no server answers.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { FakeKube } from '../../src/sim/kube-apiserver.js';
import { ALICE, type SlackSimulator } from '../fakes/slack.js';
import { eventually, tempDir } from '../helpers/bot.js';
import { createTestSchema, describeWithPostgres, type TestSchema } from '../helpers/postgres.js';
import { useSimulators } from '../helpers/sims.js';
import { ns, pod, workloadCr } from '../helpers/workloads.js';

const describePg = await describeWithPostgres('the tests of the bot on PostgreSQL');

describePg('the bot on PostgreSQL', () => {
  const sims = useSimulators((kube) => kube.addNamespace(ns('vision'), { 'runai/queue': 'vision' }));
  let kube: FakeKube;
  let slack: SlackSimulator;
  let schema: TestSchema;

  beforeEach(async () => {
    ({ kube, slack } = sims);
    schema = await createTestSchema('bottest');
  });
  afterEach(async () => {
    await sims.bot?.stop();
    sims.bot = undefined;
    await schema.drop();
  });

  function failTraining(name: string, log: string) {
    kube.appendLog(ns('vision'), `${name}-0-0`, name, log);
    kube.apply(pod({ workload: name, project: 'vision', exitCode: 1 }));
    kube.setPhase('TrainingWorkload', ns('vision'), name, 'Failed');
  }

  it('delivers a failure DM and, restarted elsewhere, sends nothing twice and catches up', async () => {
    const url = `${schema.url}?options=${encodeURIComponent(`-c search_path=${schema.schema}`)}`;
    const config = { owners: { emailDomain: 'example.org' }, alerts: { burstWindow: '0s' }, store: { url } };
    kube.apply(workloadCr({ name: 'first', project: 'vision', owner: 'alice' }));
    kube.apply(workloadCr({ name: 'second', project: 'vision', owner: 'alice' }));
    const firstDir = tempDir('pg-bot-');
    let bot = await sims.startBot(config, { dir: firstDir });
    expect(bot.store.location).toContain('127.0.0.1');
    failTraining('first', 'ValueError: bad learning rate schedule');
    await eventually(() => slack.messagesTo(ALICE.id).length === 1, 'the first DM');
    await bot.settle();
    // Told, in PostgreSQL: the ledger row is there, the outbox empty.
    const told = await schema.sql("SELECT key, recipient FROM ledger WHERE key LIKE 'wl:%:Failed'");
    expect(told.rows).toEqual([{ key: expect.stringMatching(/^wl:.+:Failed$/), recipient: ALICE.id }]);
    expect((await schema.sql('SELECT COUNT(*)::int AS n FROM outbox')).rows[0].n).toBe(0);
    await bot.stop();

    failTraining('second', 'KeyError: missing column "label"');
    const secondDir = tempDir('pg-bot-');
    bot = await sims.startBot(config, { dir: secondDir });
    await eventually(() => slack.messagesTo(ALICE.id).length >= 2, 'the catch-up DM');
    await bot.settle();
    bot.checkStuck();
    await bot.settle();
    const texts = slack.messagesTo(ALICE.id).map((c) => String(c.body.text) + JSON.stringify(c.body.blocks));
    expect(texts).toHaveLength(2);
    expect(texts[0]).toContain('ValueError: bad learning rate schedule');
    expect(texts[1]).toContain('KeyError: missing column');
    // Nothing of the store lives on local disk.
    expect(existsSync(join(firstDir, 'bot.db'))).toBe(false);
    expect(existsSync(join(secondDir, 'bot.db'))).toBe(false);
  });

  it('keeps the log-saving tip memory and the tips setting in PostgreSQL: another replica tells neither again', async () => {
    const url = `${schema.url}?options=${encodeURIComponent(`-c search_path=${schema.schema}`)}`;
    const config = { owners: { emailDomain: 'example.org' }, store: { url } };
    const teed = 'bash -c "python -u train.py 2>&1 | tee -a /data/logs/train.log"';
    const start = async (name: string) => {
      kube.apply(workloadCr({ name, project: 'vision', owner: 'alice', phase: 'Pending', command: teed, arguments: '' }));
      await eventually(() => sims.bot!.reconciler.workloads().some((w) => w.name === name), `${name} seen`);
      kube.setPhase('TrainingWorkload', ns('vision'), name, 'Running');
      await eventually(() => sims.bot!.reconciler.workloads().some((w) => w.name === name && w.state === 'Running'), `${name} running`);
      await sims.bot!.settle();
    };
    let bot = await sims.startBot(config, { dir: tempDir('pg-bot-') });
    await start('first');
    await start('second');
    expect(slack.messagesTo(ALICE.id)).toHaveLength(2);
    const tipped = await schema.sql("SELECT key, recipient FROM ledger WHERE key LIKE 'tip:%' ORDER BY key");
    expect(tipped.rows.map((r: { key: string }) => r.key.split(':')[1])).toEqual(['log-not-persistent', 'masked-exit']);
    await bot.stop();

    bot = await sims.startBot(config, { dir: tempDir('pg-bot-') });
    await start('third');
    expect(slack.messagesTo(ALICE.id)).toHaveLength(2);
    // Off is kept there too: with the week's memory gone, still nothing.
    await schema.sql("DELETE FROM ledger WHERE key LIKE 'tip:%'");
    await bot.store.putSettings(ALICE.id, { completed: false, pending: true, tips: false });
    await start('fourth');
    expect(slack.messagesTo(ALICE.id)).toHaveLength(2);
    expect(await bot.store.getSettings(ALICE.id)).toMatchObject({ tips: false });
  });
});
