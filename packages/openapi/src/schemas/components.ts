import { z } from 'zod';
import { DocumentError } from '../errors/document-error.js';
import { isJsonObject, type Json, type JsonObject, SCHEMA_REF_PREFIX, schemaRef } from './json-schema.js';
import { nameSchemas } from './schema-names.js';

/** The client's zod schemas as OpenAPI schema components, and a `$ref` for each. */
export interface SchemaComponents {
  /** Every component by name, sorted by name. */
  readonly schemas: Readonly<Record<string, JsonObject>>;
  /** `{ $ref }` to the component of `schema`; throws for a schema that has none. */
  ref(schema: z.ZodType): JsonObject;
  /** `schema` itself, or the component its `$ref` names. */
  resolve(schema: JsonObject): JsonObject;
}

/** The text of a zod error parameter (a string becomes a function in zod 4), or undefined. */
function messageOf(error: unknown): string | undefined {
  if (typeof error !== 'function') return undefined;
  try {
    const message: unknown = error({ code: 'custom', input: undefined, path: [] });
    if (typeof message === 'string') return message;
    if (isJsonObject(message) && typeof message.message === 'string') return message.message;
  } catch {
    // A message built from the failing input cannot be shown without one.
  }
  return undefined;
}

interface ZodInternals {
  _zod: {
    def: {
      type: string;
      error?: unknown;
      checks?: Array<{ _zod?: { def?: { check?: string; error?: unknown; path?: unknown[] } } }>;
    };
  };
}

/**
 * What the client checks in code that JSON Schema cannot say (refinements, `never`): their
 * messages, so the document tells a reader instead of silently accepting more.
 */
function codeChecks(schema: z.ZodType): string[] {
  const { def } = (schema as unknown as ZodInternals)._zod;
  const messages: string[] = [];
  if (def.type === 'never') {
    const message = messageOf(def.error);
    messages.push(message ? `must be absent (${message})` : 'must be absent');
  }
  for (const check of def.checks ?? []) {
    const checkDef = check._zod?.def;
    if (checkDef?.check !== 'custom') continue;
    const message = messageOf(checkDef.error);
    if (!message) continue;
    const path =
      Array.isArray(checkDef.path) && checkDef.path.length > 0 ? `${checkDef.path.join('.')} ` : '';
    messages.push(`${path}${message}`);
  }
  return messages;
}

/** How a description names the checks the client makes in code; `contracts:diff` reads it back. */
export const CODE_CHECKS_NOTE = 'The client also checks: ';

/** JavaScript's safe-integer range, which zod adds to every `.int()`: not a statement about the vendor. */
const JS_BOUNDS = new Set<unknown>([Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER]);

/** Drops what an OpenAPI component does not need and JavaScript's integer bounds, recursively. */
function tidy(value: Json): Json {
  if (Array.isArray(value)) return value.map(tidy);
  if (!isJsonObject(value)) return value;
  const out: JsonObject = {};
  for (const [key, child] of Object.entries(value)) {
    if (key === '$schema' || key === '$id') continue;
    if ((key === 'minimum' || key === 'maximum') && JS_BOUNDS.has(child)) continue;
    // `additionalProperties: {}` (a loose object) says no more than leaving it out, but the
    // comparator reads it as "any undocumented field is promised": a pact relying on a field
    // the vendor does not document would then pass unnoticed.
    if (key === 'additionalProperties' && isJsonObject(child) && Object.keys(child).length === 0) continue;
    out[key] = tidy(child);
  }
  return out;
}

/**
 * Converts the client's zod schemas with zod's own JSON Schema output (draft 2020-12, the
 * dialect of OpenAPI 3.1), one component per named schema, nested ones by `$ref`.
 *
 * `io: 'input'` throughout: a request body is what the client may send, and a response is what
 * the client accepts from the vendor (its parse input), so plain objects stay open to fields
 * the vendor adds, as the tolerant client is. Unrepresentable parts become `{}` (anything).
 * `names` defaults to every schema the client exports and the operations table uses.
 */
export function buildComponents(names: ReadonlyMap<z.ZodType, string> = nameSchemas()): SchemaComponents {
  const registry = z.registry<{ id: string }>();
  for (const [schema, id] of names) registry.add(schema, { id });
  const { schemas: converted } = z.toJSONSchema(registry, {
    target: 'draft-2020-12',
    io: 'input',
    unrepresentable: 'any',
    uri: (id) => `${SCHEMA_REF_PREFIX}${id}`,
    override: ({ zodSchema, jsonSchema }) => {
      const checks = codeChecks(zodSchema as unknown as z.ZodType);
      if (checks.length === 0) return;
      const note = `${CODE_CHECKS_NOTE}${checks.join('; ')}.`;
      jsonSchema.description = jsonSchema.description ? `${jsonSchema.description} ${note}` : note;
    },
  });
  const schemas: Record<string, JsonObject> = {};
  for (const name of Object.keys(converted).sort()) {
    if (name === '__shared') {
      throw new DocumentError(
        'zod extracted shared definitions (a schema with a global `id`?): export it from the client to name it',
      );
    }
    schemas[name] = tidy(converted[name] as Json) as JsonObject;
  }
  return {
    schemas,
    ref(schema) {
      const name = names.get(schema);
      if (name === undefined)
        throw new DocumentError('A schema of the operations table has no component name');
      return schemaRef(name);
    },
    resolve(schema) {
      const ref = schema.$ref;
      if (typeof ref !== 'string' || !ref.startsWith(SCHEMA_REF_PREFIX)) return schema;
      return schemas[ref.slice(SCHEMA_REF_PREFIX.length)] ?? schema;
    },
  };
}
