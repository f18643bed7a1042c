import { API_VERSIONS, isHttpError, operations } from '@print-contracts/client';
import { PROVIDER_STATES } from '@print-contracts/client/kit';
import { describe, expect, it } from 'vitest';
import { assumed, DOCS, documented } from '../src/expectations.js';
import { EXAMPLE_OTHER_SET_ORDER } from '../src/fixtures/examples.js';
import { clientErrorStatus, injectedOrderPath, orderPath } from '../src/matchers.js';
import { contractPact } from './support/contract-pact.js';

const { listOrders, getOrder } = operations;

/** The sample API's status for refused credentials; the vendor documents none, so the pact asks for any 4xx. */
const REFUSED_EXAMPLE = 401;

describe.each(API_VERSIONS)('the orders client with refused credentials (%s)', (version) => {
  const pact = contractPact(version, import.meta.url);

  it.each([
    {
      credentials: 'none',
      refused: 'when a request arrives without credentials',
      request: 'without credentials',
    },
    { credentials: 'wrong-secret', refused: 'with a wrong secret', request: 'with a wrong secret' },
  ] as const)(`${version}: is refused $refused`, ({ credentials, request: which }) =>
    pact
      .addInteraction()
      .uponReceiving(`a request for the orders ${which}`)
      .comment(
        documented(
          '"Each request needs to have these headers, otherwise your request will fail"',
          DOCS.authentication,
        ),
      )
      .comment(assumed('the failure is a refusal (4xx); the docs give no status'))
      .withRequest(listOrders.method, orderPath(listOrders), (request) =>
        request.headers(pact.requestHeaders({ credentials })),
      )
      .willRespondWith(clientErrorStatus(REFUSED_EXAMPLE))
      .executeTest(
        pact.withClient(
          async (client) => {
            const error = await client.listOrders().catch((caught: unknown) => caught);
            expect(isHttpError(error) && error.status).toBe(REFUSED_EXAMPLE);
          },
          { credentials },
        ),
      ),
  );

  it(`${version}: is refused an order of another credential set`, () =>
    pact
      .addInteraction()
      .given(PROVIDER_STATES.otherCredentialSetOrderExists.name)
      .uponReceiving('a request for an order of another credential set')
      .comment(
        assumed(
          "a refusal (4xx): a credential set sees only its own orders; the docs say nothing of other sets' orders",
        ),
      )
      .withRequest(
        getOrder.method,
        injectedOrderPath(getOrder, 'id', EXAMPLE_OTHER_SET_ORDER.id),
        (request) => request.headers(pact.requestHeaders()),
      )
      .willRespondWith(clientErrorStatus(404))
      .executeTest(
        pact.withClient(async (client) => {
          const error = await client.getOrder(EXAMPLE_OTHER_SET_ORDER.id).catch((caught: unknown) => caught);
          expect(isHttpError(error) && error.status).toBe(404);
        }),
      ));
});
