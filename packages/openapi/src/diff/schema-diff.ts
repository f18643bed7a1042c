import { CODE_CHECKS_NOTE } from '../document/components.js';
import { isJsonObject, type Json, type JsonObject, SCHEMA_REF_PREFIX } from '../json.js';
import type { ChangeRuleName, Direction } from './change-rules.js';

/** Takes one change at `path` inside a schema (`lines[].shipmentInfo`, or `` for the schema itself). */
export type Report = (path: string, change: string, rule: ChangeRuleName) => void;

/** Resolves `$ref`s to schema components within one document. */
export type Resolver = (schema: Json | undefined) => JsonObject | undefined;

/** A resolver over `document`'s components; follows chains of `$ref`, stops at a loop. */
export function resolverFor(document: JsonObject | undefined): Resolver {
  const components = isJsonObject(document?.components) ? document.components : {};
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

/** The entries of a JSON object (none for anything else), as a map in the object's order. */
export const entriesOf = (value: Json | undefined): Map<string, Json> =>
  new Map(isJsonObject(value) ? Object.entries(value) : []);

/**
 * The keys of two keyed collections as a diff walks them: each key of `before` with its
 * counterpart (undefined when removed), then each key only `after` has (before undefined).
 */
export function paired<T>(before: ReadonlyMap<string, T>, after: ReadonlyMap<string, T>) {
  const kept = [...before].map(([key, value]) => [key, value, after.get(key)] as const);
  const added = [...after].filter(([key]) => !before.has(key));
  return [...kept, ...added.map(([key, value]) => [key, undefined, value] as const)];
}

/** `added (required)` or `added (optional)`, and the rule of that kind for it. */
export const added = <Kind extends 'parameter' | 'body' | 'field'>(kind: Kind, required: boolean) =>
  [
    `added ${required ? '(required)' : '(optional)'}`,
    `${kind}-added-${required ? 'required' : 'optional'}`,
  ] as const;

/** The rule for a check that appears, disappears, or changes into another (`changed`). */
const checkRule = (had: boolean, has: boolean, changed: ChangeRuleName): ChangeRuleName =>
  !had ? 'constraint-added' : !has ? 'constraint-removed' : changed;

const refName = (schema: Json | undefined): string | undefined =>
  isJsonObject(schema) && typeof schema.$ref === 'string' ? schema.$ref.split('/').pop() : undefined;

const isNever = (schema: JsonObject) => isJsonObject(schema.not) && Object.keys(schema.not).length === 0;
const isAny = (schema: JsonObject) =>
  Object.keys(schema).filter((key) => key !== 'description' && key !== 'title').length === 0;

interface Branch {
  /** What pairs an alternative with its counterpart: its component, its constant, or its type. */
  readonly key: string;
  /** Its component name, its constant, or its type (an object by its first fields). */
  readonly label: string;
  readonly schema: Json;
}

function branch(raw: Json, schema: JsonObject): Branch {
  const name = refName(raw);
  if (name) return { key: `ref:${name}`, label: name, schema: raw };
  if (schema.const !== undefined) {
    const label = JSON.stringify(schema.const);
    return { key: `const:${label}`, label, schema: raw };
  }
  const keys = isJsonObject(schema.properties) ? Object.keys(schema.properties) : undefined;
  const label = keys
    ? `object {${keys.slice(0, 4).join(', ')}${keys.length > 4 ? ', …' : ''}}`
    : typeLabel(schema);
  return { key: typeLabel(schema), label, schema: raw };
}

/** A schema split into "may be null" and its alternatives (one for a plain schema). */
function alternatives(raw: Json, resolve: Resolver): { nullable: boolean; branches: Branch[] } {
  const schema = resolve(raw);
  if (!schema) return { nullable: false, branches: [] };
  const union = Array.isArray(schema.anyOf) ? schema.anyOf : schema.oneOf;
  if (Array.isArray(union)) {
    let nullable = false;
    const branches: Branch[] = [];
    for (const item of union) {
      const resolved = resolve(item);
      if (resolved?.type === 'null') nullable = true;
      else if (resolved) {
        const inner = alternatives(item, resolve);
        nullable ||= inner.nullable;
        branches.push(...inner.branches);
      }
    }
    // Keys made unique (`string`, `string#2`): two alternatives of one type are told apart by position.
    const counts = new Map<string, number>();
    const numbered = branches.map((found) => {
      const n = (counts.get(found.key) ?? 0) + 1;
      counts.set(found.key, n);
      return n === 1 ? found : { ...found, key: `${found.key}#${n}` };
    });
    return { nullable, branches: numbered };
  }
  if (Array.isArray(schema.type) && schema.type.includes('null')) {
    const types = schema.type.filter((type) => type !== 'null');
    const rest: JsonObject = { ...schema, type: types.length === 1 ? (types[0] as Json) : types };
    return { nullable: true, branches: [{ ...branch(raw, rest), schema: rest }] };
  }
  return { nullable: false, branches: [branch(raw, schema)] };
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

/** Bounds that a larger value tightens, then bounds that a smaller value tightens. */
const LOWER_BOUNDS = ['minLength', 'minimum', 'exclusiveMinimum', 'minItems', 'minProperties'];
const UPPER_BOUNDS = ['maxLength', 'maximum', 'exclusiveMaximum', 'maxItems', 'maxProperties'];
const EXACT = ['pattern', 'format', 'const'] as const;

const show = (value: Json | undefined) => (value === undefined ? 'none' : JSON.stringify(value));

const join = (path: string, key: string) => (path ? `${path}.${key}` : key);

/**
 * Reports every difference between two schemas of the same place, each by a rule of
 * `CHANGE_RULES`: for a request (the client sends) a narrower schema breaks it and a wider one
 * does not; for a response (the client reads) the other way round. Renamed fields show as one
 * removed and one added.
 */
export function diffSchemas(
  before: Json | undefined,
  after: Json | undefined,
  direction: Direction,
  [resolveBefore, resolveAfter]: readonly [Resolver, Resolver],
  report: Report,
): void {
  const visiting = new Set<string>();

  const walk = (rawBefore: Json | undefined, rawAfter: Json | undefined, path: string): void => {
    // Only references can loop: a pair of components already being compared further up is
    // not entered again (a recursive schema would otherwise never end).
    const pair = `${refName(rawBefore) ?? ''}|${refName(rawAfter) ?? ''}`;
    if (visiting.has(pair)) return;
    if (pair !== '|') visiting.add(pair);
    compare(rawBefore, rawAfter, path);
    visiting.delete(pair);
  };

  const compareDescriptions = (a: JsonObject, b: JsonObject, path: string) => {
    if (a.description === b.description) return;
    const [checksBefore, checksAfter] = [codeChecks(a.description), codeChecks(b.description)];
    if (checksBefore !== checksAfter) {
      const text = (checks: string) => (checks ? JSON.stringify(checks) : 'none');
      const rule = checkRule(checksBefore !== '', checksAfter !== '', 'code-check-changed');
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
    const [x, y] = [left.branches[0], right.branches[0]];
    if (left.branches.length === 1 && right.branches.length === 1 && x && y) {
      const rx = resolveBefore(x.schema);
      const ry = resolveAfter(y.schema);
      if (rx && ry && compareTypes(rx, ry, path)) compareSame(rx, ry, path);
      return;
    }
    const keyed = (branches: Branch[]) => new Map(branches.map((found) => [found.key, found]));
    for (const [, was, is] of paired(keyed(left.branches), keyed(right.branches))) {
      if (was && is) walk(was.schema, is.schema, path);
      else if (was) report(path, `no longer ${was.label}`, 'alternative-removed');
      else if (is) report(path, `may now be ${is.label}`, 'alternative-added');
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
    for (const key of [...LOWER_BOUNDS, ...UPPER_BOUNDS]) {
      if (a[key] === b[key]) continue;
      const tightening = LOWER_BOUNDS.includes(key) ? 1 : -1;
      const tighter =
        b[key] !== undefined && (a[key] === undefined || tightening * (Number(b[key]) - Number(a[key])) > 0);
      report(
        path,
        `${key} ${show(a[key])} → ${show(b[key])}`,
        tighter ? 'bound-tightened' : 'bound-loosened',
      );
    }
    for (const key of EXACT) {
      if (JSON.stringify(a[key]) === JSON.stringify(b[key])) continue;
      const rule = checkRule(a[key] !== undefined, b[key] !== undefined, 'constraint-changed');
      report(path, `${key} ${show(a[key])} → ${show(b[key])}`, rule);
    }
  };

  const compareObjects = (a: JsonObject, b: JsonObject, path: string) => {
    const required = (schema: JsonObject) => new Set(Array.isArray(schema.required) ? schema.required : []);
    const [requiredBefore, requiredAfter] = [required(a), required(b)];
    const sends = direction === 'request';
    for (const [key, was, is] of paired(entriesOf(a.properties), entriesOf(b.properties))) {
      const at = join(path, key);
      if (is === undefined) report(at, sends ? 'removed: no longer accepted' : 'removed', 'field-removed');
      else if (was === undefined) report(at, ...added('field', requiredAfter.has(key)));
      else {
        if (requiredBefore.has(key) && !requiredAfter.has(key)) {
          report(at, sends ? 'now optional' : 'may now be absent', 'field-now-optional');
        } else if (!requiredBefore.has(key) && requiredAfter.has(key)) {
          report(at, sends ? 'now required' : 'now always present', 'field-now-required');
        }
        walk(was, is, at);
      }
    }
    const [closedBefore, closedAfter] = [a.additionalProperties === false, b.additionalProperties === false];
    if (closedBefore !== closedAfter) {
      if (closedAfter) report(path, 'other fields no longer allowed', 'other-fields-refused');
      else report(path, 'other fields now allowed', 'other-fields-allowed');
    }
  };

  walk(before, after, '');
}
