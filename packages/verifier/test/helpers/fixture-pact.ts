import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { type ApiVersion, exampleOrder, versionHeaderValue } from '@print-contracts/client';
import {
  CONSUMER_NAME,
  PLACEHOLDER_CREDENTIALS,
  PROVIDER_STATES,
  pactFileName,
  providerName,
  WRONG_SECRET,
} from '@print-contracts/client/kit';

/**
 * Small hand-built V4 pacts in the shape the consumer suite writes (placeholder credentials,
 * `/api` paths, ids injected from provider states), for the verifier's tests: they do not
 * depend on `contracts/` existing, and a test can bend one to break a contract.
 */
type Json = Record<string, unknown>;

const rule = (match: string, extra: Json = {}) => ({ combine: 'AND', matchers: [{ match, ...extra }] });

const credentials = (version: ApiVersion, secret: string = PLACEHOLDER_CREDENTIALS.secret) => ({
  headers: {
    Accept: [versionHeaderValue(version)],
    'User-ID': [PLACEHOLDER_CREDENTIALS.userId],
    'API-Secret': [secret],
  },
  matchingRules: {
    header: { 'User-ID': rule('type'), ...(secret === WRONG_SECRET ? {} : { 'API-Secret': rule('type') }) },
  },
});

const jsonBody = (content: unknown) => ({ contentType: 'application/json', encoded: false, content });

const injected = (key: 'id' | 'uuid', example: string, suffix = '') => ({
  path: `/api/orders/${example}${suffix}`,
  generators: {
    path: { type: 'ProviderState', expression: `/api/orders/\${${key}}${suffix}`, dataType: 'STRING' },
  },
});

/** The client's example order as the contract's create body, a test order unless `testOrder` is false. */
export function testOrderBody(version: ApiVersion, testOrder = true): Json {
  return exampleOrder(version, testOrder ? { testOrder: true } : {}) as Json;
}

const ORDER_EXAMPLE = {
  id: 1001,
  number: 'DDB1001',
  status: 'in-progress',
  uuid: '5eed0000-0000-4000-8000-000000000001',
};
const orderRules = {
  body: {
    $: rule('type'),
    '$.status': rule('regex', { regex: '^(in-progress|completed|cancelled|unknown)$' }),
  },
};

