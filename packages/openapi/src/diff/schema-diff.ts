import { CODE_CHECKS_NOTE } from '../schemas/components.js';
import { isJsonObject, type Json, type JsonObject, SCHEMA_REF_PREFIX } from '../schemas/json-schema.js';
import { type ChangeRuleName, type ChangeSeverity, classify, type Direction } from './change-rules.js';

export type { ChangeSeverity, Direction } from './change-rules.js';

/** One difference inside a schema, relative to where the walk started. */
export interface SchemaChange {
  /** `lines[].shipmentInfo`, or `` for the schema itself. */
  readonly path: string;
  readonly change: string;
  /** The rule of `CHANGE_RULES` that classified it. */
  readonly rule: ChangeRuleName;
  readonly severity: ChangeSeverity;
}

/** Resolves `$ref`s to schema components within one document. */
export type Resolver = (schema: Json | undefined) => JsonObject | undefined;

/** A resolver over `document`'s components; follows chains of `$ref`, stops at a loop. */
export function resolverFor(document: JsonObject): Resolver {
  const components = isJsonObject(document.components) ? document.components : {};
  const schemas = isJsonObject(components.schemas) ? components.schemas : {};
  return (schema) => {
    let current = schema;
    for (let hops = 0; isJsonObject(current) && typeof current.$ref === 'string' && hops < 32; hops++) {
      const ref: string = current.$ref;
      current = ref.startsWith(SCHEMA_REF_PREFIX) ? schemas[ref.slice(SCHEMA_REF_PREFIX.length)] : undefined;
    }
    return isJsonObject(current) ? current : undefined;
  };
}

const refName = (schema: Json | undefined): string | undefined =>
  isJsonObject(schema) && typeof schema.$ref === 'string' ? schema.$ref.split('/').pop() : undefined;

const isNull = (schema: JsonObject) => schema.type === 'null';
const isNever = (schema: JsonObject) => isJsonObject(schema.not) && Object.keys(schema.not).length === 0;
const isAny = (schema: JsonObject) =>
  Object.keys(schema).filter((key) => key !== 'description' && key !== 'title').length === 0;

interface Branch {
  readonly key: string;
  readonly label: string;
  readonly schema: Json;
}

/** A label for an alternative: its component name, or its type (an object by its first fields). */
function branchLabel(raw: Json, schema: JsonObject): string {
  const name = refName(raw);
  if (name) return name;
  if (schema.const !== undefined) return JSON.stringify(schema.const);
  if (isJsonObject(schema.properties)) {
    const keys = Object.keys(schema.properties);
    return `object {${keys.slice(0, 4).join(', ')}${keys.length > 4 ? ', …' : ''}}`;
  }
  return typeLabel(schema);
}

/** What pairs an alternative with its counterpart: its component, its constant, or its type. */
function branchKey(raw: Json, schema: JsonObject, label: string): string {
  if (refName(raw)) return `ref:${label}`;
  if (schema.const !== undefined) return `const:${label}`;
  return typeLabel(schema);
}

/** A schema split into "may be null" and its alternatives (one for a plain schema). */
function alternatives(raw: Json, resolve: Resolver): { nullable: boolean; branches: Branch[] } {
  const schema = resolve(raw);
  if (!schema) return { nullable: false, branches: [] };
  const union = Array.isArray(schema.anyOf)
    ? schema.anyOf
    : Array.isArray(schema.oneOf)
      ? schema.oneOf
      : undefined;
  if (union) {
    let nullable = false;
    const branches: Branch[] = [];
    for (const item of union) {
      const resolved = resolve(item);
      if (!resolved) continue;
      if (isNull(resolved)) {
        nullable = true;
        continue;
      }
      const inner = alternatives(item, resolve);
      nullable ||= inner.nullable;
      branches.push(...inner.branches);
    }
    return { nullable, branches: numbered(branches) };
  }
  if (Array.isArray(schema.type) && schema.type.includes('null')) {
    const types = schema.type.filter((type) => type !== 'null');
    const rest: JsonObject = { ...schema, type: types.length === 1 ? (types[0] as Json) : types };
    const label = branchLabel(raw, rest);
    return {
      nullable: true,
      branches: [{ key: branchKey(raw, rest, label), label, schema: rest }],
    };
  }
  const label = branchLabel(raw, schema);
  return {
    nullable: false,
    branches: [{ key: branchKey(raw, schema, label), label, schema: raw }],
  };
}

