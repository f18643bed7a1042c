import { API_VERSIONS, CANCEL_REFUSED_MESSAGE, isHttpError, operations } from '@print-contracts/client';
import { PROVIDER_STATES, UNKNOWN_ORDER_ID } from '@print-contracts/client/kit';
import { describe, expect, it } from 'vitest';
import { assumed, DOCS, documented, SUCCESS_CLASS } from '../src/expectations.js';
import { EXAMPLE_ORDER, EXAMPLE_ORDER_IN_PRODUCTION } from '../src/fixtures/examples.js';
import { CANCEL_REASON } from '../src/fixtures/orders.js';
import { CANCEL_REFUSED, ORDER_CANCELLED } from '../src/fixtures/responses.js';
import {
  clientErrorStatus,
  documentedStatus,
  injectedOrderPath,
  JSON_ANSWER_HEADERS,
  orderPath,
  successStatus,
} from '../src/matchers.js';
import { contractPact } from './support/contract-pact.js';

const { cancelOrder } = operations;

describe.each(API_VERSIONS)('the orders client cancelling orders (%s)', (version) => {
  const pact = contractPact(version, import.meta.url);

  it(`${version}: cancels an order with a reason`, () =>
    pact
      .addInteraction()
      .given(PROVIDER_STATES.orderExists.name)
      .uponReceiving('a request to cancel an order with a reason')
      .comment(
        documented('DELETE with {"reason": …} cancels and answers {"success": true}', DOCS.cancelOrder),
      )
      .comment(SUCCESS_CLASS)
      .withRequest(cancelOrder.method, injectedOrderPath(cancelOrder, 'id', EXAMPLE_ORDER.id), (request) =>
        request.headers(pact.requestHeaders()).jsonBody({ reason: CANCEL_REASON }),
      )
      .willRespondWith(successStatus(200), (response) =>
        response.headers(JSON_ANSWER_HEADERS).jsonBody(ORDER_CANCELLED),
      )
      .executeTest(
        pact.withClient(async (client) => {
          await expect(client.cancelOrder(EXAMPLE_ORDER.id, CANCEL_REASON)).resolves.toEqual({
            success: true,
          });
        }),
      ));

  it(`${version}: is refused with 500 "${CANCEL_REFUSED_MESSAGE}" for an order in production`, () =>
    pact
      .addInteraction()
      .given(PROVIDER_STATES.orderInProductionExists.name)
      .uponReceiving('a request to cancel an order in production')
      .comment(documented('500 that "contains the message Cancel order failed"', DOCS.cancelOrder))
      .comment(assumed('the answer is JSON holding the message anywhere; the docs name no key'))
      .withRequest(
        cancelOrder.method,
        injectedOrderPath(cancelOrder, 'id', EXAMPLE_ORDER_IN_PRODUCTION.id),
        (request) => request.headers(pact.requestHeaders()).jsonBody({ reason: CANCEL_REASON }),
      )
      .willRespondWith(documentedStatus(cancelOrder, 500), (response) =>
        response.headers(JSON_ANSWER_HEADERS).jsonBody(CANCEL_REFUSED),
      )
      .executeTest(
        pact.withClient(async (client) => {
          const error = await client
            .cancelOrder(EXAMPLE_ORDER_IN_PRODUCTION.id, CANCEL_REASON)
            .catch((caught: unknown) => caught);
          expect(isHttpError(error) && { status: error.status, message: error.vendorMessage }).toEqual({
            status: 500,
            message: CANCEL_REFUSED_MESSAGE,
          });
        }),
      ));

  it(`${version}: is refused cancelling an order id that does not exist`, () =>
    pact
      .addInteraction()
      .given(PROVIDER_STATES.noOrderWithId.name, { id: UNKNOWN_ORDER_ID })
      .uponReceiving('a request to cancel an order with an unknown id')
      .comment(assumed('a refusal (4xx); the docs give no status for an unknown order on cancel'))
      .withRequest(cancelOrder.method, orderPath(cancelOrder, UNKNOWN_ORDER_ID), (request) =>
        request.headers(pact.requestHeaders()).jsonBody({ reason: CANCEL_REASON }),
      )
      .willRespondWith(clientErrorStatus(404))
      .executeTest(
        pact.withClient(async (client) => {
          const error = await client
            .cancelOrder(UNKNOWN_ORDER_ID, CANCEL_REASON)
            .catch((caught: unknown) => caught);
          expect(isHttpError(error) && error.status).toBe(404);
        }),
      ));
});
