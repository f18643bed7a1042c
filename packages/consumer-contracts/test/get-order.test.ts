import { API_VERSIONS, isHttpError, isOrderCreationFailedError, operations } from '@print-contracts/client';
import { PROVIDER_STATES, UNKNOWN_ORDER_ID, VENDOR_EXAMPLES } from '@print-contracts/client/kit';
import { describe, expect, it } from 'vitest';
import { assumed, DOCS, documented, SUCCESS_CLASS } from '../src/expectations.js';
import { EXAMPLE_FAILED_ORDER, EXAMPLE_ORDER } from '../src/fixtures/examples.js';
import { CREATION_FAILED, DISCOUNTED_ORDER, ORDER_DETAIL, SHIPPED_ORDER } from '../src/fixtures/responses.js';
import {
  documentedStatus,
  injectedOrderPath,
  JSON_ANSWER_HEADERS,
  orderPath,
  successStatus,
} from '../src/matchers.js';
import { contractPact } from './support/contract-pact.js';

const { getOrder } = operations;
const detail = VENDOR_EXAMPLES.orderDetail.body;

describe.each(API_VERSIONS)('the orders client reading an order (%s)', (version) => {
  const pact = contractPact(version, import.meta.url);

  it(`${version}: reads an order by its numeric id`, () =>
    pact
      .addInteraction()
      .given(PROVIDER_STATES.orderExists.name)
      .uponReceiving('a request for an order by its numeric id')
      .comment(SUCCESS_CLASS)
      .comment(documented('the order detail shape, with each variation its example shows', DOCS.getOrder))
      .withRequest(getOrder.method, injectedOrderPath(getOrder, 'id', EXAMPLE_ORDER.id), (request) =>
        request.headers(pact.requestHeaders()),
      )
      .willRespondWith(successStatus(200), (response) =>
        response.headers(JSON_ANSWER_HEADERS).jsonBody(ORDER_DETAIL),
      )
      .executeTest(
        pact.withClient(async (client) => {
          const order = await client.getOrder(EXAMPLE_ORDER.id);
          expect(order).toMatchObject({ id: detail.id, status: detail.status });
          expect(order.lines[0]?.status).toBe(detail.lines[0].status);
        }),
      ));

  it(`${version}: reads an order by its uuid`, () =>
    pact
      .addInteraction()
      .given(PROVIDER_STATES.orderExists.name)
      .uponReceiving('a request for an order by its uuid')
      .comment(SUCCESS_CLASS)
      .comment(documented('an order is read by its id or its uuid', DOCS.getOrder))
      .withRequest(getOrder.method, injectedOrderPath(getOrder, 'uuid', EXAMPLE_ORDER.uuid), (request) =>
        request.headers(pact.requestHeaders()),
      )
      .willRespondWith(successStatus(200), (response) =>
        response.headers(JSON_ANSWER_HEADERS).jsonBody(ORDER_DETAIL),
      )
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
      .comment(documented('404 for an order that does not exist', DOCS.getOrder))
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
      .comment(documented('404 "with an error message that the order creation has failed"', DOCS.getOrder))
      .comment(assumed('the answer is JSON that says "fail" somewhere; the docs name no key'))
      .withRequest(
        getOrder.method,
        injectedOrderPath(getOrder, 'uuid', EXAMPLE_FAILED_ORDER.uuid),
        (request) => request.headers(pact.requestHeaders()),
      )
      .willRespondWith(documentedStatus(getOrder, 404), (response) =>
        response.headers(JSON_ANSWER_HEADERS).jsonBody(CREATION_FAILED),
      )
      .executeTest(
        pact.withClient(async (client) => {
          const error = await client
            .waitForOrder(EXAMPLE_FAILED_ORDER.uuid, { timeoutMs: 1_000 })
            .catch((caught: unknown) => caught);
          expect(isOrderCreationFailedError(error) && error.uuid).toBe(EXAMPLE_FAILED_ORDER.uuid);
        }),
      ));
  it(`${version}: reads the track-and-trace URLs of a shipped line`, () =>
    pact
      .addInteraction()
      .given(PROVIDER_STATES.shippedOrderExists.name)
      .uponReceiving('a request for an order with a shipped line')
      .comment(SUCCESS_CLASS)
      .comment(documented('a shipped line lists its shipments with a trackAndTraceUrl list', DOCS.getOrder))
      .withRequest(getOrder.method, injectedOrderPath(getOrder, 'id', detail.id), (request) =>
        request.headers(pact.requestHeaders()),
      )
      .willRespondWith(successStatus(200), (response) =>
        response.headers(JSON_ANSWER_HEADERS).jsonBody(SHIPPED_ORDER),
      )
      .executeTest(
        pact.withClient(async (client) => {
          const order = await client.getOrder(detail.id);
          const urls = order.lines.flatMap((line) =>
            (line.shipmentInfo ?? []).flatMap((shipment) => shipment.trackAndTraceUrl),
          );
          expect(urls).toEqual([expect.stringMatching(/^https?:\/\//)]);
        }),
      ));

  it(`${version}: reads the customer discount of a line`, () =>
    pact
      .addInteraction()
      .given(PROVIDER_STATES.discountedOrderExists.name)
      .uponReceiving('a request for an order with a customer discount')
      .comment(SUCCESS_CLASS)
      .comment(
        documented('customerDiscount holds discountAmount and discountTaxAmount, or null', DOCS.getOrder),
      )
      .withRequest(getOrder.method, injectedOrderPath(getOrder, 'id', detail.id), (request) =>
        request.headers(pact.requestHeaders()),
      )
      .willRespondWith(successStatus(200), (response) =>
        response.headers(JSON_ANSWER_HEADERS).jsonBody(DISCOUNTED_ORDER),
      )
      .executeTest(
        pact.withClient(async (client) => {
          const order = await client.getOrder(detail.id);
          expect(order.lines[0]?.customerDiscount).toEqual({
            discountAmount: expect.any(Number),
            discountTaxAmount: expect.any(Number),
          });
        }),
      ));
});