/** Makes keys unique (`string`, `string#2`) so two alternatives of one type are told apart by position. */
function numbered(branches: Branch[]): Branch[] {
  const counts = new Map<string, number>();
  return branches.map((branch) => {
    const n = (counts.get(branch.key) ?? 0) + 1;
    counts.set(branch.key, n);
    return n === 1 ? branch : { ...branch, key: `${branch.key}#${n}` };
  });
}

function typeLabel(schema: JsonObject): string {
  if (isNever(schema)) return 'nothing (must be absent)';
  if (Array.isArray(schema.type)) return schema.type.join(' or ');
  if (typeof schema.type === 'string') return schema.type;
  if (Array.isArray(schema.enum)) return 'enumeration';
  if (isJsonObject(schema.properties)) return 'object';
  if (schema.items !== undefined) return 'array';
  return isAny(schema) ? 'any value' : 'schema';
}

/** The JSON types a schema names, `null` aside (nullability is compared on its own); none without `type`. */
function typesOf(schema: JsonObject): Set<string> | undefined {
  const type = schema.type;
  const list = typeof type === 'string' ? [type] : Array.isArray(type) ? type : undefined;
  return list && new Set(list.filter((item): item is string => typeof item === 'string' && item !== 'null'));
}

/** True when every value of the `small` types is one of the `big` types (an integer is a number). */
const covers = (big: Set<string>, small: Set<string>) =>
  [...small].every((type) => big.has(type) || (type === 'integer' && big.has('number')));

/** The part of a description naming the checks the client makes in code, or ''. */
function codeChecks(description: Json | undefined): string {
  if (typeof description !== 'string') return '';
  const at = description.indexOf(CODE_CHECKS_NOTE);
  return at < 0 ? '' : description.slice(at + CODE_CHECKS_NOTE.length).replace(/\.$/, '');
}

const LOWER_BOUNDS = ['minLength', 'minimum', 'exclusiveMinimum', 'minItems', 'minProperties'] as const;
const UPPER_BOUNDS = ['maxLength', 'maximum', 'exclusiveMaximum', 'maxItems', 'maxProperties'] as const;
const EXACT = ['pattern', 'format', 'const'] as const;

const show = (value: Json | undefined) => (value === undefined ? 'none' : JSON.stringify(value));

const join = (path: string, key: string) => (path ? `${path}.${key}` : key);

/**
 * Every difference between two schemas of the same place, each classified by a rule of
 * `CHANGE_RULES` for the side it sits on: for a request (the client sends) a narrower schema
 * breaks it and a wider one does not; for a response (the client reads) the other way round.
 * Renamed fields show as one removed and one added.
 */
