import { API_VERSIONS, isHttpError, type OrderRef, operations } from '@print-contracts/client';
import { describe, expect, it } from 'vitest';
import { EXAMPLE_ORDER, UNKNOWN_ORDER_ID } from '../src/fixtures/examples.js';
import { INVOICE_ADDRESS_CHANGE, ORDER_UPDATES } from '../src/fixtures/orders.js';
import { ORDER_DETAIL } from '../src/fixtures/responses.js';
import { documentedStatus, successStatus } from '../src/matchers.js';
import { PROVIDER_STATES } from '../src/provider-states.js';
import { type InjectedKey, injectedOrderPath, orderPath } from '../src/request-paths.js';
import { contractPact } from './support/contract-pact.js';

const { updateOrder } = operations;

/** The two ways to update (PUT, and POST on the order's path) by the two ways to name an order. */
const UPDATES = [
  { operation: 'updateOrder', key: 'id' },
  { operation: 'updateOrder', key: 'uuid' },
  { operation: 'updateOrderWithPost', key: 'id' },
  { operation: 'updateOrderWithPost', key: 'uuid' },
] as const satisfies ReadonlyArray<{ operation: 'updateOrder' | 'updateOrderWithPost'; key: InjectedKey }>;

const NAMES: Readonly<Record<InjectedKey, string>> = { id: 'numeric id', uuid: 'uuid' };

describe.each(API_VERSIONS)('the orders client updating orders (%s)', (version) => {
  const pact = contractPact(version, import.meta.url);

  for (const { operation: name, key } of UPDATES) {
    const operation = operations[name];
    const ref: OrderRef = EXAMPLE_ORDER[key];

    it(`${version}: updates an order with ${operation.method} by its ${NAMES[key]}`, () =>
      pact
        .addInteraction()
        .given(PROVIDER_STATES.orderExists.name)
        .uponReceiving(`a ${operation.method} request to update an order by its ${NAMES[key]}`)
        .withRequest(operation.method, injectedOrderPath(operation, key, ref), (request) =>
          request.headers(pact.requestHeaders()).jsonBody(ORDER_UPDATES[version]),
        )
        .willRespondWith(successStatus(200), (response) => response.jsonBody(ORDER_DETAIL))
        .executeTest(
          pact.withClient(async (client) => {
            const updated =
              name === 'updateOrder'
                ? await client.updateOrder(ref, ORDER_UPDATES[version])
                : await client.updateOrderWithPost(ref, ORDER_UPDATES[version]);
            expect(updated).toMatchObject({ id: EXAMPLE_ORDER.id, uuid: EXAMPLE_ORDER.uuid });
          }),
        ));
  }

  it(`${version}: is refused with 400 when an update changes the invoice address`, () =>
    pact
      .addInteraction()
      .given(PROVIDER_STATES.orderExists.name)
      .uponReceiving('a request to change the invoice address of an order')
      .withRequest(updateOrder.method, injectedOrderPath(updateOrder, 'id', EXAMPLE_ORDER.id), (request) =>
        request.headers(pact.requestHeaders()).jsonBody(INVOICE_ADDRESS_CHANGE),
      )
      .willRespondWith(documentedStatus(updateOrder, 400))
      .executeTest(
        pact.withClient(async (client) => {
          const error = await client
            .send('updateOrder', { id: EXAMPLE_ORDER.id, body: INVOICE_ADDRESS_CHANGE }, { validate: false })
            .catch((caught: unknown) => caught);
          expect(isHttpError(error) && error.status).toBe(400);
        }),
      ));

  it(`${version}: gets a 404 updating an order id that does not exist`, () =>
    pact
      .addInteraction()
      .given(PROVIDER_STATES.noOrderWithId.name, { id: UNKNOWN_ORDER_ID })
      .uponReceiving('a request to update an order with an unknown id')
      .withRequest(updateOrder.method, orderPath(updateOrder, UNKNOWN_ORDER_ID), (request) =>
        request.headers(pact.requestHeaders()).jsonBody(ORDER_UPDATES[version]),
      )
      .willRespondWith(documentedStatus(updateOrder, 404))
      .executeTest(
        pact.withClient(async (client) => {
          const error = await client
            .updateOrder(UNKNOWN_ORDER_ID, ORDER_UPDATES[version])
            .catch((caught: unknown) => caught);
          expect(isHttpError(error) && error.status).toBe(404);
        }),
      ));
});
