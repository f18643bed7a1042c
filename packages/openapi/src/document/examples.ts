import { API_VERSIONS, type ApiVersion, type OperationName, operations } from '@print-contracts/client';
import { VENDOR_EXAMPLES, type VendorExampleName } from '@print-contracts/client/kit';
import type { z } from 'zod';
import type { JsonObject } from '../json.js';

/** Which part of an exchange an example shows: the request body, or the success answer's body. */
export type ExamplePart = 'request' | 'response';

/** Where one of the vendor's documented examples belongs in the documents. */
export interface ExamplePlacement {
  readonly example: VendorExampleName;
  readonly operations: readonly OperationName[];
  readonly part: ExamplePart;
  readonly versions: readonly ApiVersion[];
}

const UPDATES: readonly OperationName[] = ['updateOrder', 'updateOrderWithPost'];

/**
 * The vendor's examples, placed. Create examples with `sku` lines are v2 shapes; the update
 * page dates from v1 but the interface names update in both versions, so both show it.
 */
export const EXAMPLE_PLACEMENTS: readonly ExamplePlacement[] = [
  { example: 'orderList', operations: ['listOrders'], part: 'response', versions: API_VERSIONS },
  { example: 'orderDetail', operations: ['getOrder'], part: 'response', versions: API_VERSIONS },
  { example: 'createOrder', operations: ['createOrder'], part: 'request', versions: ['v2'] },
  { example: 'createQuoteOrder', operations: ['createOrder'], part: 'request', versions: ['v2'] },
  { example: 'orderCreated', operations: ['createOrder'], part: 'response', versions: API_VERSIONS },
  { example: 'updatePartial', operations: UPDATES, part: 'request', versions: API_VERSIONS },
  { example: 'updateWhole', operations: UPDATES, part: 'request', versions: API_VERSIONS },
  { example: 'cancelOrder', operations: ['cancelOrder'], part: 'request', versions: API_VERSIONS },
  { example: 'orderCancelled', operations: ['cancelOrder'], part: 'response', versions: API_VERSIONS },
];

const MAX_REASONS = 3;

/**
 * The vendor's examples for one operation part in one version, as OpenAPI Example Objects by
 * name. An example goes into the document only where the client's schema accepts it (a
 * document whose examples break its own schema misleads mock servers and fuzzers); for each
 * refused one, `notes` says so with the schema's reasons instead of staying silent.
 */
export function placedExamples(operation: OperationName, part: ExamplePart, version: ApiVersion) {
  const examples: JsonObject = {};
  const notes: string[] = [];
  const definition = operations[operation] as {
    body?: Readonly<Record<ApiVersion, z.ZodType>>;
    response: Readonly<Record<ApiVersion, z.ZodType>>;
  };
  const schema = part === 'request' ? definition.body?.[version] : definition.response[version];
  for (const placement of EXAMPLE_PLACEMENTS) {
    if (!schema || placement.part !== part || !placement.operations.includes(operation)) continue;
    if (!placement.versions.includes(version)) continue;
    const { body, source, title, note } = VENDOR_EXAMPLES[placement.example];
    const parsed = schema.safeParse(body);
    if (parsed.success) {
      const origin = `From the vendor's documentation: \`${source.path}\` in \`${source.repository}\` at ${source.commit.slice(0, 7)}.`;
      examples[placement.example] = {
        summary: title,
        description: note ? `${origin} ${note}` : origin,
        value: body as JsonObject,
      };
    } else {
      const reasons = parsed.error.issues
        .slice(0, MAX_REASONS)
        .map((issue) => `${issue.path.length > 0 ? issue.path.join('.') : '(body)'}: ${issue.message}`);
      notes.push(
        `The vendor documents a ${part === 'request' ? 'request body' : 'success answer'} (\`${placement.example}\`, \`${source.path}\`) that the kit's ${version} schema refuses, so it is not shown: ${reasons.join('; ')}.`,
      );
    }
  }
  return { examples, notes };
}
