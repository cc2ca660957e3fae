/**
 * `clusters:`: several clusters in one bot. Old configs resolve to one unnamed cluster that
 * behaves as before; each entry inherits the `cluster:` block; mistakes name their key.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { clusterNames, leaseCluster, parseConfig, uiUrlFor } from '../src/config.js';
import { loadClusterKubeConfigs } from '../src/ops/open.js';
import YAML from 'yaml';
import { kubeconfigYaml } from '../src/sim/kubeconfig.js';
import { problemsOf } from './helpers/config-problems.js';

describe('config: clusters', () => {
  it('resolves an old config (cluster: only) to one unnamed cluster with its settings', () => {
    const config = parseConfig({ cluster: { mode: 'poll', pollIntervalSeconds: 60, namespaces: ['runai-a'], lookbackHours: 6, resyncMinutes: 10 }, runai: { uiUrl: 'https://runai.example.org' } });
    expect(config.clusters).toEqual([
      { key: 'cluster', mode: 'poll', pollIntervalSeconds: 60, namespaces: ['runai-a'], lookbackHours: 6, resyncMinutes: 10, uiUrl: 'https://runai.example.org' },
    ]);
    expect(config.clusters[0].name).toBeUndefined();
    expect(clusterNames(config)).toEqual([]);
    expect(uiUrlFor(config, undefined)).toBe('https://runai.example.org');
    expect(parseConfig({}).clusters).toHaveLength(1);
  });

  it('gives every entry the cluster: block and runai.uiUrl as defaults, each field overridable', () => {
    const config = parseConfig({
      cluster: { mode: 'poll', pollIntervalSeconds: 45, namespaces: ['runai-shared'], lookbackHours: 12, resyncMinutes: 20 },
      runai: { uiUrl: 'https://runai.example.org' },
      clusters: [
        { name: 'gpu-east', kubeconfig: '/etc/runai-bot/clusters/east/kubeconfig' },
        { name: 'gpu-west', context: 'west', mode: 'watch', namespaces: [], lookbackHours: 2, uiUrl: 'https://west.example.org' },
      ],
    });
    expect(clusterNames(config)).toEqual(['gpu-east', 'gpu-west']);
    expect(config.clusters[0]).toEqual({
      key: 'clusters[0]', name: 'gpu-east', kubeconfig: '/etc/runai-bot/clusters/east/kubeconfig', context: undefined,
      mode: 'poll', pollIntervalSeconds: 45, namespaces: ['runai-shared'], lookbackHours: 12, resyncMinutes: 20, uiUrl: 'https://runai.example.org',
    });
    expect(config.clusters[1]).toMatchObject({ name: 'gpu-west', context: 'west', mode: 'watch', pollIntervalSeconds: 45, namespaces: [], lookbackHours: 2, resyncMinutes: 20, uiUrl: 'https://west.example.org' });
    expect(uiUrlFor(config, 'gpu-west')).toBe('https://west.example.org');
    expect(uiUrlFor(config, 'gpu-east')).toBe('https://runai.example.org');
    // The Lease lives in the first listed cluster unless ha.cluster names another.
    expect(leaseCluster(config).name).toBe('gpu-east');
    expect(leaseCluster(parseConfig({ clusters: [{ name: 'a' }, { name: 'b' }], ha: { cluster: 'b' } })).name).toBe('b');
  });

  it('relists only when relistMinutes says so: unset by default, inherited from cluster:, overridable per entry, and checked with its key', () => {
    expect(parseConfig({}).clusters[0].relistMinutes).toBeUndefined();
    const config = parseConfig({ cluster: { relistMinutes: 120 }, clusters: [{ name: 'gpu-east' }, { name: 'gpu-west', relistMinutes: 30 }] });
    expect(config.clusters.map((c) => c.relistMinutes)).toEqual([120, 30]);
    expect(problemsOf(() => parseConfig({ cluster: { relistMinutes: 0.5 } }))).toEqual([expect.stringMatching(/^cluster\.relistMinutes: /)]);
    expect(problemsOf(() => parseConfig({ clusters: [{ name: 'gpu-east', relistMinutes: 'often' }] }))).toEqual([expect.stringMatching(/^clusters\.0\.relistMinutes: /)]);
  });

  it('names the key of every mistake: bad or duplicate names, kubeconfig and context together, unknown ha.cluster, an empty list', () => {
    const problems = problemsOf(() =>
      parseConfig({
        clusters: [
          { name: 'gpu-east', kubeconfig: '/k/east', context: 'east' },
          { name: 'gpu-east' },
          { name: 'GPU_West' },
        ],
        ha: { cluster: 'gpu-north' },
      }),
    );
    expect(problems).toEqual(expect.arrayContaining([expect.stringMatching(/^clusters\.2\.name: must be a DNS label/)]));
    const more = problemsOf(() => parseConfig({ clusters: [{ name: 'gpu-east', kubeconfig: '/k/east', context: 'east' }, { name: 'gpu-east' }], ha: { cluster: 'gpu-north' } }));
    expect(more).toEqual([
      'clusters[0].context: set either kubeconfig (a file for this cluster) or context (a context in $KUBECONFIG), not both',
      'clusters[1].name: "gpu-east" is already the name of clusters[0]; each cluster needs its own name (it qualifies every key)',
      'ha.cluster: "gpu-north" is not a cluster listed in clusters: (gpu-east)',
    ]);
    expect(problemsOf(() => parseConfig({ clusters: [] })).join('\n')).toMatch(/^clusters: /);
    expect(problemsOf(() => parseConfig({ clusters: [{ name: 'a', server: 'x' }] }))).toEqual(['clusters.0.server: unknown key']);
  });

  it('keeps an old config with ha.cluster (accepted before clusters: existed) valid', () => {
    expect(() => parseConfig({ ha: { cluster: 'anything' } })).not.toThrow();
  });

  describe('kubeconfigs at start', () => {
    const dir = mkdtempSync(join(tmpdir(), 'clusters-kc-'));
    const east = join(dir, 'east.yaml');
    writeFileSync(east, kubeconfigYaml({ server: 'http://127.0.0.1:1', token: 't-east', name: 'east' }));
    const both = join(dir, 'both.yaml');
    const two = { ...(YAML.parse(kubeconfigYaml({ server: 'http://127.0.0.1:2', token: 't-a', name: 'a' })) as Record<string, any[]>) };
    const other = YAML.parse(kubeconfigYaml({ server: 'http://127.0.0.1:3', token: 't-b', name: 'b' })) as Record<string, any[]>;
    for (const key of ['clusters', 'users', 'contexts']) two[key] = [...two[key], ...other[key]];
    writeFileSync(both, YAML.stringify(two));

    it('loads a kubeconfig file per cluster and a context of $KUBECONFIG per cluster', () => {
      const config = parseConfig(
        { clusters: [{ name: 'gpu-east', kubeconfig: east }, { name: 'gpu-a', context: 'a' }, { name: 'gpu-b', context: 'b' }] },
        { KUBECONFIG: both },
      );
      const [e, a, b] = loadClusterKubeConfigs(config);
      expect(e.getCurrentCluster()?.server).toBe('http://127.0.0.1:1');
      expect(a.getCurrentCluster()?.server).toBe('http://127.0.0.1:2');
      expect(b.getCurrentCluster()?.server).toBe('http://127.0.0.1:3');
    });

    it('names the key of an unreadable kubeconfig and of an unknown context, all at once', () => {
      const config = parseConfig(
        { clusters: [{ name: 'gpu-east', kubeconfig: join(dir, 'missing.yaml') }, { name: 'gpu-c', context: 'c' }] },
        { KUBECONFIG: both },
      );
      const problems = problemsOf(() => loadClusterKubeConfigs(config));
      expect(problems).toHaveLength(2);
      expect(problems[0]).toMatch(/^clusters\[0\]\.kubeconfig: cannot read .*missing\.yaml \(ENOENT\)/);
      expect(problems[1]).toBe(`clusters[1].context: "c" is not a context in KUBECONFIG ${both} (it has: a, b)`);
    });
  });
});
