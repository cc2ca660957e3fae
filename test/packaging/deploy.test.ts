/**
 * Renders deploy/ with the real kubectl (kustomize) and checks what a cluster would receive:
 * least-privilege RBAC (the verbs the code calls, no more), the probes on the ops port, a
 * NetworkPolicy, the restricted securityContext, and that the Secret, the volume and the
 * config all line up with what the bot reads.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parse, parseAllDocuments } from 'yaml';
import { RUNAI_GROUP, WORKLOAD_PLURALS } from '../../src/cluster/kinds.js';
import { OWNER_PLURALS } from '../../src/cluster/ownership.js';
import { haLease, parseConfig } from '../../src/config.js';
import { describeWithKubectl } from '../helpers/kubectl.js';

const REPO = fileURLToPath(new URL('../../', import.meta.url));
const NAMESPACE = 'runai-slack-bot';
const STORE_DIR = '/var/lib/runai-slack-bot';
const ARCHIVE_DIR = '/var/lib/runai-slack-bot-archive';
const TOKENS_SECRET = 'runai-slack-bot-tokens';

/**
 * Exactly the calls the bot makes; anything more in the ClusterRole is a finding. Workloads:
 * list + watch (src/cluster/watcher.ts); podgroups, pods, events, namespaces: list, the
 * controllers between a pod and its workload and pods/log: get (src/cluster/reader.ts); selfsubjectaccessreviews: create (src/check/probes.ts).
 */
const EXPECTED_RULES = [
  // Every kind the watcher may watch, so a cluster serving one of them never answers 403.
  { apiGroups: [RUNAI_GROUP], resources: [...WORKLOAD_PLURALS], verbs: ['list', 'watch'] },
  { apiGroups: ['scheduling.run.ai'], resources: ['podgroups'], verbs: ['list'] },
  { apiGroups: [''], resources: ['pods', 'events', 'namespaces'], verbs: ['list'] },
  // The owners between a pod and its workload, one rule per API group (src/cluster/reader.ts podsOf).
  ...[...new Set([...OWNER_PLURALS.values()].map((o) => o.group))].map((group) => ({
    apiGroups: [group], resources: [...OWNER_PLURALS.values()].filter((o) => o.group === group).map((o) => o.plural), verbs: ['get'],
  })),
  { apiGroups: [''], resources: ['pods/log'], verbs: ['get'] },
  { apiGroups: ['authorization.k8s.io'], resources: ['selfsubjectaccessreviews'], verbs: ['create'] },
];
const OPS_PORT = 9090;
const SLACK_PORT = 3000;

// Rendered manifests are loosely typed YAML; the assertions below say what each field must be.
type K8sObject = { apiVersion: string; kind: string; metadata: { name: string; namespace?: string; [k: string]: any }; [k: string]: any };

const describeRendered = describeWithKubectl('the checks of deploy/ rendered by kubectl kustomize');

function render(dir = 'deploy/'): K8sObject[] {
  const output = execFileSync('kubectl', ['kustomize', dir], { cwd: REPO, encoding: 'utf8' });
  return parseAllDocuments(output).map((doc) => {
    if (doc.errors.length) throw doc.errors[0];
    return doc.toJS() as K8sObject;
  });
}

