import { API_VERSIONS, isHttpError, isOrderCreationFailedError, operations } from '@print-contracts/client';
import { describe, expect, it } from 'vitest';
import { EXAMPLE_FAILED_ORDER, EXAMPLE_ORDER, UNKNOWN_ORDER_ID } from '../src/fixtures/examples.js';
import { CREATION_FAILED, ORDER_DETAIL } from '../src/fixtures/responses.js';
import { documentedStatus, successStatus } from '../src/matchers.js';
import { PROVIDER_STATES } from '../src/provider-states.js';
import { injectedOrderPath, orderPath } from '../src/request-paths.js';
import { contractPact } from './support/contract-pact.js';

const { getOrder } = operations;

describe.each(API_VERSIONS)('the orders client reading an order (%s)', (version) => {
  const pact = contractPact(version, import.meta.url);

  it(`${version}: reads an order by its numeric id`, () =>
    pact
      .addInteraction()
      .given(PROVIDER_STATES.orderExists.name)
      .uponReceiving('a request for an order by its numeric id')
      .withRequest(getOrder.method, injectedOrderPath(getOrder, 'id', EXAMPLE_ORDER.id), (request) =>
        request.headers(pact.requestHeaders()),
      )
      .willRespondWith(successStatus(200), (response) => response.jsonBody(ORDER_DETAIL))
      .executeTest(
        pact.withClient(async (client) => {
          const order = await client.getOrder(EXAMPLE_ORDER.id);
          expect(order).toMatchObject({ id: EXAMPLE_ORDER.id, status: 'in-progress' });
          expect(order.lines[0]?.status).toBe('processing');
        }),
      ));

  it(`${version}: reads an order by its uuid`, () =>
    pact
      .addInteraction()
      .given(PROVIDER_STATES.orderExists.name)
      .uponReceiving('a request for an order by its uuid')
      .withRequest(getOrder.method, injectedOrderPath(getOrder, 'uuid', EXAMPLE_ORDER.uuid), (request) =>
        request.headers(pact.requestHeaders()),
      )
      .willRespondWith(successStatus(200), (response) => response.jsonBody(ORDER_DETAIL))
      .executeTest(
        pact.withClient(async (client) => {
          const order = await client.getOrder(EXAMPLE_ORDER.uuid);
          expect(order.uuid).toBe(EXAMPLE_ORDER.uuid);
        }),
      ));

  it(`${version}: gets a 404 for an order id that does not exist`, () =>
    pact
      .addInteraction()
      .given(PROVIDER_STATES.noOrderWithId.name, { id: UNKNOWN_ORDER_ID })
      .uponReceiving('a request for an order with an unknown id')
      .withRequest(getOrder.method, orderPath(getOrder, UNKNOWN_ORDER_ID), (request) =>
        request.headers(pact.requestHeaders()),
      )
      .willRespondWith(documentedStatus(getOrder, 404))
      .executeTest(
        pact.withClient(async (client) => {
          const error = await client.getOrder(UNKNOWN_ORDER_ID).catch((caught: unknown) => caught);
          expect(isHttpError(error) && error.status).toBe(404);
        }),
      ));

  it(`${version}: learns from the 404 that an order's creation failed`, () =>
    pact
      .addInteraction()
      .given(PROVIDER_STATES.orderCreationFailed.name)
      .uponReceiving('a request for an order whose creation failed')
      .withRequest(
        getOrder.method,
        injectedOrderPath(getOrder, 'uuid', EXAMPLE_FAILED_ORDER.uuid),
        (request) => request.headers(pact.requestHeaders()),
      )
      .willRespondWith(documentedStatus(getOrder, 404), (response) => response.jsonBody(CREATION_FAILED))
      .executeTest(
        pact.withClient(async (client) => {
          const error = await client
            .waitForOrder(EXAMPLE_FAILED_ORDER.uuid, { timeoutMs: 1_000 })
            .catch((caught: unknown) => caught);
          expect(isOrderCreationFailedError(error) && error.uuid).toBe(EXAMPLE_FAILED_ORDER.uuid);
        }),
      ));
});
