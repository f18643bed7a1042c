import { API_VERSIONS, isHttpError, operations, REFERENCE_MAX_LENGTH } from '@print-contracts/client';
import { describe, expect, it } from 'vitest';
import { EXAMPLE_ORDER } from '../src/fixtures/examples.js';
import { INVALID_ORDERS, NEW_ORDERS, QUOTE_ORDER, TEST_ORDERS } from '../src/fixtures/orders.js';
import { ORDER_CREATED } from '../src/fixtures/responses.js';
import { documentedStatus, successStatus } from '../src/matchers.js';
import { orderPath } from '../src/request-paths.js';
import { contractPact } from './support/contract-pact.js';

const { createOrder } = operations;
const path = orderPath(createOrder);

describe.each(API_VERSIONS)('the orders client creating orders (%s)', (version) => {
  const pact = contractPact(version, import.meta.url);

  /** A create request the vendor accepts: it answers the new order's uuid. */
  const accepted = (description: string, body: object) =>
    pact
      .addInteraction()
      .uponReceiving(description)
      .withRequest(createOrder.method, path, (request) =>
        request.headers(pact.requestHeaders()).jsonBody(body),
      )
      .willRespondWith(successStatus(201), (response) => response.jsonBody(ORDER_CREATED));

  /** A create request the vendor refuses with its documented 400. */
  const refused = (description: string, body: object) =>
    pact
      .addInteraction()
      .uponReceiving(description)
      .withRequest(createOrder.method, path, (request) =>
        request.headers(pact.requestHeaders()).jsonBody(body),
      )
      .willRespondWith(documentedStatus(createOrder, 400));

  it(`${version}: creates an order and gets its uuid back`, () =>
    accepted('a request to create an order', NEW_ORDERS[version]).executeTest(
      pact.withClient(async (client) => {
        const created = await client.createOrder(NEW_ORDERS[version]);
        expect(created.uuid).toBe(EXAMPLE_ORDER.uuid);
      }),
    ));

  it(`${version}: creates a test order`, () =>
    accepted('a request to create a test order', TEST_ORDERS[version]).executeTest(
      pact.withClient(async (client) => {
        const created = await client.createOrder(TEST_ORDERS[version]);
        expect(created.uuid).toBe(EXAMPLE_ORDER.uuid);
      }),
    ));

  if (version === 'v2') {
    it('v2: creates an order from a quote', () =>
      accepted('a request to create an order from a quote', QUOTE_ORDER).executeTest(
        pact.withClient(async (client) => {
          const created = await client.createOrder(QUOTE_ORDER);
          expect(created.uuid).toBe(EXAMPLE_ORDER.uuid);
        }),
      ));

    it('v2: is refused with 400 for a delivery method only v1 offers', () =>
      refused(
        'a request to create an order with a v1-only delivery method',
        INVALID_ORDERS.v1OnlyDeliveryInV2,
      ).executeTest(
        pact.withClient(async (client) => {
          const error = await client
            .createOrder(INVALID_ORDERS.v1OnlyDeliveryInV2, { validate: false })
            .catch((caught: unknown) => caught);
          expect(isHttpError(error) && error.status).toBe(400);
        }),
      ));
  }

  it(`${version}: is refused with 400 when a required field is missing`, () => {
    const body = INVALID_ORDERS.missingDeliveryMethod[version];
    expect(body).not.toHaveProperty('deliveryMethod');
    return refused('a request to create an order without a delivery method', body).executeTest(
      pact.withClient(async (client) => {
        const error = await client
          .send('createOrder', { body }, { validate: false })
          .catch((caught: unknown) => caught);
        expect(isHttpError(error) && error.status).toBe(400);
      }),
    );
  });

  it(`${version}: is refused with 400 for a reference over ${REFERENCE_MAX_LENGTH} characters`, () => {
    const body = INVALID_ORDERS.referenceTooLong[version];
    expect(body.reference.length).toBeGreaterThan(REFERENCE_MAX_LENGTH);
    return refused(
      `a request to create an order with a reference over ${REFERENCE_MAX_LENGTH} characters`,
      body,
    ).executeTest(
      pact.withClient(async (client) => {
        const error = await client.createOrder(body, { validate: false }).catch((caught: unknown) => caught);
        expect(isHttpError(error) && error.status).toBe(400);
      }),
    );
  });
});
