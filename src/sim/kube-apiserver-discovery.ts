/**
 * Legacy (non-aggregated) discovery documents built from the resource table. kubectl asks for
 * aggregated discovery first and falls back to these when the server answers plain JSON.
 */
import { RESOURCE_TYPES, groupVersionOf, servedGroups, type ResourceType } from './kube-apiserver-resources.js';

interface GroupVersionForDiscovery { groupVersion: string; version: string }

function versionEntry(group: string, version: string): GroupVersionForDiscovery {
  return { groupVersion: `${group}/${version}`, version };
}

export function apiVersions(serverAddress: string): object {
  return {
    kind: 'APIVersions',
    versions: ['v1'],
    serverAddressByClientCIDRs: [{ clientCIDR: '0.0.0.0/0', serverAddress }],
  };
}

function apiGroup(name: string, versions: string[], preferred: string): object {
  return {
    name,
    versions: versions.map((v) => versionEntry(name, v)),
    preferredVersion: versionEntry(name, preferred),
  };
}

export function apiGroupList(): object {
  return {
    kind: 'APIGroupList',
    apiVersion: 'v1',
    groups: servedGroups().map((g) => apiGroup(g.name, g.versions, g.preferred)),
  };
}

/** The APIGroup document of one group, or undefined when the group is not served. */
export function apiGroupDocument(name: string): object | undefined {
  const group = servedGroups().find((g) => g.name === name);
  return group && { kind: 'APIGroup', apiVersion: 'v1', ...apiGroup(group.name, group.versions, group.preferred) };
}

function resourceEntries(type: ResourceType): object[] {
  const main = {
    name: type.plural,
    singularName: type.singular,
    namespaced: type.namespaced,
    kind: type.kind,
    verbs: type.verbs,
    ...(type.shortNames.length ? { shortNames: type.shortNames } : {}),
  };
  const subs = type.subresources.map((sub) => ({
    name: `${type.plural}/${sub}`,
    singularName: '',
    namespaced: type.namespaced,
    kind: type.kind,
    verbs: sub === 'log' ? ['get'] : ['get', 'patch', 'update'],
  }));
  return [main, ...subs];
}

/** The APIResourceList of one group version (group '' = core), or undefined when not served. */
export function apiResourceList(group: string, version: string): object | undefined {
  const types = RESOURCE_TYPES.filter((t) => t.group === group && t.version === version);
  if (types.length === 0) return undefined;
  return {
    kind: 'APIResourceList',
    apiVersion: 'v1',
    groupVersion: groupVersionOf(types[0]),
    resources: types.flatMap(resourceEntries),
  };
}

export const VERSION_INFO = {
  major: '1',
  minor: '32',
  gitVersion: 'v1.32.0-runai-slack-bot-sim',
  gitCommit: '0000000000000000000000000000000000000000',
  gitTreeState: 'clean',
  buildDate: '2025-01-01T00:00:00Z',
  goVersion: 'go1.23.0',
  compiler: 'gc',
  platform: 'linux/amd64',
};
