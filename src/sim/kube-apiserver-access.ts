/**
 * Authorization for the simulated cluster: everything is allowed except what a deny rule
 * matches. The same rules answer SelfSubjectAccessReviews and refuse real requests with 403, so
 * a permission check and the request it predicts agree.
 */

export interface ResourceAttributes {
  verb: string;
  group?: string;
  resource?: string;
  subresource?: string;
  namespace?: string;
  name?: string;
}

/** A rule matches when every field it sets equals the request's ('*' or absent = any). */
export type DenyRule = Partial<ResourceAttributes>;

function fieldMatches(rule: string | undefined, value: string | undefined): boolean {
  return rule === undefined || rule === '*' || rule === (value ?? '');
}

export function isDenied(rules: readonly DenyRule[], attrs: ResourceAttributes): boolean {
  return rules.some((rule) =>
    (Object.keys(rule) as Array<keyof ResourceAttributes>).every((k) => fieldMatches(rule[k], attrs[k])));
}

export function forbiddenMessage(attrs: ResourceAttributes, user: string): string {
  const resource = attrs.group ? `${attrs.resource}.${attrs.group}` : attrs.resource;
  const sub = attrs.subresource ? `/${attrs.subresource}` : '';
  const name = attrs.name ? ` "${attrs.name}"` : '';
  const scope = attrs.namespace ? ` in the namespace "${attrs.namespace}"` : ' at the cluster scope';
  return `${resource}${sub}${name} is forbidden: User "${user}" cannot ${attrs.verb} resource "${attrs.resource}${sub}" in API group "${attrs.group ?? ''}"${scope}`;
}
