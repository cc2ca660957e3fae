import { planAdoption, type AdoptionPlan, type AdoptionRows } from '../../src/store/adoption-plan.js';
import type { OutboxTarget, StoredFollowUpThread } from '../../src/store/port.js';

const owner: OutboxTarget = { type: 'owner', owner: 'alice', project: 'vision', workload: 'runai-vision/job' };
const rewrite = (anchorKey: string): OutboxTarget => ({ type: 'burst', anchorKey });
const rows = (partial: Partial<AdoptionRows>): AdoptionRows => ({ ledger: [], outbox: [], bursts: [], entries: [], threads: [], ...partial });
const nothing: AdoptionPlan = { ledger: { renames: [], drops: [] }, outbox: { updates: [], drops: [] }, bursts: [], entries: { updates: [], drops: [] }, threads: { updates: [], drops: [] } };
const plan = (partial: { [K in keyof AdoptionPlan]?: Partial<AdoptionPlan[K]> }): AdoptionPlan => ({
  ledger: { ...nothing.ledger, ...partial.ledger },
  outbox: { ...nothing.outbox, ...partial.outbox },
  bursts: (partial.bursts as AdoptionPlan['bursts'] | undefined) ?? [],
  entries: { ...nothing.entries, ...partial.entries },
  threads: { ...nothing.threads, ...partial.threads },
});
/** The thread of resnet's failure in `cluster` (none: the unnamed cluster), following `current`. */
const thread = (cluster: string | undefined, current: string): StoredFollowUpThread => {
  const id = (uid: string) => (cluster ? `${cluster}/${uid}` : uid);
  return {
    chain: `${cluster ?? ''}/runai-vision/resnet`,
    rootKey: `wl:${id('u1')}:Failed`,
    current,
    lastState: 'Deleted',
    alerted: 'Failed',
    endedAt: '2026-11-30T10:00:00.000Z',
    events: ['deleted'],
    rootPayload: { text: 'resnet failed' },
    name: 'resnet',
    owner: 'alice',
    project: 'vision',
    muteScope: cluster ? `${cluster}/runai-vision/resnet` : 'runai-vision/resnet',
    folded: false,
    updatedAt: '2026-11-30T10:00:00.000Z',
  };
};
const reply = (rootKey: string, edit?: true): OutboxTarget => ({ type: 'thread', rootKey, project: 'vision', workload: 'runai-vision/resnet', ...(edit ? { edit } : {}) });

