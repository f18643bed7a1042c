/** A JSON object as parsed from a document or an answer. */
export type JsonObject = { [key: string]: unknown };

export const isObject = (value: unknown): value is JsonObject =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

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

/**
 * Walks an answer against the subset of JSON Schema (2020-12, as OpenAPI 3.1 embeds it) the
 * committed documents use: `$ref` into the document, `type`, `enum`, `const`, `properties`,
 * `required`, `additionalProperties`, `items`, `anyOf`/`oneOf`/`allOf`. Formats, patterns and
 * bounds are left to the contracts: drift is about shape. A property the schema does not name
 * is reported unless the object is a map (`additionalProperties` a schema, no `properties`).
 */
export class SchemaWalker {
  readonly #document: JsonObject;

  constructor(document: JsonObject) {
    this.#document = document;
  }

  walk(value: unknown, schema: unknown, path = '$'): SchemaIssue[] {
    const resolved = this.#resolve(schema);
    if (!isObject(resolved)) return [];
    const issues: SchemaIssue[] = [];
    if (typeof resolved.$ref === 'string') {
      const { $ref: _ref, ...rest } = resolved;
      issues.push(...this.walk(value, this.#resolve({ $ref: resolved.$ref }), path));
      if (Object.keys(rest).length > 0) issues.push(...this.walk(value, rest, path));
      return issues;
    }
    if (Array.isArray(resolved.allOf)) {
      for (const part of resolved.allOf) issues.push(...this.walk(value, part, path));
    }
    for (const key of ['anyOf', 'oneOf'] as const) {
      const branches = resolved[key];
      if (Array.isArray(branches) && branches.length > 0)
        issues.push(...this.#branches(value, branches, path));
    }
    const allowedTypes =
      typeof resolved.type === 'string'
        ? [resolved.type]
        : Array.isArray(resolved.type)
          ? resolved.type
          : undefined;
    if (allowedTypes && !typesOf(value).some((type) => allowedTypes.includes(type))) {
      issues.push({ kind: 'unexpected-type', path, value, allowed: allowedTypes.join(' or ') });
      return issues;
    }
    const listed = Array.isArray(resolved.enum)
      ? resolved.enum
      : 'const' in resolved
        ? [resolved.const]
        : undefined;
    if (listed && !listed.some((item) => JSON.stringify(item) === JSON.stringify(value))) {
      const kind = listed.every((item) => typeof item === typeof value)
        ? 'unlisted-enum-value'
        : 'unexpected-type';
      issues.push({ kind, path, value, allowed: listed.map((item) => JSON.stringify(item)).join(', ') });
    }
    if (Array.isArray(value) && resolved.items !== undefined) {
      for (const item of value) issues.push(...this.walk(item, resolved.items, `${path}[*]`));
    }
    if (isObject(value)) issues.push(...this.#object(value, resolved, path));
    return issues;
  }

  #object(value: JsonObject, schema: JsonObject, path: string): SchemaIssue[] {
    const issues: SchemaIssue[] = [];
    const properties = isObject(schema.properties) ? schema.properties : undefined;
    const extra = schema.additionalProperties;
    const required = Array.isArray(schema.required) ? schema.required : [];
    for (const name of required) {
      if (typeof name === 'string' && !(name in value)) {
        issues.push({ kind: 'missing-required', path: child(path, name), value: undefined });
      }
    }
    for (const [key, item] of Object.entries(value)) {
      const described = properties?.[key];
      if (described !== undefined) issues.push(...this.walk(item, described, child(path, key)));
      else if (isObject(extra) && Object.keys(extra).length > 0)
        issues.push(...this.walk(item, extra, child(path, key)));
      else if (properties !== undefined || extra === false) {
        issues.push({ kind: 'undescribed-property', path: child(path, key), value: item });
      }
    }
    return issues;
  }

  /** The branch the value fits with the fewest issues; a value of no branch's type is one type issue. */
  #branches(value: unknown, branches: readonly unknown[], path: string): SchemaIssue[] {
    const results = branches.map((branch) => this.walk(value, branch, path));
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

  /** A local `$ref` (`#/components/schemas/Order`) followed to its schema. */
  #resolve(schema: unknown, depth = 0): unknown {
    if (!isObject(schema) || typeof schema.$ref !== 'string' || depth > 32) return schema;
    const ref = schema.$ref;
    if (!ref.startsWith('#/')) return {};
    let target: unknown = this.#document;
    for (const part of ref.slice(2).split('/')) {
      const key = part.replaceAll('~1', '/').replaceAll('~0', '~');
      target = isObject(target) ? target[key] : undefined;
    }
    if (Object.keys(schema).length === 1) return this.#resolve(target, depth + 1);
    return schema;
  }
}
