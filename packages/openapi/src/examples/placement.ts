import {
  API_VERSIONS,
  type ApiVersion,
  type OperationName,
  operations,
  VENDOR_EXAMPLES,
  type VendorExampleName,
} from '@print-contracts/client';
import type { z } from 'zod';

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

/** An OpenAPI Example Object built from a vendor example. */
export interface OpenApiExample {
  readonly summary: string;
  readonly description: string;
  readonly value: unknown;
}

/** A documented example the kit's schema for that version refuses, and why. */
export interface RejectedExample {
  readonly name: VendorExampleName;
  readonly path: string;
  readonly reasons: readonly string[];
}

/** The examples of one operation part in one version: those the schema accepts, and those it refuses. */
export interface PlacedExamples {
  readonly accepted: ReadonlyMap<VendorExampleName, OpenApiExample>;
  readonly rejected: readonly RejectedExample[];
}

/** The zod schema an example of `part` must satisfy: the body schema, or the success answer's. */
function schemaOf(operation: OperationName, part: ExamplePart, version: ApiVersion): z.ZodType | undefined {
  const definition = operations[operation] as {
    body?: Readonly<Record<ApiVersion, z.ZodType>>;
    response: Readonly<Record<ApiVersion, z.ZodType>>;
  };
  return part === 'request' ? definition.body?.[version] : definition.response[version];
}

const MAX_REASONS = 3;

/**
 * The vendor's examples for one operation part in one version. An example goes into the
 * document only where the client's schema accepts it (a document whose examples break its
 * own schema misleads mock servers and fuzzers); the refused ones are returned with the
 * schema's reasons, so the document can say so instead of staying silent.
 */
export function placedExamples(
  operation: OperationName,
  part: ExamplePart,
  version: ApiVersion,
): PlacedExamples {
  const accepted = new Map<VendorExampleName, OpenApiExample>();
  const rejected: RejectedExample[] = [];
  const schema = schemaOf(operation, part, version);
  if (!schema) return { accepted, rejected };
  for (const placement of EXAMPLE_PLACEMENTS) {
    if (placement.part !== part || !placement.operations.includes(operation)) continue;
    if (!placement.versions.includes(version)) continue;
    const example = VENDOR_EXAMPLES[placement.example];
    const parsed = schema.safeParse(example.body);
    if (parsed.success) {
      const origin = `From the vendor's documentation: \`${example.source.path}\` in \`${example.source.repository}\` at ${example.source.commit.slice(0, 7)}.`;
      accepted.set(placement.example, {
        summary: example.title,
        description: example.note ? `${origin} ${example.note}` : origin,
        value: example.body,
      });
    } else {
      rejected.push({
        name: placement.example,
        path: example.source.path,
        reasons: parsed.error.issues
          .slice(0, MAX_REASONS)
          .map((issue) => `${issue.path.length > 0 ? issue.path.join('.') : '(body)'}: ${issue.message}`),
      });
    }
  }
  return { accepted, rejected };
}
