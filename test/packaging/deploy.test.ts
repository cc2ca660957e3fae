/**
 * Renders deploy/ with the real kubectl (kustomize) and checks what a cluster would receive:
 * least-privilege RBAC, the probes, the restricted securityContext, and that the Secret, the
 * volume and the config all line up with what the bot reads.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parse, parseAllDocuments } from 'yaml';
import { RUNAI_GROUP, WORKLOAD_PLURALS } from '../../src/cluster/kinds.js';
import { parseConfig } from '../../src/config.js';

const REPO = fileURLToPath(new URL('../../', import.meta.url));
const NAMESPACE = 'runai-slack-bot';
const STORE_DIR = '/var/lib/runai-slack-bot';
const ARCHIVE_DIR = '/var/lib/runai-slack-bot-archive';
const TOKENS_SECRET = 'runai-slack-bot-tokens';

/** Exactly what the bot reads; anything more in the ClusterRole is a finding. */
const EXPECTED_RULES = [
  // Every kind the watcher may watch, so a cluster serving one of them never answers 403.
  { apiGroups: [RUNAI_GROUP], resources: [...WORKLOAD_PLURALS], verbs: ['get', 'list', 'watch'] },
  { apiGroups: ['scheduling.run.ai'], resources: ['podgroups'], verbs: ['get', 'list', 'watch'] },
  { apiGroups: [''], resources: ['pods', 'events', 'namespaces'], verbs: ['get', 'list', 'watch'] },
  { apiGroups: [''], resources: ['pods/log'], verbs: ['get'] },
];

// Rendered manifests are loosely typed YAML; the assertions below say what each field must be.
type K8sObject = { apiVersion: string; kind: string; metadata: { name: string; namespace?: string; [k: string]: any }; [k: string]: any };

const kubectlAvailable = spawnSync('kubectl', ['version', '--client'], { stdio: 'ignore' }).status === 0;
if (!kubectlAvailable) {
  console.warn('test/packaging/deploy.test.ts: kubectl is not on PATH, so deploy/ is not rendered and its checks are skipped');
}
const describeWithKubectl = kubectlAvailable ? describe : describe.skip;

function render(): K8sObject[] {
  const output = execFileSync('kubectl', ['kustomize', 'deploy/'], { cwd: REPO, encoding: 'utf8' });
  return parseAllDocuments(output).map((doc) => {
    if (doc.errors.length) throw doc.errors[0];
    return doc.toJS() as K8sObject;
  });
}

