import { operations, VERSION_WITHOUT_HEADER } from '@print-contracts/client';
import { VENDOR_EXAMPLES } from '@print-contracts/client/kit';
import { describe, expect, it } from 'vitest';
import { DOCS, documented, SUCCESS_CLASS } from '../src/expectations.js';
import { TEST_ORDERS } from '../src/fixtures/orders.js';
import { ORDER_CREATED } from '../src/fixtures/responses.js';
import { JSON_ANSWER_HEADERS, orderPath, successStatus } from '../src/matchers.js';
import { contractPact } from './support/contract-pact.js';

const { createOrder } = operations;

/**
 * Without a version header the vendor answers as v1, so this lives in the v1 pact only. A v1
 * order line (a product code, no sku) is what tells the versions apart: v2 refuses it.
 */
describe('the orders client without a version header (v1 pact only)', () => {
  const pact = contractPact(VERSION_WITHOUT_HEADER, import.meta.url);

  it('v1: creates a v1 test order without sending a version header', () =>
    pact
      .addInteraction()
      .uponReceiving('a request to create a v1 test order without a version header')
      .comment(documented('"Request without this header will use v1 as a default for now"', DOCS.versioning))
      .comment(SUCCESS_CLASS)
      .withRequest(createOrder.method, orderPath(createOrder), (request) =>
        request.headers(pact.requestHeaders({ versionHeader: false })).jsonBody(TEST_ORDERS.v1),
      )
      .willRespondWith(successStatus(201), (response) =>
        response.headers(JSON_ANSWER_HEADERS).jsonBody(ORDER_CREATED),
      )
      .executeTest(
        pact.withClient(
          async (client) => {
            const created = await client.createOrder(TEST_ORDERS.v1);
            expect(created.uuid).toBe(VENDOR_EXAMPLES.orderCreated.body.uuid);
          },
          { versionHeader: false },
        ),
      ));
});
