/**
 * The Home tab's listener: gathers what the tab shows and publishes it, fresh each time the tab
 * is opened (or its Refresh button clicked). The view itself is built in src/messages/home.ts.
 */
import { workloadOfKey } from '../keys.js';
import { splitWorkloadId } from '../model.js';
import { buildHomeView, RECENT_ALERTS_SHOWN, type HomeInput } from '../messages/home.js';
import { ACTION } from '../messages/ids.js';
import { ownsWorkload } from '../notify/access.js';
import { settingsOf } from '../notify/settings.js';
import type { App } from './app.js';
import type { ListenerDeps } from './listeners.js';

export async function homeInputFor(deps: ListenerDeps, userId: string, identities: ReadonlySet<string>): Promise<HomeInput> {
  const now = deps.now();
  const alerts = await Promise.all(
    (await deps.store.recentAlertsFor(userId, RECENT_ALERTS_SHOWN)).map(async (entry) => {
      // The key holds workloadId(): `cluster/uid` for a workload of a named cluster.
      const id = workloadOfKey(entry.key);
      const stored = id ? await deps.store.getWorkload(id) : undefined;
      const { cluster } = splitWorkloadId(id);
      return { entry, workload: stored && cluster ? { name: stored.name, project: stored.project, cluster } : stored };
    }),
  );
  return {
    now,
    workloads: deps.reconciler.workloads().filter((w) => ownsWorkload(identities, w.owner)),
    alerts,
    nextWindow: deps.maintenance ? (deps.maintenance.upcoming(now, 1)[0] ?? null) : undefined,
    settings: await settingsOf(deps.store, userId),
    mutes: await deps.store.activeMutes(userId, now),
  };
}

export function register(app: App, deps: ListenerDeps): void {
  const publish = async (client: App['client'], userId: string) => {
    const identities = await deps.owners.clusterIdentitiesOf(userId);
    await client.views.publish({ user_id: userId, view: buildHomeView(await homeInputFor(deps, userId, identities)) });
  };
  app.event('app_home_opened', async ({ event, client }) => {
    if (event.tab !== 'home') return;
    await publish(client, event.user);
  });
  app.action(ACTION.homeRefresh, async ({ ack, body, client }) => {
    await ack();
    await publish(client, body.user.id);
  });
}
