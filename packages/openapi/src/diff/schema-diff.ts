import { isJsonObject, type Json, type JsonObject, SCHEMA_REF_PREFIX } from '../schemas/json-schema.js';

/** What a change means for a client already using the API. */
export type ChangeSeverity = 'breaking' | 'additive' | 'compatible';

/** Which side of an exchange a schema describes: what the client sends, or what it reads. */
export type Direction = 'request' | 'response';

/** One difference inside a schema, relative to where the walk started. */
export interface SchemaChange {
  /** `lines[].shipmentInfo`, or `` for the schema itself. */
  readonly path: string;
  readonly change: string;
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
  if (isJsonObject(schema.properties)) {
    const keys = Object.keys(schema.properties);
    return `object {${keys.slice(0, 4).join(', ')}${keys.length > 4 ? ', …' : ''}}`;
  }
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
      branches: [{ key: refName(raw) ? `ref:${label}` : typeLabel(rest), label, schema: rest }],
    };
  }
  const label = branchLabel(raw, schema);
  return {
    nullable: false,
    branches: [{ key: refName(raw) ? `ref:${label}` : typeLabel(schema), label, schema: raw }],
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

const LOWER_BOUNDS = ['minLength', 'minimum', 'exclusiveMinimum', 'minItems', 'minProperties'] as const;
const UPPER_BOUNDS = ['maxLength', 'maximum', 'exclusiveMaximum', 'maxItems', 'maxProperties'] as const;
const EXACT = ['pattern', 'format', 'const'] as const;

/** `narrower` for the side that sends it: breaking when the client sends, harmless when it reads. */
const narrower = (direction: Direction): ChangeSeverity =>
  direction === 'request' ? 'breaking' : 'compatible';
/** `wider`: the other way round. */
const wider = (direction: Direction): ChangeSeverity => (direction === 'request' ? 'compatible' : 'breaking');
const show = (value: Json | undefined) => (value === undefined ? 'none' : JSON.stringify(value));

const join = (path: string, key: string) => (path ? `${path}.${key}` : key);

/**
 * Every difference between two schemas of the same place, seen from a client: for a request
 * (the client sends) a narrower schema breaks it and a wider one does not; for a response (the
 * client reads) the other way round. Renamed fields show as one removed and one added.
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

  const compare = (rawBefore: Json | undefined, rawAfter: Json | undefined, path: string): void => {
    const a = resolveBefore(rawBefore);
    const b = resolveAfter(rawAfter);
    if (!a || !b) return;
    if (
      a.description !== b.description &&
      typeof a.description === 'string' &&
      typeof b.description === 'string'
    ) {
      changes.push({
        path,
        change: `description: ${show(a.description)} → ${show(b.description)}`,
        severity: 'compatible',
      });
    }
    if (isNever(a) !== isNever(b)) {
      changes.push(
        isNever(a)
          ? { path, change: 'now accepted (was: must be absent)', severity: wider(direction) }
          : { path, change: 'must now be absent', severity: narrower(direction) },
      );
      return;
    }
    if (isAny(a) !== isAny(b)) {
      changes.push(
        isAny(b)
          ? { path, change: `any value now (was ${typeLabel(a)})`, severity: wider(direction) }
          : { path, change: `now ${typeLabel(b)} (was any value)`, severity: narrower(direction) },
      );
      return;
    }
    const left = alternatives(rawBefore as Json, resolveBefore);
    const right = alternatives(rawAfter as Json, resolveAfter);
    if (left.nullable !== right.nullable) {
      changes.push(
        right.nullable
          ? { path, change: 'may now be null', severity: wider(direction) }
          : { path, change: 'may no longer be null', severity: narrower(direction) },
      );
    }
    if (left.branches.length === 1 && right.branches.length === 1) {
      const [x, y] = [left.branches[0], right.branches[0]] as [Branch, Branch];
      const rx = resolveBefore(x.schema);
      const ry = resolveAfter(y.schema);
      if (rx && ry && typeLabel(rx) !== typeLabel(ry)) {
        changes.push({ path, change: `type ${typeLabel(rx)} → ${typeLabel(ry)}`, severity: 'breaking' });
        return;
      }
      if (rx && ry) compareSame(rx, ry, path);
      return;
    }
    const rightKeys = new Map(right.branches.map((branch) => [branch.key, branch]));
    const leftKeys = new Map(left.branches.map((branch) => [branch.key, branch]));
    for (const branch of left.branches) {
      const match = rightKeys.get(branch.key);
      if (match) walk(branch.schema, match.schema, path);
      else changes.push({ path, change: `no longer ${branch.label}`, severity: narrower(direction) });
    }
    for (const branch of right.branches) {
      if (!leftKeys.has(branch.key)) {
        changes.push({
          path,
          change: `may now be ${branch.label}`,
          severity: direction === 'request' ? 'additive' : 'breaking',
        });
      }
    }
  };

  const compareSame = (a: JsonObject, b: JsonObject, path: string): void => {
    compareEnums(a, b, path);
    compareConstraints(a, b, path);
    if (isJsonObject(a.properties) || isJsonObject(b.properties)) compareObjects(a, b, path);
    if (a.items !== undefined || b.items !== undefined) walk(a.items, b.items, `${path}[]`);
  };

  const compareEnums = (a: JsonObject, b: JsonObject, path: string) => {
    if (!Array.isArray(a.enum) || !Array.isArray(b.enum)) return;
    const before = new Set(a.enum.map((value) => JSON.stringify(value)));
    const after = new Set(b.enum.map((value) => JSON.stringify(value)));
    for (const value of after) {
      if (!before.has(value)) {
        changes.push({
          path,
          change: `new value ${value}`,
          severity: direction === 'request' ? 'additive' : 'breaking',
        });
      }
    }
    for (const value of before) {
      if (!after.has(value))
        changes.push({ path, change: `value ${value} removed`, severity: narrower(direction) });
    }
  };

  const compareConstraints = (a: JsonObject, b: JsonObject, path: string) => {
    for (const key of LOWER_BOUNDS) {
      if (a[key] === b[key]) continue;
      const tighter = b[key] !== undefined && (a[key] === undefined || Number(b[key]) > Number(a[key]));
      changes.push({
        path,
        change: `${key} ${show(a[key])} → ${show(b[key])}`,
        severity: tighter ? narrower(direction) : wider(direction),
      });
    }
    for (const key of UPPER_BOUNDS) {
      if (a[key] === b[key]) continue;
      const tighter = b[key] !== undefined && (a[key] === undefined || Number(b[key]) < Number(a[key]));
      changes.push({
        path,
        change: `${key} ${show(a[key])} → ${show(b[key])}`,
        severity: tighter ? narrower(direction) : wider(direction),
      });
    }
    for (const key of EXACT) {
      if (JSON.stringify(a[key]) === JSON.stringify(b[key])) continue;
      const severity =
        a[key] === undefined ? narrower(direction) : b[key] === undefined ? wider(direction) : 'breaking';
      changes.push({ path, change: `${key} ${show(a[key])} → ${show(b[key])}`, severity });
    }
  };

  const compareObjects = (a: JsonObject, b: JsonObject, path: string) => {
    const before = isJsonObject(a.properties) ? a.properties : {};
    const after = isJsonObject(b.properties) ? b.properties : {};
    const requiredBefore = new Set(Array.isArray(a.required) ? a.required : []);
    const requiredAfter = new Set(Array.isArray(b.required) ? b.required : []);
    for (const key of Object.keys(before)) {
      const at = join(path, key);
      if (!(key in after)) {
        changes.push({
          path: at,
          change: direction === 'request' ? 'removed: no longer accepted' : 'removed',
          severity: 'breaking',
        });
        continue;
      }
      const wasRequired = requiredBefore.has(key);
      const isRequired = requiredAfter.has(key);
      if (wasRequired && !isRequired) {
        changes.push({
          path: at,
          change: direction === 'request' ? 'now optional' : 'may now be absent',
          severity: wider(direction),
        });
      } else if (!wasRequired && isRequired) {
        changes.push({
          path: at,
          change: direction === 'request' ? 'now required' : 'now always present',
          severity: narrower(direction),
        });
      }
      walk(before[key], after[key], at);
    }
    for (const key of Object.keys(after)) {
      if (key in before) continue;
      const required = requiredAfter.has(key);
      changes.push({
        path: join(path, key),
        change: `added${required ? ' (required)' : ' (optional)'}`,
        severity: direction === 'request' && required ? 'breaking' : 'additive',
      });
    }
    const closedBefore = a.additionalProperties === false;
    const closedAfter = b.additionalProperties === false;
    if (closedBefore !== closedAfter) {
      changes.push({
        path,
        change: closedAfter ? 'other fields no longer allowed' : 'other fields now allowed',
        severity: closedAfter ? narrower(direction) : 'compatible',
      });
    }
  };

  walk(before, after, '');
  return changes;
}
