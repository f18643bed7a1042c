import { isJsonObject, type JsonObject } from '@print-contracts/client/kit';
/** What an answer holds that its description does not have. */
export type DriftKind =
  | 'undescribed-property'
  | 'unlisted-enum-value'
  | 'unexpected-type'
  | 'missing-required';

/** One place in one answer where it and the schema part ways. */
interface SchemaIssue {
  readonly kind: DriftKind;
  /** `$.lines[*].status`: array items as `[*]`, so every answer's issue at one place has one path. */
  readonly path: string;
  /** The value found there; undefined for a required property that is missing. */
  readonly value: unknown;
  /** What the schema allows there (types or values), for the report. */
  readonly allowed?: string;
}

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;
const child = (path: string, key: string) =>
  IDENTIFIER.test(key) ? `${path}.${key}` : `${path}[${JSON.stringify(key)}]`;

/** The JSON Schema type names a value has (an integer is a number too). */
function typesOf(value: unknown): string[] {
  if (value === null) return ['null'];
  if (Array.isArray(value)) return ['array'];
  if (typeof value === 'number') return Number.isInteger(value) ? ['integer', 'number'] : ['number'];
  return [typeof value];
}

/** The schema a local `$ref` (`#/components/schemas/Order`) points to in `document`. */
const pointed = (document: JsonObject, ref: string): unknown =>
  ref.startsWith('#/')
    ? ref
        .slice(2)
        .split('/')
        .reduce<unknown>(
          (node, part) =>
            isJsonObject(node) ? node[part.replaceAll('~1', '/').replaceAll('~0', '~')] : undefined,
          document,
        )
    : {};

/**
 * Walks an answer against the subset of JSON Schema (2020-12, as OpenAPI 3.1 embeds it) the
 * committed documents use: `$ref` into `document`, `type`, `enum`, `const`, `properties`,
 * `required`, `additionalProperties`, `items`, `anyOf`/`oneOf`/`allOf`. Formats, patterns and
 * bounds are left to the contracts: drift is about shape. A property the schema does not name
 * is reported unless the object is a map (`additionalProperties` a schema, no `properties`).
 * `refs` counts the `$ref`s followed in a row, so a reference cycle ends.
 */
export function schemaIssues(
  document: JsonObject,
  value: unknown,
  schema: unknown,
  path = '$',
  refs = 0,
): SchemaIssue[] {
  if (!isJsonObject(schema) || refs > 32) return [];
  const walk = (item: unknown, part: unknown, at = path) => schemaIssues(document, item, part, at);
  const { $ref, ...rest } = schema;
  if (typeof $ref === 'string') {
    const issues = schemaIssues(document, value, pointed(document, $ref), path, refs + 1);
    return Object.keys(rest).length > 0 ? [...issues, ...walk(value, rest)] : issues;
  }
  const issues: SchemaIssue[] = [];
  if (Array.isArray(schema.allOf)) {
    for (const part of schema.allOf) issues.push(...walk(value, part));
  }
  for (const key of ['anyOf', 'oneOf'] as const) {
    const branches = schema[key];
    if (Array.isArray(branches) && branches.length > 0)
      issues.push(
        ...fittest(
          branches.map((branch) => walk(value, branch)),
          value,
          path,
        ),
      );
  }
  const types = typeof schema.type === 'string' ? [schema.type] : schema.type;
  if (Array.isArray(types) && !typesOf(value).some((type) => types.includes(type))) {
    issues.push({ kind: 'unexpected-type', path, value, allowed: types.join(' or ') });
    return issues;
  }
  const listed = Array.isArray(schema.enum) ? schema.enum : 'const' in schema ? [schema.const] : undefined;
  if (listed && !listed.some((item) => JSON.stringify(item) === JSON.stringify(value))) {
    // A nullable enumeration lists null beside its values: a new value of theirs is a new value.
    const kind = listed.every((item) => item === null || typeof item === typeof value)
      ? 'unlisted-enum-value'
      : 'unexpected-type';
    issues.push({ kind, path, value, allowed: listed.map((item) => JSON.stringify(item)).join(', ') });
  }
  if (Array.isArray(value) && schema.items !== undefined) {
    for (const item of value) issues.push(...walk(item, schema.items, `${path}[*]`));
  }
  if (!isJsonObject(value)) return issues;
  const properties = isJsonObject(schema.properties) ? schema.properties : undefined;
  const extra = schema.additionalProperties;
  for (const name of Array.isArray(schema.required) ? schema.required : []) {
    if (typeof name === 'string' && !Object.hasOwn(value, name)) {
      issues.push({ kind: 'missing-required', path: child(path, name), value: undefined });
    }
  }
  for (const [key, item] of Object.entries(value)) {
    // Own names only: `constructor` or `toString` in an answer is a property like any other.
    const named = properties !== undefined && Object.hasOwn(properties, key) ? properties[key] : undefined;
    const described = named ?? (isJsonObject(extra) && Object.keys(extra).length > 0 ? extra : undefined);
    if (described !== undefined) issues.push(...walk(item, described, child(path, key)));
    else if ((properties !== undefined && extra !== true) || extra === false) {
      issues.push({ kind: 'undescribed-property', path: child(path, key), value: item });
    }
  }
  return issues;
}

/** Of `anyOf`/`oneOf`: the branch the value fits with the fewest issues; of no branch's type, one type issue. */
function fittest(results: SchemaIssue[][], value: unknown, path: string): SchemaIssue[] {
  if (results.some((issues) => issues.length === 0)) return [];
  const typeMiss = (issues: SchemaIssue[]) =>
    issues.some((issue) => issue.kind === 'unexpected-type' && issue.path === path);
  const fitting = results.filter((issues) => !typeMiss(issues));
  if (fitting.length > 0)
    return fitting.reduce((best, issues) => (issues.length < best.length ? issues : best));
  const allowed = results
    .flatMap((issues) => issues.filter((issue) => issue.path === path).map((issue) => issue.allowed ?? ''))
    .filter(Boolean);
  return [{ kind: 'unexpected-type', path, value, allowed: [...new Set(allowed)].join(' or ') }];
}
