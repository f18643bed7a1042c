import * as client from '@print-contracts/client';
import { API_VERSIONS, OPERATION_NAMES, type OperationDefinition, operations } from '@print-contracts/client';
import type { z } from 'zod';

const isZodSchema = (value: unknown): value is z.ZodType =>
  typeof value === 'object' && value !== null && '_zod' in value;

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
    if (isZodSchema(value)) give(value, componentName(exportName));
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
