import { MatchersV3 } from '@pact-foundation/pact';
import { API_VERSIONS, LIST_LIMIT_MAX, type OrderStatus, operations } from '@print-contracts/client';
import { PROVIDER_STATES } from '@print-contracts/client/kit';
import { describe, expect, it } from 'vitest';
import { assumed, DOCS, documented, SUCCESS_CLASS } from '../src/expectations.js';
import { OFFSET_PAST_THE_END } from '../src/fixtures/examples.js';
import { EMPTY_ORDER_PAGE, ORDER_LIST, ORDER_SUMMARY, orderPage } from '../src/fixtures/responses.js';
import { JSON_ANSWER_HEADERS, oneOf, orderPath, successStatus } from '../src/matchers.js';
import { contractPact } from './support/contract-pact.js';

const PAGE_LIMIT = 10;
const PAGE_OFFSET = 10;
const FILTER_STATUS: OrderStatus = 'cancelled';

describe.each(API_VERSIONS)('the orders client listing orders (%s)', (version) => {
  const pact = contractPact(version, import.meta.url);
  const path = orderPath(operations.listOrders);

  it(`${version}: lists the first page of orders`, () =>
    pact
      .addInteraction()
      .given(PROVIDER_STATES.orderExists.name)
      .uponReceiving('a request for the first page of orders')
      .comment(SUCCESS_CLASS)
      .comment(
        documented('the list shape: count and orders of id, number, status, date, uuid', DOCS.listOrders),
      )
      .withRequest(operations.listOrders.method, path, (request) => request.headers(pact.requestHeaders()))
      .willRespondWith(successStatus(200), (response) =>
        response.headers(JSON_ANSWER_HEADERS).jsonBody(ORDER_LIST),
      )
      .executeTest(
        pact.withClient(async (client) => {
          const page = await client.listOrders();
          expect(page.orders).toHaveLength(1);
          expect(page.orders[0]).toMatchObject({ id: expect.any(Number), date: expect.any(String) });
        }),
      ));

  it(`${version}: asks for a page with a limit and an offset`, () =>
    pact
      .addInteraction()
      .uponReceiving('a request for a page of orders with a limit and an offset')
      .comment(SUCCESS_CLASS)
      .comment(documented('limit (at most 50) and offset page the list', DOCS.listOrders))
      .withRequest(operations.listOrders.method, path, (request) =>
        request
          .query({ limit: String(PAGE_LIMIT), offset: String(PAGE_OFFSET) })
          .headers(pact.requestHeaders()),
      )
      .willRespondWith(successStatus(200), (response) =>
        response.headers(JSON_ANSWER_HEADERS).jsonBody(orderPage(PAGE_LIMIT)),
      )
      .executeTest(
        pact.withClient(async (client) => {
          const page = await client.listOrders({ limit: PAGE_LIMIT, offset: PAGE_OFFSET });
          expect(page.orders.length).toBeLessThanOrEqual(PAGE_LIMIT);
          expect(page.orders[0]?.id).toEqual(expect.any(Number));
        }),
      ));

  it(`${version}: gets an empty page past the last order`, () =>
    pact
      .addInteraction()
      .given(PROVIDER_STATES.fewerOrdersThanOffset.name, { offset: OFFSET_PAST_THE_END })
      .uponReceiving('a request for a page of orders past the last one')
      .comment(SUCCESS_CLASS)
      .comment(documented('"finally you will receive an empty result set"', DOCS.listOrders))
      .comment(assumed('the empty page still has a count'))
      .withRequest(operations.listOrders.method, path, (request) =>
        request
          .query({ limit: String(LIST_LIMIT_MAX), offset: String(OFFSET_PAST_THE_END) })
          .headers(pact.requestHeaders()),
      )
      .willRespondWith(successStatus(200), (response) =>
        response.headers(JSON_ANSWER_HEADERS).jsonBody(EMPTY_ORDER_PAGE),
      )
      .executeTest(
        pact.withClient(async (client) => {
          const page = await client.listOrders({ limit: LIST_LIMIT_MAX, offset: OFFSET_PAST_THE_END });
          expect(page.orders).toEqual([]);
        }),
      ));

  it(`${version}: filters the orders on one status`, () =>
    pact
      .addInteraction()
      .given(PROVIDER_STATES.ordersWithStatusExist.name, { status: FILTER_STATUS })
      .uponReceiving(`a request for the orders with status ${FILTER_STATUS}`)
      .comment(SUCCESS_CLASS)
      .comment(documented('the status parameter shows only orders of that status', DOCS.listOrders))
      .withRequest(operations.listOrders.method, path, (request) =>
        request.query({ status: FILTER_STATUS }).headers(pact.requestHeaders()),
      )
      .willRespondWith(successStatus(200), (response) =>
        // Every order of a filtered page has exactly that status: that is what the filter promises.
        response.headers(JSON_ANSWER_HEADERS).jsonBody({
          ...ORDER_LIST,
          orders: MatchersV3.eachLike({ ...ORDER_SUMMARY, status: oneOf([FILTER_STATUS], FILTER_STATUS) }),
        }),
      )
      .executeTest(
        pact.withClient(async (client) => {
          const page = await client.listOrders({ status: FILTER_STATUS });
          expect(page.orders.map((order) => order.status)).toEqual([FILTER_STATUS]);
        }),
      ));
});
