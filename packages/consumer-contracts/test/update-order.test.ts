import { API_VERSIONS, isHttpError, type OrderRef, operations } from '@print-contracts/client';
import { PROVIDER_STATES, UNKNOWN_ORDER_ID } from '@print-contracts/client/kit';
import { describe, expect, it } from 'vitest';
import { assumed, DOCS, documented, SUCCESS_CLASS } from '../src/expectations.js';
import { EXAMPLE_ORDER, EXAMPLE_ORDER_IN_PRODUCTION } from '../src/fixtures/examples.js';
import { ORDER_UPDATES } from '../src/fixtures/orders.js';
import {
  clientErrorStatus,
  documentedStatus,
  type InjectedKey,
  injectedOrderPath,
  orderPath,
  successStatus,
} from '../src/matchers.js';
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

/** What an update answers is undocumented: the contracts pin the class only, and no body. */
const NO_ANSWER_BODY = assumed('the answer body is not read: the docs do not say what an update answers');

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
        .comment(
          documented(`${operation.method} on the order's path, by id or uuid, updates it`, DOCS.updateOrder),
        )
        .comment(SUCCESS_CLASS)
        .comment(NO_ANSWER_BODY)
        .withRequest(operation.method, injectedOrderPath(operation, key, ref), (request) =>
          request.headers(pact.requestHeaders()).jsonBody(ORDER_UPDATES.partial),
        )
        .willRespondWith(successStatus(200))
        .executeTest(
          pact.withClient(async (client) => {
            const update = name === 'updateOrder' ? client.updateOrder : client.updateOrderWithPost;
            await expect(update.call(client, ref, ORDER_UPDATES.partial)).resolves.not.toThrow();
          }),
        ));
  }

  it(`${version}: updates an order with the whole payload, whose invoiceAddress and deliveryMethod the vendor ignores`, () =>
    pact
      .addInteraction()
      .given(PROVIDER_STATES.orderExists.name)
      .uponReceiving('a request to update an order with the whole payload')
      .comment(
        documented(
          'invoiceAddress, externalId and deliveryMethod "can\'t be changed", and a body with them has "the same result"',
          DOCS.updateOrder,
        ),
      )
      .comment(SUCCESS_CLASS)
      .comment(NO_ANSWER_BODY)
      .withRequest(updateOrder.method, injectedOrderPath(updateOrder, 'id', EXAMPLE_ORDER.id), (request) =>
        request.headers(pact.requestHeaders()).jsonBody(ORDER_UPDATES.whole),
      )
      .willRespondWith(successStatus(200))
      .executeTest(
        pact.withClient(async (client) => {
          await expect(client.updateOrder(EXAMPLE_ORDER.id, ORDER_UPDATES.whole)).resolves.not.toThrow();
        }),
      ));

  it(`${version}: is refused with 400 updating an order that can no longer be modified`, () =>
    pact
      .addInteraction()
      .given(PROVIDER_STATES.orderInProductionExists.name)
      .uponReceiving('a request to update an order in production')
      .comment(
        documented('"If a field can (no longer) be modified, you will receive a 400"', DOCS.updateOrder),
      )
      .withRequest(
        updateOrder.method,
        injectedOrderPath(updateOrder, 'id', EXAMPLE_ORDER_IN_PRODUCTION.id),
        (request) => request.headers(pact.requestHeaders()).jsonBody(ORDER_UPDATES.partial),
      )
      .willRespondWith(documentedStatus(updateOrder, 400))
      .executeTest(
        pact.withClient(async (client) => {
          const error = await client
            .updateOrder(EXAMPLE_ORDER_IN_PRODUCTION.id, ORDER_UPDATES.partial)
            .catch((caught: unknown) => caught);
          expect(isHttpError(error) && error.status).toBe(400);
        }),
      ));

  it(`${version}: is refused updating an order id that does not exist`, () =>
    pact
      .addInteraction()
      .given(PROVIDER_STATES.noOrderWithId.name, { id: UNKNOWN_ORDER_ID })
      .uponReceiving('a request to update an order with an unknown id')
      .comment(assumed('a refusal (4xx); the docs give no status for an unknown order on update'))
      .withRequest(updateOrder.method, orderPath(updateOrder, UNKNOWN_ORDER_ID), (request) =>
        request.headers(pact.requestHeaders()).jsonBody(ORDER_UPDATES.partial),
      )
      .willRespondWith(clientErrorStatus(404))
      .executeTest(
        pact.withClient(async (client) => {
          const error = await client
            .updateOrder(UNKNOWN_ORDER_ID, ORDER_UPDATES.partial)
            .catch((caught: unknown) => caught);
          expect(isHttpError(error) && error.status).toBe(404);
        }),
      ));
});