describeWithKubectl('deploy/ rendered by kubectl kustomize', () => {
  let objects: K8sObject[];
  let pod: K8sObject;
  let container: K8sObject;

  /** The one rendered object of a kind (fails when there are none or several). */
  const one = (kind: string): K8sObject => {
    const found = objects.filter((o) => o.kind === kind);
    expect(found).toHaveLength(1);
    return found[0];
  };

  beforeAll(() => {
    objects = render();
    pod = one('Deployment').spec.template.spec;
    expect(pod.containers).toHaveLength(1);
    container = pod.containers[0];
  });

  const volumeMountedAt = (path: string) => {
    const mount = container.volumeMounts.find((m: K8sObject) => m.mountPath === path);
    expect(mount).toBeDefined();
    return { mount, volume: pod.volumes.find((v: K8sObject) => v.name === mount.name) };
  };

  it('contains the namespace, identity, RBAC, config, storage, workload and service, and no Secret', () => {
    expect(objects.map((o) => o.kind).sort()).toEqual(
      ['ClusterRole', 'ClusterRoleBinding', 'ConfigMap', 'Deployment', 'Namespace', 'PersistentVolumeClaim', 'PersistentVolumeClaim', 'Service', 'ServiceAccount'].sort(),
    );
    for (const o of objects.filter((o) => !['Namespace', 'ClusterRole', 'ClusterRoleBinding'].includes(o.kind))) {
      expect(`${o.kind}/${o.metadata.namespace}`).toBe(`${o.kind}/${NAMESPACE}`);
    }
    expect(one('Namespace').metadata.name).toBe(NAMESPACE);
    expect(one('Namespace').metadata.labels['pod-security.kubernetes.io/enforce']).toBe('restricted');
  });

  it('grants exactly get/list/watch on the watched workload kinds, podgroups, pods, events and namespaces, and get on pods/log', () => {
    expect(one('ClusterRole').rules).toEqual(EXPECTED_RULES);
  });

  it('grants no wildcard, no secrets and no write verb', () => {
    const rules: K8sObject[] = one('ClusterRole').rules;
    for (const rule of rules) {
      expect([...rule.apiGroups, ...rule.resources, ...rule.verbs]).not.toContain('*');
      expect(rule.resources).not.toContain('secrets');
      expect(rule.nonResourceURLs).toBeUndefined();
      expect(rule.resourceNames).toBeUndefined();
      for (const verb of rule.verbs) expect(['get', 'list', 'watch']).toContain(verb);
    }
    expect(rules.find((r) => r.resources.includes('pods/log'))!.verbs).toEqual(['get']);
  });

  it('binds the ClusterRole to the ServiceAccount the pod runs as', () => {
    const binding = one('ClusterRoleBinding');
    const account = one('ServiceAccount');
    expect(binding.roleRef).toEqual({ apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: one('ClusterRole').metadata.name });
    expect(binding.subjects).toEqual([{ kind: 'ServiceAccount', name: account.metadata.name, namespace: NAMESPACE }]);
    expect(pod.serviceAccountName).toBe(account.metadata.name);
    expect(pod.automountServiceAccountToken).toBe(true);
  });

  it('runs one pod at a time, replaced by Recreate, from the tagged image', () => {
    const deployment = one('Deployment');
    expect(deployment.spec.replicas).toBe(1);
    expect(deployment.spec.strategy).toEqual({ type: 'Recreate' });
    expect(container.image).toBe('runai-slack-bot:0.1.0');
    expect(container.args).toEqual(['start', '--config', '/etc/runai-slack-bot/config.yml']);
  });

  it('probes /healthz for liveness and /readyz for readiness on the named port 3000', () => {
    expect(container.ports).toEqual([{ name: 'http', containerPort: 3000, protocol: 'TCP' }]);
    expect(container.livenessProbe.httpGet).toEqual({ path: '/healthz', port: 'http' });
    expect(container.readinessProbe.httpGet).toEqual({ path: '/readyz', port: 'http' });
  });

  it('runs under a restricted securityContext as uid 10001 with a read-only root filesystem', () => {
    expect(pod.securityContext).toMatchObject({
      runAsNonRoot: true,
      runAsUser: 10001,
      fsGroup: 10001,
      seccompProfile: { type: 'RuntimeDefault' },
    });
    expect(container.securityContext).toMatchObject({
      allowPrivilegeEscalation: false,
      readOnlyRootFilesystem: true,
      capabilities: { drop: ['ALL'] },
    });
    expect(container.securityContext.capabilities.add).toBeUndefined();
    expect(container.securityContext.privileged).toBeUndefined();
  });

  it('requests 100m CPU and 128Mi and is limited to 256Mi of memory', () => {
    expect(container.resources.requests).toEqual({ cpu: '100m', memory: '128Mi' });
    expect(container.resources.limits.memory).toBe('256Mi');
  });

  it('reads the three Slack secrets from the tokens Secret, the signing secret optional', () => {
    const fromSecret = Object.fromEntries(
      container.env.filter((e: K8sObject) => e.valueFrom?.secretKeyRef).map((e: K8sObject) => [e.name, e.valueFrom.secretKeyRef]),
    );
    expect(fromSecret).toEqual({
      SLACK_BOT_TOKEN: { name: TOKENS_SECRET, key: 'SLACK_BOT_TOKEN' },
      SLACK_APP_TOKEN: { name: TOKENS_SECRET, key: 'SLACK_APP_TOKEN' },
      SLACK_SIGNING_SECRET: { name: TOKENS_SECRET, key: 'SLACK_SIGNING_SECRET', optional: true },
    });
    for (const e of container.env) expect(e.value ?? '').not.toMatch(/xox[bpa]-|xapp-/);
  });

  it('ships an example Secret outside the kustomization with the same name and keys', () => {
    const example = parse(readFileSync(`${REPO}deploy/secret.example.yaml`, 'utf8')) as K8sObject;
    expect(example).toMatchObject({ kind: 'Secret', metadata: { name: TOKENS_SECRET, namespace: NAMESPACE } });
    expect(Object.keys(example.stringData).sort()).toEqual(['SLACK_APP_TOKEN', 'SLACK_BOT_TOKEN', 'SLACK_SIGNING_SECRET']);
    expect(readFileSync(`${REPO}deploy/kustomization.yaml`, 'utf8')).not.toMatch(/^\s*-\s*secret\.example\.yaml/m);
  });

  const claimMountedAt = (path: string) => {
    const { mount, volume } = volumeMountedAt(path);
    expect(mount.readOnly).toBeUndefined();
    const claim = objects.find((o) => o.kind === 'PersistentVolumeClaim' && o.metadata.name === volume.persistentVolumeClaim?.claimName);
    expect(claim).toBeDefined();
    expect(claim!.spec.accessModes).toEqual(['ReadWriteOnce']);
    return claim!;
  };

  it('mounts a 1Gi ReadWriteOnce claim at the store directory', () => {
    expect(claimMountedAt(STORE_DIR).spec.resources.requests.storage).toBe('1Gi');
  });

  it('keeps the log archive on a claim of its own, bigger than the archive may grow', () => {
    const claim = claimMountedAt(ARCHIVE_DIR);
    expect(claim.metadata.name).not.toBe(claimMountedAt(STORE_DIR).metadata.name);
    expect(claim.spec.resources.requests.storage).toBe('10Gi');
    const config = parseConfig(parse(one('ConfigMap').data['config.yml']), {});
    expect(config.archive!.retention).toBe(30 * 86_400_000);
    expect(config.archive!.maxTotalBytes).toBeLessThan(10 * 1024 ** 3);
  });

  it('leaves only the store, the archive and an emptyDir /tmp writable', () => {
    const writable = container.volumeMounts.filter((m: K8sObject) => !m.readOnly).map((m: K8sObject) => m.mountPath);
    expect(writable.sort()).toEqual(['/tmp', STORE_DIR, ARCHIVE_DIR].sort());
    expect(volumeMountedAt('/tmp').volume.emptyDir).toBeDefined();
  });

  it('mounts the ConfigMap read-only where the start command looks for config.yml', () => {
    const { mount, volume } = volumeMountedAt('/etc/runai-slack-bot');
    expect(mount.readOnly).toBe(true);
    const configMap = one('ConfigMap');
    expect(volume.configMap.name).toBe(configMap.metadata.name);
    expect(Object.keys(configMap.data)).toEqual(['config.yml']);
    expect(container.args).toContain(`${mount.mountPath}/config.yml`);
  });

  it('ships a config that the bot accepts, storing and archiving on their volumes and serving on the probed port', () => {
    const raw = parse(one('ConfigMap').data['config.yml']);
    const config = parseConfig(raw, {});
    expect(config.store.path.startsWith(`${STORE_DIR}/`)).toBe(true);
    expect(config.archive?.dir.startsWith(`${ARCHIVE_DIR}/`)).toBe(true);
    // Socket Mode serves health and metrics on ops.port, HTTP mode on slack.port: both must be
    // the probed container port, so switching slack.mode keeps the probes working.
    expect([config.slack.port, config.ops.port]).toEqual([3000, 3000]);
  });

  it('exposes port 3000 to Prometheus through a ClusterIP Service selecting the pod', () => {
    const service = one('Service');
    expect(service.spec.type).toBe('ClusterIP');
    expect(service.spec.ports).toEqual([{ name: 'http', port: 3000, targetPort: 'http', protocol: 'TCP' }]);
    expect(service.metadata.annotations).toEqual({
      'prometheus.io/scrape': 'true',
      'prometheus.io/port': '3000',
      'prometheus.io/path': '/metrics',
    });
    const podLabels = one('Deployment').spec.template.metadata.labels;
    for (const [key, value] of Object.entries(service.spec.selector)) expect(podLabels[key]).toBe(value);
  });
});
