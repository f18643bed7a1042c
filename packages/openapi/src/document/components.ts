import * as client from '@print-contracts/client';
import { API_VERSIONS, OPERATION_NAMES, type OperationDefinition, operations } from '@print-contracts/client';
import { z } from 'zod';
import { DocumentError } from '../errors/document-error.js';
import { isJsonObject, type Json, type JsonObject, SCHEMA_REF_PREFIX } from '../json.js';

const pascal = (name: string) => `${name.charAt(0).toUpperCase()}${name.slice(1)}`;

/** `orderDetailSchema` → `OrderDetail`: the name a client export gets as a component. */
export const componentName = (exportName: string): string => pascal(exportName.replace(/Schema$/, ''));

/**
 * A component name for every zod schema the documents need. Each schema the client exports
 * is named after its export (so generated clients get `OrderDetail`, not
 * `GetOrder200Response`); a schema of the operations table the client does not export is
 * named after its operation and part. Same client in, same names out.
 */
export function nameSchemas(): Map<z.ZodType, string> {
  const names = new Map<z.ZodType, string>();
  const taken = new Set<string>();
  const give = (schema: z.ZodType, wanted: string) => {
    if (names.has(schema)) return;
    let name = wanted;
    for (let n = 2; taken.has(name); n++) name = `${wanted}${n}`;
    names.set(schema, name);
    taken.add(name);
  };
  const exported = client as unknown as Record<string, unknown>;
  for (const exportName of Object.keys(exported).sort()) {
    const value = exported[exportName];
    if (typeof value === 'object' && value !== null && '_zod' in value) {
      give(value as z.ZodType, componentName(exportName));
    }
  }
  for (const operationName of OPERATION_NAMES) {
    const operation: OperationDefinition = operations[operationName];
    const base = pascal(operationName);
    if (operation.query) give(operation.query, `${base}Query`);
    for (const [part, perVersion] of [
      ['Body', operation.body],
      ['Response', operation.response],
    ] as const) {
      if (!perVersion) continue;
      const shared = perVersion.v1 === perVersion.v2;
      for (const version of API_VERSIONS) {
        give(perVersion[version], shared ? `${base}${part}` : `${base}${part}${version.toUpperCase()}`);
      }
    }
  }
  return names;
}

/** The text of a zod error parameter (a string becomes a function in zod 4), or undefined. */
function messageOf(error: z.core.$ZodErrorMap<never> | undefined): string | undefined {
  try {
    const message: unknown = error?.({ code: 'custom', input: undefined, path: [] } as never);
    if (typeof message === 'string') return message;
    if (isJsonObject(message) && typeof message.message === 'string') return message.message;
  } catch {
    // A message built from the failing input cannot be shown without one.
  }
  return undefined;
}

/**
 * What the client checks in code that JSON Schema cannot say (refinements, `never`): their
 * messages, so the document tells a reader instead of silently accepting more.
 */
function codeChecks({ _zod: { def } }: z.core.$ZodType): string[] {
  const messages: string[] = [];
  if (def.type === 'never') {
    const message = messageOf(def.error);
    messages.push(message ? `must be absent (${message})` : 'must be absent');
  }
  for (const check of def.checks ?? []) {
    const checkDef: z.core.$ZodCheckDef & { path?: PropertyKey[] } = check._zod.def;
    const message = checkDef.check === 'custom' ? messageOf(checkDef.error) : undefined;
    if (!message) continue;
    const path = checkDef.path && checkDef.path.length > 0 ? `${checkDef.path.join('.')} ` : '';
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

/** The client's zod schemas as OpenAPI schema components, and a `$ref` for each. */
export type SchemaComponents = ReturnType<typeof buildComponents>;

/**
 * Converts the client's zod schemas with zod's own JSON Schema output (draft 2020-12, the
 * dialect of OpenAPI 3.1), one component per named schema (sorted by name), nested ones by
 * `$ref`; `ref(schema)` is the `{ $ref }` to one, and throws for a schema that has none.
 *
 * `io: 'input'` throughout: a request body is what the client may send, and a response is what
 * the client accepts from the vendor (its parse input), so plain objects stay open to fields
 * the vendor adds, as the tolerant client is. Unrepresentable parts become `{}` (anything).
 * `names` defaults to every schema the client exports and the operations table uses.
 */
export function buildComponents(names: ReadonlyMap<z.ZodType, string> = nameSchemas()) {
  const registry = z.registry<{ id: string }>();
  for (const [schema, id] of names) registry.add(schema, { id });
  const { schemas: converted } = z.toJSONSchema(registry, {
    target: 'draft-2020-12',
    io: 'input',
    unrepresentable: 'any',
    uri: (id) => `${SCHEMA_REF_PREFIX}${id}`,
    override: ({ zodSchema, jsonSchema }) => {
      const checks = codeChecks(zodSchema);
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
    schemas: schemas as Readonly<Record<string, JsonObject>>,
    ref(schema: z.ZodType): JsonObject {
      const name = names.get(schema);
      if (name === undefined)
        throw new DocumentError('A schema of the operations table has no component name');
      return { $ref: `${SCHEMA_REF_PREFIX}${name}` };
    },
  };
}