/** The interactions of the fixture pact for `version`, in file order. */
export function fixtureInteractions(version: ApiVersion): Json[] {
  const auth = credentials(version);
  const list = {
    type: 'Synchronous/HTTP',
    description: 'a request for the first page of orders',
    request: { method: 'GET', path: '/api/orders', ...auth },
    response: {
      status: 200,
      body: jsonBody({
        count: 1,
        orders: [{ id: 1001, number: 'DDB1001', status: 'in-progress', date: '2025-03-01T10:00:00+01:00' }],
      }),
      matchingRules: { body: { $: rule('type'), '$.orders': rule('type', { min: 0 }) } },
    },
  };
  const get = {
    type: 'Synchronous/HTTP',
    description: 'a request for an order by id',
    providerStates: [{ name: PROVIDER_STATES.orderExists.name, params: {} }],
    request: { method: 'GET', ...injected('id', '1001'), ...auth },
    response: { status: 200, body: jsonBody(ORDER_EXAMPLE), matchingRules: orderRules },
  };
  const getByUuid = {
    type: 'Synchronous/HTTP',
    description: 'a request for an order by uuid',
    providerStates: [{ name: PROVIDER_STATES.orderExists.name, params: {} }],
    request: { method: 'GET', ...injected('uuid', ORDER_EXAMPLE.uuid), ...auth },
    response: { status: 200, body: jsonBody(ORDER_EXAMPLE), matchingRules: orderRules },
  };
  const create = {
    type: 'Synchronous/HTTP',
    description: 'a request to create a test order',
    request: {
      method: 'POST',
      path: '/api/orders',
      headers: { ...auth.headers, 'Content-Type': ['application/json'] },
      matchingRules: auth.matchingRules,
      body: jsonBody(testOrderBody(version)),
    },
    response: {
      status: 201,
      body: jsonBody({ uuid: '93d738e8-bde8-43b8-8c22-9f74feddd999' }),
      matchingRules: { body: { $: rule('type') } },
    },
  };
  const cancelWith = (description: string, state: string, response: { status: number; body: unknown }) => ({
    type: 'Synchronous/HTTP',
    description,
    providerStates: [{ name: state, params: {} }],
    request: {
      method: 'DELETE',
      ...injected('id', '1001'),
      headers: { ...auth.headers, 'Content-Type': ['application/json'] },
      matchingRules: auth.matchingRules,
      body: jsonBody({ reason: 'Ordered by mistake' }),
    },
    response: { status: response.status, body: jsonBody(response.body) },
  });
  const cancel = cancelWith('a request to cancel an order', PROVIDER_STATES.orderExists.name, {
    status: 200,
    body: { success: true },
  });
  const cancelInProduction = cancelWith(
    'a request to cancel an order in production',
    PROVIDER_STATES.orderInProductionExists.name,
    { status: 500, body: { message: 'Cancel order failed' } },
  );
  const failed = {
    type: 'Synchronous/HTTP',
    description: 'a request for an order whose creation failed',
    providerStates: [{ name: PROVIDER_STATES.orderCreationFailed.name, params: {} }],
    request: { method: 'GET', ...injected('uuid', ORDER_EXAMPLE.uuid), ...auth },
    response: {
      status: 404,
      body: jsonBody({ message: 'Order creation failed: unknown product' }),
      matchingRules: { body: { '$.message': rule('regex', { regex: '(?i).*fail.*' }) } },
    },
  };
  const otherTenant = {
    type: 'Synchronous/HTTP',
    description: "a request for another credential set's order",
    providerStates: [{ name: PROVIDER_STATES.otherCredentialSetOrderExists.name, params: {} }],
    request: { method: 'GET', ...injected('id', '1001'), ...auth },
    response: { status: 404 },
  };
  const unknown = {
    type: 'Synchronous/HTTP',
    description: 'a request for an unknown order',
    providerStates: [{ name: PROVIDER_STATES.noOrderWithId.name, params: { id: 987654321 } }],
    request: { method: 'GET', path: '/api/orders/987654321', ...auth },
    response: { status: 404 },
  };
  const wrongSecret = {
    type: 'Synchronous/HTTP',
    description: 'a request with a wrong secret',
    request: { method: 'GET', path: '/api/orders', ...credentials(version, WRONG_SECRET) },
    response: { status: 401 },
  };
  return [
    list,
    get,
    getByUuid,
    create,
    cancel,
    cancelInProduction,
    failed,
    otherTenant,
    unknown,
    wrongSecret,
  ].map((interaction, index) => ({ ...interaction, key: `${version}-${index}` }));
}

/** A whole V4 pact document for `version`. */
export function fixturePact(version: ApiVersion, interactions: Json[] = fixtureInteractions(version)): Json {
  return {
    consumer: { name: CONSUMER_NAME },
    provider: { name: providerName(version) },
    interactions,
    metadata: { pactSpecification: { version: '4.0' } },
  };
}

/** Writes the fixture pacts (or bent ones) into `dir`, under the names the consumer suite uses. */
export async function writeFixturePacts(
  dir: string,
  versions: readonly ApiVersion[] = ['v1', 'v2'],
  bend: (version: ApiVersion, interactions: Json[]) => Json[] = (_version, interactions) => interactions,
): Promise<string> {
  await mkdir(dir, { recursive: true });
  for (const version of versions) {
    const pact = fixturePact(version, bend(version, fixtureInteractions(version)));
    await writeFile(join(dir, pactFileName(version)), JSON.stringify(pact, null, 2));
  }
  return dir;
}
