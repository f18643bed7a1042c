import {
  CANCEL_REFUSED_MESSAGE,
  OPERATION_NAMES,
  type OperationDefinition,
  operations,
  orderDetailSchema,
  pathPattern,
  updateResultSchema,
  versionHeaderValue,
} from '@print-contracts/client';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_BASE_PATH } from '../src/index.js';
import { orderFor } from './helpers/orders.js';
import { apiHeaders, DEMO, OTHER, startTestApi, type TestApi } from './helpers/sample-api.js';

/** Printable ASCII without whitespace at the ends: what an HTTP header value may carry. */
const headerText = fc
  .string({
    unit: fc.integer({ min: 0x21, max: 0x7e }).map((code) => String.fromCharCode(code)),
    maxLength: 30,
  })
  .filter((text) => text.length > 0);

const method = fc.constantFrom('GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS');

const orderRef = fc.oneof(
  { weight: 4, arbitrary: fc.integer({ min: 1_000_001, max: 1_000_013 }).map(String) },
  {
    weight: 1,
    arbitrary: fc
      .integer({ min: 1, max: 12 })
      .map((n) => `5eed0000-0000-4000-8000-${n.toString(16).padStart(12, '0')}`),
  },
  { weight: 1, arbitrary: fc.integer({ min: 1_000_101, max: 1_000_113 }).map(String) },
  { weight: 1, arbitrary: fc.integer({ min: -5, max: 2 ** 53 }).map(String) },
  { weight: 1, arbitrary: fc.uuid().map(String) },
  { weight: 1, arbitrary: fc.string({ maxLength: 40 }) },
);

const query = fc.option(
  fc
    .dictionary(
      fc.oneof(fc.constantFrom('limit', 'offset', 'status'), fc.string({ maxLength: 8 })),
      fc.oneof(
        fc.integer({ min: -10, max: 100 }).map(String),
        fc.constantFrom('in-progress', 'completed', 'cancelled', 'unknown', 'shipped', ''),
        fc.string({ maxLength: 12 }),
      ),
    )
    .map((pairs) => new URLSearchParams(pairs).toString()),
  { nil: undefined, freq: 2 },
);

const path = fc
  .tuple(
    fc.oneof(
      { weight: 3, arbitrary: fc.constant('/api/orders') },
      { weight: 5, arbitrary: orderRef.map((ref) => `/api/orders/${encodeURIComponent(ref)}`) },
      {
        weight: 1,
        arbitrary: fc
          .array(fc.string({ maxLength: 10 }), { maxLength: 4 })
          .map((parts) => `/api/${parts.map(encodeURIComponent).join('/')}`),
      },
      {
        weight: 1,
        arbitrary: fc
          .array(fc.string({ maxLength: 10 }), { maxLength: 3 })
          .map((parts) => `/${parts.map(encodeURIComponent).join('/')}`),
      },
    ),
    query,
  )
  .map(([base, search]) => (search ? `${base}?${search}` : base));

const credentials = fc.oneof(
  { weight: 6, arbitrary: fc.constant(apiHeaders(DEMO)) },
  { weight: 1, arbitrary: fc.constant(apiHeaders(OTHER)) },
  { weight: 1, arbitrary: fc.constant({}) },
  { weight: 1, arbitrary: fc.record({ 'user-id': headerText, 'api-secret': headerText }) },
);

const accept = fc.oneof(
  { weight: 3, arbitrary: fc.constant(undefined) },
  {
    weight: 6,
    arbitrary: fc.constantFrom(versionHeaderValue('v1'), versionHeaderValue('v2'), '*/*', 'application/json'),
  },
  { weight: 1, arbitrary: headerText.map((version) => `application/vnd.printdeal-api.${version}`) },
  { weight: 1, arbitrary: headerText },
);

const contentType = fc.oneof(
  { weight: 8, arbitrary: fc.constantFrom('application/json', 'application/json; charset=utf-8') },
  { weight: 1, arbitrary: fc.constant(undefined) },
  { weight: 1, arbitrary: fc.oneof(fc.constant('text/plain'), headerText) },
);

/** A valid order with one field replaced by any JSON value: finds the corners of validation. */
const mutatedOrder = fc
  .tuple(
    fc.constantFrom('v1', 'v2'),
    fc.constantFrom(
      'orderLines',
      'invoiceAddress',
      'deliveryAddress',
      'deliveryMethod',
      'reference',
      'poNumber',
      'testOrder',
      'quoteId',
      'extra',
    ),
    fc.jsonValue({ maxDepth: 3 }),
  )
  .map(([version, field, value]) => JSON.stringify({ ...orderFor(version), [field]: value }));

const body = fc.option(
  fc.oneof(
    mutatedOrder,
    fc.constantFrom('v1', 'v2').map((version) => JSON.stringify(orderFor(version))),
    fc
      .record(
        { reference: fc.string({ maxLength: 40 }), poNumber: fc.option(fc.string(), { nil: undefined }) },
        { requiredKeys: [] },
      )
      .map((update) => JSON.stringify(update)),
    headerText.map((reason) => JSON.stringify({ reason })),
    fc.json({ maxDepth: 3 }),
    fc.string({ maxLength: 3_000 }),
  ),
  { nil: undefined },
);

/** The response schema of the operation a method and path name, from the client's table. */
function responseSchemaFor(requestMethod: string, requestPath: string, version: 'v1' | 'v2') {
  const bare = requestPath.split('?')[0] ?? '';
  for (const name of OPERATION_NAMES) {
    const operation = operations[name] as OperationDefinition;
    if (operation.method === requestMethod && pathPattern(operation.path, API_BASE_PATH).test(bare)) {
      // The vendor documents no update answer; the simulator promises the updated order.
      return operation.response[version] === updateResultSchema
        ? orderDetailSchema
        : operation.response[version];
    }
  }
  return undefined;
}

describe('the sample API under random requests', () => {
  let t: TestApi;
  beforeAll(async () => {
    t = await startTestApi({ processingDelayMs: 0, bodyLimitBytes: 2_048 });
  });
  afterAll(() => t.close());

  it('never crashes, never answers 5xx (but the cancel refusal) and always answers JSON', async () => {
    await fc.assert(
      fc.asyncProperty(
        method,
        path,
        credentials,
        accept,
        contentType,
        body,
        async (verb, target, creds, acc, type, payload) => {
          const headers: Record<string, string> = { ...creds };
          if (acc !== undefined) headers.accept = acc;
          if (type !== undefined) headers['content-type'] = type;
          const answer = await t.raw({
            method: verb,
            path: target,
            credentials: false,
            headers,
            body: payload,
          });
          expect(answer.headers['content-type']).toMatch(/^application\/json/);
          const json = answer.json;
          if (answer.status >= 500) {
            expect([verb, answer.status, json]).toEqual(['DELETE', 500, { message: CANCEL_REFUSED_MESSAGE }]);
            return;
          }
          expect(answer.status).toBeGreaterThanOrEqual(200);
          if (answer.status >= 400) {
            expect(json).toMatchObject({ message: expect.any(String) });
            return;
          }
          const version = acc === versionHeaderValue('v2') ? 'v2' : 'v1';
          const schema = responseSchemaFor(verb, target, version);
          expect(schema, `${verb} ${target} answered ${answer.status}`).toBeDefined();
          expect(schema?.safeParse(json).success).toBe(true);
        },
      ),
      { numRuns: 400 },
    );
    expect((await t.raw({ path: '/api/orders' })).status).toBe(200);
  });
});