describe('planAdoption: what a single-cluster store\'s keys become in the cluster gpu-east', () => {
  it.each<[string, AdoptionRows, AdoptionPlan]>([
    ['nothing about an unnamed workload: nothing changes', rows({ ledger: ['wl:gpu-west/u1:Failed'], outbox: [{ id: 1, key: 'cleanup:alice:2026-11-30', target: owner }] }), nothing],
    [
      'an alert, a stuck warning and a rewrite told are renamed',
      rows({ ledger: ['wl:u1:Failed', 'wl:u1:stuck-Pending', 'burst:wl:u1:Failed'] }),
      plan({ ledger: { renames: [['wl:u1:Failed', 'wl:gpu-east/u1:Failed'], ['wl:u1:stuck-Pending', 'wl:gpu-east/u1:stuck-Pending'], ['burst:wl:u1:Failed', 'burst:wl:gpu-east/u1:Failed']] } }),
    ],
    ['told under both names: the named row stays', rows({ ledger: ['wl:u1:Failed', 'wl:gpu-east/u1:Failed'] }), plan({ ledger: { drops: ['wl:u1:Failed'] } })],
    [
      'a queued alert and a burst rewrite are renamed, the rewrite\'s anchor with it',
      rows({ outbox: [{ id: 1, key: 'wl:u1:Failed', target: owner }, { id: 2, key: 'burst:wl:u1:Failed', target: rewrite('wl:u1:Failed') }] }),
      plan({ outbox: { updates: [{ id: 1, key: 'wl:gpu-east/u1:Failed', target: owner }, { id: 2, key: 'burst:wl:gpu-east/u1:Failed', target: rewrite('wl:gpu-east/u1:Failed') }] } }),
    ],
    [
      'an edit of a message about the workload keeps its own key and follows its anchor',
      rows({ outbox: [{ id: 1, key: 'upd:1', target: { type: 'update', anchorKey: 'wl:u1:Failed' } }] }),
      plan({ outbox: { updates: [{ id: 1, key: 'upd:1', target: { type: 'update', anchorKey: 'wl:gpu-east/u1:Failed' } }] } }),
    ],
    ['queued under both names: the named item stays', rows({ outbox: [{ id: 1, key: 'wl:gpu-east/u1:Failed', target: owner }, { id: 2, key: 'wl:u1:Failed', target: owner }] }), plan({ outbox: { drops: [2] } })],
    ['queued unnamed, told named: not sent again', rows({ ledger: ['wl:gpu-east/u1:Failed'], outbox: [{ id: 1, key: 'wl:u1:Failed', target: owner }] }), plan({ outbox: { drops: [1] } })],
    [
      'told unnamed, queued named: the ledger moves and the queued copy goes',
      rows({ ledger: ['wl:u1:Failed'], outbox: [{ id: 1, key: 'wl:gpu-east/u1:Failed', target: owner }] }),
      plan({ ledger: { renames: [['wl:u1:Failed', 'wl:gpu-east/u1:Failed']] }, outbox: { drops: [1] } }),
    ],
    ['queued unnamed, folded named: the fold stays', rows({ outbox: [{ id: 1, key: 'wl:u1:Failed', target: owner }], bursts: ['wl:gpu-east/u0:Failed'], entries: [{ key: 'wl:gpu-east/u1:Failed', anchorKey: 'wl:gpu-east/u0:Failed', told: false }] }), plan({ outbox: { drops: [1] } })],
    [
      'a rewrite under both names: the named one stays (and lists what joins its burst)',
      rows({ outbox: [{ id: 1, key: 'burst:wl:gpu-east/u1:Failed', target: rewrite('wl:gpu-east/u1:Failed') }, { id: 2, key: 'burst:wl:u1:Failed', target: rewrite('wl:u1:Failed') }] }),
      plan({ outbox: { drops: [2] } }),
    ],
    [
      'an open burst and its folded alerts are moved under the named anchor',
      rows({ bursts: ['wl:u1:Failed'], entries: [{ key: 'wl:u2:Failed', anchorKey: 'wl:u1:Failed', told: false }, { key: 'wl:u3:Failed', anchorKey: 'wl:u1:Failed', told: true }] }),
      plan({
        bursts: [{ from: 'wl:u1:Failed', to: 'wl:gpu-east/u1:Failed', copy: true }],
        entries: { updates: [{ key: 'wl:u2:Failed', newKey: 'wl:gpu-east/u2:Failed', anchorKey: 'wl:gpu-east/u1:Failed' }, { key: 'wl:u3:Failed', newKey: 'wl:gpu-east/u3:Failed', anchorKey: 'wl:gpu-east/u1:Failed' }] },
      }),
    ],
    [
      'a burst under both names: the unnamed one\'s folds join the named one',
      rows({ bursts: ['wl:u1:Failed', 'wl:gpu-east/u1:Failed'], entries: [{ key: 'wl:u2:Failed', anchorKey: 'wl:u1:Failed', told: false }] }),
      plan({ bursts: [{ from: 'wl:u1:Failed', to: 'wl:gpu-east/u1:Failed', copy: false }], entries: { updates: [{ key: 'wl:u2:Failed', newKey: 'wl:gpu-east/u2:Failed', anchorKey: 'wl:gpu-east/u1:Failed' }] } }),
    ],
    [
      'a named workload folded into an unnamed anchor\'s burst keeps its key and follows the anchor',
      rows({ bursts: ['wl:u1:Failed'], entries: [{ key: 'wl:gpu-west/u9:Failed', anchorKey: 'wl:u1:Failed', told: false }] }),
      plan({ bursts: [{ from: 'wl:u1:Failed', to: 'wl:gpu-east/u1:Failed', copy: true }], entries: { updates: [{ key: 'wl:gpu-west/u9:Failed', newKey: 'wl:gpu-west/u9:Failed', anchorKey: 'wl:gpu-east/u1:Failed' }] } }),
    ],
    [
      'folded unnamed, already owed or told named: the fold goes',
      rows({
        ledger: ['wl:gpu-east/u3:Failed'],
        outbox: [{ id: 1, key: 'wl:gpu-east/u2:Failed', target: owner }],
        bursts: ['wl:gpu-west/a:Failed'],
        entries: [{ key: 'wl:u2:Failed', anchorKey: 'wl:gpu-west/a:Failed', told: false }, { key: 'wl:u3:Failed', anchorKey: 'wl:gpu-west/a:Failed', told: false }],
      }),
      plan({ entries: { drops: ['wl:u2:Failed', 'wl:u3:Failed'] } }),
    ],
    [
      'queued and folded under the same unnamed key (which the stores never allow): one of them stays',
      rows({ outbox: [{ id: 1, key: 'wl:u2:Failed', target: owner }], bursts: ['wl:gpu-west/a:Failed'], entries: [{ key: 'wl:u2:Failed', anchorKey: 'wl:gpu-west/a:Failed', told: false }] }),
      plan({ outbox: { updates: [{ id: 1, key: 'wl:gpu-east/u2:Failed', target: owner }] }, entries: { drops: ['wl:u2:Failed'] } }),
    ],
    [
      'a told fold keeps its line in the rewrite though the ledger moves with it',
      rows({ ledger: ['wl:u2:Failed'], bursts: ['wl:gpu-west/a:Failed'], entries: [{ key: 'wl:u2:Failed', anchorKey: 'wl:gpu-west/a:Failed', told: true }] }),
      plan({ ledger: { renames: [['wl:u2:Failed', 'wl:gpu-east/u2:Failed']] }, entries: { updates: [{ key: 'wl:u2:Failed', newKey: 'wl:gpu-east/u2:Failed', anchorKey: 'wl:gpu-west/a:Failed' }] } }),
    ],
    [
      'follow-ups told in the thread and the root\'s edit are renamed with their alert',
      rows({ ledger: ['wl:u1:Failed', 'fu:u1:1-deleted', 'fu-root:wl:u1:Failed', 'fu:gpu-west/u7:1-deleted'] }),
      plan({ ledger: { renames: [['wl:u1:Failed', 'wl:gpu-east/u1:Failed'], ['fu:u1:1-deleted', 'fu:gpu-east/u1:1-deleted'], ['fu-root:wl:u1:Failed', 'fu-root:wl:gpu-east/u1:Failed']] } }),
    ],
    [
      'a queued follow-up and a queued root edit are renamed, their root with them (else sent to no thread, and dropped)',
      rows({ outbox: [{ id: 1, key: 'fu:u1:2-resubmitted', target: reply('wl:u1:Failed') }, { id: 2, key: 'fu-root:wl:u1:Failed', target: reply('wl:u1:Failed', true) }] }),
      plan({
        outbox: {
          updates: [
            { id: 1, key: 'fu:gpu-east/u1:2-resubmitted', target: reply('wl:gpu-east/u1:Failed') },
            { id: 2, key: 'fu-root:wl:gpu-east/u1:Failed', target: reply('wl:gpu-east/u1:Failed', true) },
          ],
        },
      }),
    ],
    ['a follow-up queued unnamed and told named: not sent again', rows({ ledger: ['fu:gpu-east/u1:1-deleted'], outbox: [{ id: 1, key: 'fu:u1:1-deleted', target: reply('wl:u1:Failed') }] }), plan({ outbox: { drops: [1] } })],
    [
      'a thread moves to the named chain: its root, the workload it follows (a resubmission) and its mute scope with it',
      rows({ threads: [thread(undefined, 'u2'), thread('gpu-west', 'gpu-west/u1')] }),
      plan({ threads: { updates: [{ from: '/runai-vision/resnet', thread: { ...thread('gpu-east', 'gpu-east/u2') } }] } }),
    ],
    ['a thread under both names: the named one stays', rows({ threads: [thread(undefined, 'u1'), thread('gpu-east', 'gpu-east/u9')] }), plan({ threads: { drops: ['/runai-vision/resnet'] } })],
  ])('%s', (_, input, expected) => {
    expect(planAdoption(input, 'gpu-east')).toEqual(expected);
  });
});
