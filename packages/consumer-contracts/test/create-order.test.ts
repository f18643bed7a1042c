import { API_VERSIONS, isHttpError, operations, REFERENCE_MAX_LENGTH } from '@print-contracts/client';
import { VENDOR_EXAMPLES } from '@print-contracts/client/kit';
import { describe, expect, it } from 'vitest';
import { assumed, DOCS, documented, SUCCESS_CLASS } from '../src/expectations.js';
import { INVALID_ORDERS, NEW_ORDERS, QUOTE_ORDER, TEST_ORDERS } from '../src/fixtures/orders.js';
import { ORDER_CREATED } from '../src/fixtures/responses.js';
import { clientErrorStatus, JSON_ANSWER_HEADERS, orderPath, successStatus } from '../src/matchers.js';
import { contractPact } from './support/contract-pact.js';

const { createOrder } = operations;
const path = orderPath(createOrder);

describe.each(API_VERSIONS)('the orders client creating orders (%s)', (version) => {
  const pact = contractPact(version, import.meta.url);

  /** A create request the vendor accepts: it answers the new order's uuid. */
  const accepted = (description: string, body: object, page: string = DOCS.createOrder) =>
    pact
      .addInteraction()
      .uponReceiving(description)
      .comment(documented('the answer is {"uuid": …}; creation itself happens later', page))
      .comment(SUCCESS_CLASS)
      .withRequest(createOrder.method, path, (request) =>
        request.headers(pact.requestHeaders()).jsonBody(body),
      )
      .willRespondWith(successStatus(201), (response) =>
        response.headers(JSON_ANSWER_HEADERS).jsonBody(ORDER_CREATED),
      );

  /** A create request the vendor should refuse: the docs give no status, so any 4xx. */
  const refused = (description: string, body: object, why: string) =>
    pact
      .addInteraction()
      .uponReceiving(description)
      .comment(documented(why, DOCS.createOrder))
      .comment(assumed('a refusal (4xx); the docs give no status for invalid order data'))
      .withRequest(createOrder.method, path, (request) =>
        request.headers(pact.requestHeaders()).jsonBody(body),
      )
      .willRespondWith(clientErrorStatus(400));

  it(`${version}: creates an order and gets its uuid back`, () =>
    accepted('a request to create an order', NEW_ORDERS[version]).executeTest(
      pact.withClient(async (client) => {
        const created = await client.createOrder(NEW_ORDERS[version]);
        expect(created.uuid).toBe(VENDOR_EXAMPLES.orderCreated.body.uuid);
      }),
    ));

  it(`${version}: creates a test order`, () =>
    accepted('a request to create a test order', TEST_ORDERS[version]).executeTest(
      pact.withClient(async (client) => {
        const created = await client.createOrder(TEST_ORDERS[version]);
        expect(created.uuid).toBe(VENDOR_EXAMPLES.orderCreated.body.uuid);
      }),
    ));

  if (version === 'v2') {
    it('v2: creates an order from a quote', () =>
      accepted('a request to create an order from a quote', QUOTE_ORDER, DOCS.createQuoteOrder).executeTest(
        pact.withClient(async (client) => {
          const created = await client.createOrder(QUOTE_ORDER);
          expect(created.uuid).toBe(VENDOR_EXAMPLES.orderCreated.body.uuid);
        }),
      ));

    it('v2: is refused a delivery method only v1 offers', () =>
      refused(
        'a request to create an order with a v1-only delivery method',
        INVALID_ORDERS.v1OnlyDeliveryInV2,
        'v2 offers delivery method 1 only; 6, 18 and 19 were v1 pick-up points (a table removed in 2024-11)',
      ).executeTest(
        pact.withClient(async (client) => {
          const error = await client
            .createOrder(INVALID_ORDERS.v1OnlyDeliveryInV2, { validate: false })
            .catch((caught: unknown) => caught);
          expect(isHttpError(error) && error.status).toBe(400);
        }),
      ));
  }

  it(`${version}: is refused when a required field is missing`, () => {
    const body = INVALID_ORDERS.missingDeliveryMethod[version];
    expect(body).not.toHaveProperty('deliveryMethod');
    return refused(
      'a request to create an order without a delivery method',
      body,
      'deliveryMethod is a required field',
    ).executeTest(
      pact.withClient(async (client) => {
        const error = await client
          .send('createOrder', { body }, { validate: false })
          .catch((caught: unknown) => caught);
        expect(isHttpError(error) && error.status).toBe(400);
      }),
    );
  });

  it(`${version}: is refused a reference over ${REFERENCE_MAX_LENGTH} characters`, () => {
    const body = INVALID_ORDERS.referenceTooLong[version];
    expect(body.reference.length).toBeGreaterThan(REFERENCE_MAX_LENGTH);
    return refused(
      `a request to create an order with a reference over ${REFERENCE_MAX_LENGTH} characters`,
      body,
      `reference: "Max length: ${REFERENCE_MAX_LENGTH} chars"`,
    ).executeTest(
      pact.withClient(async (client) => {
        const error = await client.createOrder(body, { validate: false }).catch((caught: unknown) => caught);
        expect(isHttpError(error) && error.status).toBe(400);
      }),
    );
  });
});
