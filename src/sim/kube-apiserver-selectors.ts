/**
 * Label and field selectors as the API server parses them: `a=b`, `a==b`, `a!=b`, `a`, `!a`,
 * `a in (x,y)`, `a notin (x,y)` for labels; `label=value`, `label!=value` for fields, each label
 * one the kind supports (its ResourceType's fieldLabels; a missing field reads as ""), any other
 * refused with 400 as the real server does.
 */
import type { ResourceType } from './kube-apiserver-resources.js';
import { badRequest } from './kube-apiserver-status.js';

export type ObjectPredicate = (obj: KubeLikeObject) => boolean;

export interface KubeLikeObject {
  metadata?: { labels?: Record<string, string> | null; [key: string]: unknown };
  [key: string]: unknown;
}

const MATCH_ALL: ObjectPredicate = () => true;

/** Splits on commas that are not inside parentheses. */
function splitRequirements(selector: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let current = '';
  for (const ch of selector) {
    if (ch === '(') depth++;
    if (ch === ')') depth--;
    if (ch === ',' && depth === 0) {
      parts.push(current);
      current = '';
    } else {
      current += ch;
    }
  }
  parts.push(current);
  return parts.map((p) => p.trim()).filter((p) => p.length > 0);
}

const SET_REQUIREMENT = /^([^\s!=()]+)\s+(in|notin)\s+\(([^)]*)\)$/;
const EQUALITY_REQUIREMENT = /^([^\s!=()]+)\s*(==|=|!=)\s*([^\s!=(),]*)$/;
const EXISTS_REQUIREMENT = /^(!?)\s*([^\s!=()]+)$/;

function labelRequirement(text: string): ObjectPredicate {
  const labelsOf = (obj: KubeLikeObject) => obj.metadata?.labels ?? {};
  const set = SET_REQUIREMENT.exec(text);
  if (set) {
    const [, key, op, list] = set;
    const values = new Set(list.split(',').map((v) => v.trim()));
    return op === 'in'
      ? (obj) => key in labelsOf(obj) && values.has(labelsOf(obj)[key])
      : (obj) => !(key in labelsOf(obj)) || !values.has(labelsOf(obj)[key]);
  }
  const equality = EQUALITY_REQUIREMENT.exec(text);
  if (equality) {
    const [, key, op, value] = equality;
    return op === '!='
      ? (obj) => labelsOf(obj)[key] !== value
      : (obj) => key in labelsOf(obj) && labelsOf(obj)[key] === value;
  }
  const exists = EXISTS_REQUIREMENT.exec(text);
  if (exists) {
    const [, not, key] = exists;
    return not ? (obj) => !(key in labelsOf(obj)) : (obj) => key in labelsOf(obj);
  }
  throw badRequest(`unable to parse requirement: invalid label selector: "${text}"`);
}

function allOf(predicates: ObjectPredicate[]): ObjectPredicate {
  if (predicates.length === 0) return MATCH_ALL;
  return (obj) => predicates.every((p) => p(obj));
}

export function parseLabelSelector(selector: string | undefined): ObjectPredicate {
  if (!selector) return MATCH_ALL;
  return allOf(splitRequirements(selector).map(labelRequirement));
}

/** The value of a dotted path, as a field selector compares it (missing = ""). */
export function fieldValue(obj: unknown, path: string): string {
  let value: unknown = obj;
  for (const key of path.split('.')) {
    if (value === null || typeof value !== 'object') return '';
    value = (value as Record<string, unknown>)[key];
  }
  if (value === undefined || value === null) return '';
  return typeof value === 'object' ? JSON.stringify(value) : String(value);
}

const FIELD_REQUIREMENT = /^([A-Za-z0-9_.]+)\s*(==|=|!=)\s*(.*)$/;

/** The path a field label reads, or a 400 when the kind does not support the label. */
function fieldPath(label: string, type: ResourceType | undefined): string {
  if (!type) return label;
  const supported = label === 'metadata.name' || (label === 'metadata.namespace' && type.namespaced) || type.fieldLabels.includes(label);
  if (supported) return type.fieldPaths?.[label] ?? label;
  throw badRequest(type.unknownField === 'meta'
    ? `"${label}" is not a known field selector: only "metadata.name", "metadata.namespace"`
    : `field label not supported: ${label}`);
}

function fieldRequirement(text: string, type: ResourceType | undefined): ObjectPredicate {
  const match = FIELD_REQUIREMENT.exec(text);
  if (!match) throw badRequest(`invalid selector: '${text}'; can't understand '${text}'`);
  const [, label, op, value] = match;
  const path = fieldPath(label, type);
  return op === '!=' ? (obj) => fieldValue(obj, path) !== value : (obj) => fieldValue(obj, path) === value;
}

/** `type`: the kind listed or watched, whose field labels alone are accepted (undefined: any dotted path, for tests of the parser). */
export function parseFieldSelector(selector: string | undefined, type?: ResourceType): ObjectPredicate {
  if (!selector) return MATCH_ALL;
  return allOf(selector.split(',').map((p) => p.trim()).filter(Boolean).map((p) => fieldRequirement(p, type)));
}