describeRendered('deploy/ rendered by kubectl kustomize', () => {
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

  it('contains the namespace, identity, RBAC, config, storage, workload, service and network policy, and no Secret', () => {
    expect(objects.map((o) => o.kind).sort()).toEqual(
      ['ClusterRole', 'ClusterRoleBinding', 'ConfigMap', 'Deployment', 'Namespace', 'NetworkPolicy', 'PersistentVolumeClaim', 'PersistentVolumeClaim', 'Service', 'ServiceAccount'].sort(),
    );
    for (const o of objects.filter((o) => !['Namespace', 'ClusterRole', 'ClusterRoleBinding'].includes(o.kind))) {
      expect(`${o.kind}/${o.metadata.namespace}`).toBe(`${o.kind}/${NAMESPACE}`);
    }
    expect(one('Namespace').metadata.name).toBe(NAMESPACE);
    expect(one('Namespace').metadata.labels['pod-security.kubernetes.io/enforce']).toBe('restricted');
  });

  it('grants exactly the verbs the code calls: list/watch workloads, list podgroups, pods, events and namespaces, get pods/log, create selfsubjectaccessreviews', () => {
    expect(one('ClusterRole').rules).toEqual(EXPECTED_RULES);
  });

  it('grants no wildcard, no secrets and no write verb but asking about its own permissions', () => {
    const rules: K8sObject[] = one('ClusterRole').rules;
    for (const rule of rules) {
      expect([...rule.apiGroups, ...rule.resources, ...rule.verbs]).not.toContain('*');
      expect(rule.resources).not.toContain('secrets');
      expect(rule.nonResourceURLs).toBeUndefined();
      expect(rule.resourceNames).toBeUndefined();
      // The one write verb is asking about the bot's own permissions, for `check`.
      const allowed = rule.resources.includes('selfsubjectaccessreviews') ? ['create'] : ['get', 'list', 'watch'];
      for (const verb of rule.verbs) expect(allowed).toContain(verb);
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

  it('probes /healthz for liveness and /readyz for readiness on the ops port, not the Slack port', () => {
    expect(container.ports).toEqual([
      { name: 'ops', containerPort: OPS_PORT, protocol: 'TCP' },
      { name: 'slack', containerPort: SLACK_PORT, protocol: 'TCP' },
    ]);
    expect(container.livenessProbe.httpGet).toEqual({ path: '/healthz', port: 'ops' });
    expect(container.readinessProbe.httpGet).toEqual({ path: '/readyz', port: 'ops' });
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

  it('ships a config that the bot accepts, storing and archiving on their volumes and serving ops on the probed port', () => {
    const raw = parse(one('ConfigMap').data['config.yml']);
    const config = parseConfig(raw, {});
    expect(config.store.path.startsWith(`${STORE_DIR}/`)).toBe(true);
    expect(config.archive?.dir.startsWith(`${ARCHIVE_DIR}/`)).toBe(true);
    // Both modes serve health and metrics on ops.port, HTTP mode /slack/events on slack.port:
    // switching slack.mode keeps the probes working, and the ops port is never the public one.
    expect([config.slack.port, config.ops.port]).toEqual([SLACK_PORT, OPS_PORT]);
    expect(config.ops.host).toBeUndefined(); // every interface: the kubelet and Prometheus use the pod IP
    expect(config.log.slackDebug).toBe(false);
    expect(() => parseConfig({ ...raw, slack: { ...raw.slack, mode: 'http' } }, {})).not.toThrow();
  });

  it('exposes the ops port to Prometheus and the Slack port for HTTP mode through a ClusterIP Service selecting the pod', () => {
    const service = one('Service');
    expect(service.spec.type).toBe('ClusterIP');
    expect(service.spec.ports).toEqual([
      { name: 'ops', port: OPS_PORT, targetPort: 'ops', protocol: 'TCP' },
      { name: 'slack', port: SLACK_PORT, targetPort: 'slack', protocol: 'TCP' },
    ]);
    expect(service.metadata.annotations).toEqual({
      'prometheus.io/scrape': 'true',
      'prometheus.io/port': String(OPS_PORT),
      'prometheus.io/path': '/metrics',
    });
    const podLabels = one('Deployment').spec.template.metadata.labels;
    for (const [key, value] of Object.entries(service.spec.selector)) expect(podLabels[key]).toBe(value);
  });

  it('lets in only the ops port from the cluster and the Slack port, and out only DNS and HTTPS (not the metadata endpoint)', () => {
    const policy = one('NetworkPolicy');
    const podLabels = one('Deployment').spec.template.metadata.labels;
    for (const [key, value] of Object.entries(policy.spec.podSelector.matchLabels)) expect(podLabels[key]).toBe(value);
    expect(policy.spec.policyTypes).toEqual(['Ingress', 'Egress']);
    expect(policy.spec.ingress).toEqual([
      { from: [{ namespaceSelector: {} }], ports: [{ port: 'ops', protocol: 'TCP' }] },
      { ports: [{ port: 'slack', protocol: 'TCP' }] },
    ]);
    // Named ports resolve to the container's: the policy follows the Deployment.
    expect(container.ports.map((p: K8sObject) => p.name).sort()).toEqual(['ops', 'slack']);
    const egress: K8sObject[] = policy.spec.egress;
    const ports = egress.flatMap((rule) => rule.ports.map((p: K8sObject) => `${p.port}/${p.protocol}`));
    expect(ports.sort()).toEqual(['443/TCP', '53/TCP', '53/UDP', '6443/TCP']);
    const https = egress.find((rule) => rule.ports.some((p: K8sObject) => p.port === 443))!;
    expect(https.to).toContainEqual({ ipBlock: { cidr: '0.0.0.0/0', except: ['169.254.169.254/32'] } });
    for (const rule of egress) for (const peer of rule.to ?? []) expect(peer.ipBlock?.except ?? ['169.254.169.254/32']).toContain('169.254.169.254/32');
  });
});

/**
 * deploy/ha/: the same bot as two replicas with one sender. Checked: the replicas and their
 * rollout, the disruption budget, the identity and database URL from the pod's environment,
 * leader-election RBAC limited to one Lease in the bot's own namespace, the SQLite volume gone,
 * and a config that the bot accepts with ha on and that names the Lease the Role grants.
 */
describeRendered('deploy/ha/ rendered by kubectl kustomize', () => {
  let objects: K8sObject[];
  let pod: K8sObject;
  let container: K8sObject;
  const one = (kind: string): K8sObject => {
    const found = objects.filter((o) => o.kind === kind);
    expect(found).toHaveLength(1);
    return found[0];
  };
  const env = (name: string) => container.env.find((e: K8sObject) => e.name === name);

  beforeAll(() => {
    objects = render('deploy/ha/');
    pod = one('Deployment').spec.template.spec;
    container = pod.containers[0];
  });

  it('adds a Role, its binding and a PodDisruptionBudget to the base, in the bot namespace, and drops the SQLite claim', () => {
    expect(objects.map((o) => o.kind).sort()).toEqual(
      ['ClusterRole', 'ClusterRoleBinding', 'ConfigMap', 'Deployment', 'Namespace', 'NetworkPolicy', 'PersistentVolumeClaim', 'PodDisruptionBudget', 'Role', 'RoleBinding', 'Service', 'ServiceAccount'].sort(),
    );
    for (const o of objects.filter((o) => !['Namespace', 'ClusterRole', 'ClusterRoleBinding'].includes(o.kind))) {
      expect(`${o.kind}/${o.metadata.namespace}`).toBe(`${o.kind}/${NAMESPACE}`);
    }
    expect(one('PersistentVolumeClaim').metadata.name).toBe('runai-slack-bot-archive');
    expect(container.volumeMounts.map((m: K8sObject) => m.mountPath)).not.toContain(STORE_DIR);
    expect(pod.volumes.map((v: K8sObject) => v.name)).not.toContain('store');
  });

  it('runs two replicas, rolled one new pod at a time with none taken down first', () => {
    const deployment = one('Deployment');
    expect(deployment.spec.replicas).toBe(2);
    expect(deployment.spec.strategy).toEqual({ type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 0, maxSurge: 1 } });
  });

  it('keeps at least one replica through voluntary disruptions', () => {
    const budget = one('PodDisruptionBudget');
    expect(budget.apiVersion).toBe('policy/v1');
    expect(budget.spec.minAvailable).toBe(1);
    const podLabels = one('Deployment').spec.template.metadata.labels;
    for (const [key, value] of Object.entries(budget.spec.selector.matchLabels)) expect(podLabels[key]).toBe(value);
  });

  it('names each replica by its pod and reads the database URL from a Secret, never from the config', () => {
    expect(env('POD_NAME').valueFrom).toEqual({ fieldRef: { fieldPath: 'metadata.name' } });
    expect(env('POD_NAMESPACE').valueFrom).toEqual({ fieldRef: { fieldPath: 'metadata.namespace' } });
    expect(env('DATABASE_URL').valueFrom).toEqual({ secretKeyRef: { name: 'runai-slack-bot-database', key: 'DATABASE_URL' } });
    expect(one('ConfigMap').data['config.yml']).not.toMatch(/postgres(ql)?:\/\//);
    const example = parse(readFileSync(`${REPO}deploy/ha/secret.example.yaml`, 'utf8')) as K8sObject;
    expect(example).toMatchObject({ kind: 'Secret', metadata: { name: 'runai-slack-bot-database', namespace: NAMESPACE } });
    expect(Object.keys(example.stringData)).toEqual(['DATABASE_URL']);
    expect(readFileSync(`${REPO}deploy/ha/kustomization.yaml`, 'utf8')).not.toMatch(/^\s*-\s*secret\.example\.yaml/m);
  });

  it('lets the bot get and update only its own Lease, and create Leases, in its own namespace only', () => {
    const role = one('Role');
    expect(role.rules).toEqual([
      { apiGroups: ['coordination.k8s.io'], resources: ['leases'], resourceNames: ['runai-slack-bot-leader'], verbs: ['get', 'update'] },
      { apiGroups: ['coordination.k8s.io'], resources: ['leases'], verbs: ['create'] },
    ]);
    const binding = one('RoleBinding');
    expect(binding.roleRef).toEqual({ apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: role.metadata.name });
    expect(binding.subjects).toEqual([{ kind: 'ServiceAccount', name: pod.serviceAccountName, namespace: NAMESPACE }]);
    // The cluster-wide role stays read-only: leases are not in it.
    expect(one('ClusterRole').rules).toEqual(EXPECTED_RULES);
  });

  it('ships a config with ha on that the bot accepts given the pod environment, electing on the Lease the Role names', () => {
    const raw = parse(one('ConfigMap').data['config.yml']);
    const podEnv = { DATABASE_URL: 'postgres://bot:pw@db:5432/bot', POD_NAME: 'runai-slack-bot-abc', POD_NAMESPACE: NAMESPACE };
    const config = parseConfig(raw, podEnv);
    expect(config.ha.enabled).toBe(true);
    expect(haLease(config)).toEqual({ namespace: NAMESPACE, name: one('Role').rules[0].resourceNames[0], leaseDurationMs: 15_000, podName: 'runai-slack-bot-abc' });
    // Without the Secret's URL the bot refuses to start, naming the fix.
    expect(() => parseConfig(raw, { POD_NAMESPACE: NAMESPACE })).toThrow(/ha\.enabled: .*store\.url \(or env DATABASE_URL\)/);
  });

  it('lets the pods reach PostgreSQL on 5432 besides what the base allows', () => {
    const ports = one('NetworkPolicy').spec.egress.flatMap((rule: K8sObject) => rule.ports.map((p: K8sObject) => `${p.port}/${p.protocol}`));
    expect(ports.sort()).toEqual(['443/TCP', '53/TCP', '53/UDP', '5432/TCP', '6443/TCP']);
  });

  it('mounts the archive from a ReadWriteMany claim, as both replicas may write it', () => {
    const archive = pod.volumes.find((v: K8sObject) => v.name === 'archive');
    const claim = one('PersistentVolumeClaim');
    expect(archive.persistentVolumeClaim.claimName).toBe(claim.metadata.name);
    expect(claim.spec.accessModes).toEqual(['ReadWriteMany']);
  });
});