export function diffSchemas(
  before: Json | undefined,
  after: Json | undefined,
  direction: Direction,
  resolveBefore: Resolver,
  resolveAfter: Resolver,
): SchemaChange[] {
  const changes: SchemaChange[] = [];
  const visiting = new Set<string>();
  const report = (path: string, change: string, rule: ChangeRuleName) => {
    changes.push({ path, change, rule, severity: classify(rule, direction) });
  };

  const walk = (rawBefore: Json | undefined, rawAfter: Json | undefined, path: string): void => {
    // Only references can loop: a pair of components already being compared further up is
    // not entered again (a recursive schema would otherwise never end).
    const pair =
      refName(rawBefore) || refName(rawAfter)
        ? `${refName(rawBefore) ?? ''}|${refName(rawAfter) ?? ''}`
        : undefined;
    if (pair !== undefined && visiting.has(pair)) return;
    if (pair !== undefined) visiting.add(pair);
    try {
      compare(rawBefore, rawAfter, path);
    } finally {
      if (pair !== undefined) visiting.delete(pair);
    }
  };

  const compareDescriptions = (a: JsonObject, b: JsonObject, path: string) => {
    if (a.description === b.description) return;
    const [checksBefore, checksAfter] = [codeChecks(a.description), codeChecks(b.description)];
    if (checksBefore !== checksAfter) {
      const rule: ChangeRuleName = !checksBefore
        ? 'constraint-added'
        : !checksAfter
          ? 'constraint-removed'
          : 'code-check-changed';
      const text = (checks: string) => (checks ? JSON.stringify(checks) : 'none');
      report(path, `checked by the client: ${text(checksBefore)} → ${text(checksAfter)}`, rule);
    } else if (typeof a.description === 'string' && typeof b.description === 'string') {
      report(path, `description: ${show(a.description)} → ${show(b.description)}`, 'description-changed');
    }
  };

  const compare = (rawBefore: Json | undefined, rawAfter: Json | undefined, path: string): void => {
    const a = resolveBefore(rawBefore);
    const b = resolveAfter(rawAfter);
    if (!a || !b) return;
    compareDescriptions(a, b, path);
    if (isNever(a) !== isNever(b)) {
      if (isNever(a)) report(path, 'now accepted (was: must be absent)', 'no-longer-forbidden');
      else report(path, 'must now be absent', 'now-forbidden');
      return;
    }
    if (isAny(a) !== isAny(b)) {
      if (isAny(b)) report(path, `any value now (was ${typeLabel(a)})`, 'any-value-allowed');
      else report(path, `now ${typeLabel(b)} (was any value)`, 'any-value-refused');
      return;
    }
    const left = alternatives(rawBefore as Json, resolveBefore);
    const right = alternatives(rawAfter as Json, resolveAfter);
    if (left.nullable !== right.nullable) {
      if (right.nullable) report(path, 'may now be null', 'null-allowed');
      else report(path, 'may no longer be null', 'null-refused');
    }
    if (left.branches.length === 1 && right.branches.length === 1) {
      const [x, y] = [left.branches[0], right.branches[0]] as [Branch, Branch];
      const rx = resolveBefore(x.schema);
      const ry = resolveAfter(y.schema);
      if (rx && ry && compareTypes(rx, ry, path)) compareSame(rx, ry, path);
      return;
    }
    const rightKeys = new Map(right.branches.map((branch) => [branch.key, branch]));
    const leftKeys = new Map(left.branches.map((branch) => [branch.key, branch]));
    for (const branch of left.branches) {
      const match = rightKeys.get(branch.key);
      if (match) walk(branch.schema, match.schema, path);
      else report(path, `no longer ${branch.label}`, 'alternative-removed');
    }
    for (const branch of right.branches) {
      if (!leftKeys.has(branch.key)) report(path, `may now be ${branch.label}`, 'alternative-added');
    }
  };

  /** Reports a change of type; true when the two are still comparable field by field. */
  const compareTypes = (a: JsonObject, b: JsonObject, path: string): boolean => {
    const [before, after] = [typesOf(a), typesOf(b)];
    const change = `type ${typeLabel(a)} → ${typeLabel(b)}`;
    if (before && after) {
      const [wider, narrower] = [covers(after, before), covers(before, after)];
      if (wider && narrower) return true;
      if (wider) report(path, change, 'type-widened');
      else if (narrower) report(path, change, 'type-narrowed');
      else report(path, change, 'type-changed');
      return wider || narrower;
    }
    if (typeLabel(a) === typeLabel(b)) return true;
    report(path, change, 'type-changed');
    return false;
  };

  const compareSame = (a: JsonObject, b: JsonObject, path: string): void => {
    compareEnums(a, b, path);
    compareConstraints(a, b, path);
    if (isJsonObject(a.properties) || isJsonObject(b.properties)) compareObjects(a, b, path);
    if (a.items !== undefined || b.items !== undefined) walk(a.items, b.items, `${path}[]`);
  };

  const compareEnums = (a: JsonObject, b: JsonObject, path: string) => {
    if (!Array.isArray(a.enum) || !Array.isArray(b.enum)) {
      if (Array.isArray(b.enum)) report(path, `now one of ${show(b.enum)}`, 'constraint-added');
      else if (Array.isArray(a.enum))
        report(path, `no longer limited to ${show(a.enum)}`, 'constraint-removed');
      return;
    }
    const before = new Set(a.enum.map((value) => JSON.stringify(value)));
    const after = new Set(b.enum.map((value) => JSON.stringify(value)));
    for (const value of after) {
      if (!before.has(value)) report(path, `new value ${value}`, 'enum-value-added');
    }
    for (const value of before) {
      if (!after.has(value)) report(path, `value ${value} removed`, 'enum-value-removed');
    }
  };

  const compareConstraints = (a: JsonObject, b: JsonObject, path: string) => {
    const bound = (key: string, tighter: boolean) =>
      report(
        path,
        `${key} ${show(a[key])} → ${show(b[key])}`,
        tighter ? 'bound-tightened' : 'bound-loosened',
      );
    for (const key of LOWER_BOUNDS) {
      if (a[key] === b[key]) continue;
      bound(key, b[key] !== undefined && (a[key] === undefined || Number(b[key]) > Number(a[key])));
    }
    for (const key of UPPER_BOUNDS) {
      if (a[key] === b[key]) continue;
      bound(key, b[key] !== undefined && (a[key] === undefined || Number(b[key]) < Number(a[key])));
    }
    for (const key of EXACT) {
      if (JSON.stringify(a[key]) === JSON.stringify(b[key])) continue;
      const rule: ChangeRuleName =
        a[key] === undefined
          ? 'constraint-added'
          : b[key] === undefined
            ? 'constraint-removed'
            : 'constraint-changed';
      report(path, `${key} ${show(a[key])} → ${show(b[key])}`, rule);
    }
  };

  const compareObjects = (a: JsonObject, b: JsonObject, path: string) => {
    const before = isJsonObject(a.properties) ? a.properties : {};
    const after = isJsonObject(b.properties) ? b.properties : {};
    const requiredBefore = new Set(Array.isArray(a.required) ? a.required : []);
    const requiredAfter = new Set(Array.isArray(b.required) ? b.required : []);
    const sends = direction === 'request';
    for (const key of Object.keys(before)) {
      const at = join(path, key);
      if (!(key in after)) {
        report(at, sends ? 'removed: no longer accepted' : 'removed', 'field-removed');
        continue;
      }
      const wasRequired = requiredBefore.has(key);
      const isRequired = requiredAfter.has(key);
      if (wasRequired && !isRequired) {
        report(at, sends ? 'now optional' : 'may now be absent', 'field-now-optional');
      } else if (!wasRequired && isRequired) {
        report(at, sends ? 'now required' : 'now always present', 'field-now-required');
      }
      walk(before[key], after[key], at);
    }
    for (const key of Object.keys(after)) {
      if (key in before) continue;
      const required = requiredAfter.has(key);
      report(
        join(path, key),
        `added${required ? ' (required)' : ' (optional)'}`,
        required ? 'field-added-required' : 'field-added-optional',
      );
    }
    const closedBefore = a.additionalProperties === false;
    const closedAfter = b.additionalProperties === false;
    if (closedBefore !== closedAfter) {
      if (closedAfter) report(path, 'other fields no longer allowed', 'other-fields-refused');
      else report(path, 'other fields now allowed', 'other-fields-allowed');
    }
  };

  walk(before, after, '');
  return changes;
}
