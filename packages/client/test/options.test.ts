import { setTimeout as sleep } from 'node:timers/promises';
import { Agent } from 'undici';
import { describe, expect, it } from 'vitest';
import {
  API_VERSIONS,
  ConfigurationError,
  createOrdersClient,
  DEFAULT_BASE_URL,
  DEFAULT_VERSION_HEADER,
  ENV,
  isConfigurationError,
  OrdersClient,
  type OrdersClientOptions,
  SECRET_HEADER,
  TransportError,
  USER_ID_HEADER,
  versionHeaderValue,
} from '../src/index.js';
import { optionsFromEnv } from '../src/options.js';
import { createBodies, jsonOf, ORDER_ID, orderDetail, SECRET, USER_ID } from './support/fixtures.js';
import { reply, send, useScriptedServer } from './support/scripted-server.js';

const api = useScriptedServer();

const credentials = { userId: USER_ID, secret: SECRET };

/** What the constructor threw for `options`. */
function configurationError(options: Partial<OrdersClientOptions>): ConfigurationError {
  try {
    new OrdersClient(options as OrdersClientOptions).close();
  } catch (error) {
    if (isConfigurationError(error)) return error;
    throw error;
  }
  throw new Error('expected a ConfigurationError');
}

/** Waits until `condition` holds; the test's own time limit bounds it. */
async function eventually(condition: () => boolean): Promise<void> {
  while (!condition()) await sleep(5);
}

describe.each(API_VERSIONS)('the headers a %s client sends', (apiVersion) => {
  it('sends User-ID, API-Secret and the version in Accept on every request', async () => {
    api.server.handle(reply(200, orderDetail));
    await api.client({ apiVersion }).getOrder(ORDER_ID);
    const { headers } = api.server.request();
    expect(headers[USER_ID_HEADER.toLowerCase()]).toBe(USER_ID);
    expect(headers[SECRET_HEADER.toLowerCase()]).toBe(SECRET);
    expect(headers.accept).toBe(`application/vnd.printdeal-api.${apiVersion}`);
    expect(headers['content-type']).toBeUndefined();
  });

  it('sends the same headers, and a JSON content type, with a body', async () => {
    api.server.handle(reply(201, { uuid: orderDetail.uuid }));
    await api.client({ apiVersion }).createOrder(createBodies[apiVersion]);
    expect(api.server.request().headers).toMatchObject({
      'user-id': USER_ID,
      'api-secret': SECRET,
      accept: versionHeaderValue(apiVersion),
      'content-type': 'application/json',
    });
  });

  it('sends extra headers on every request, but never lets them replace the credentials or version', async () => {
    api.server.handle(reply(200, orderDetail));
    const headers = { 'X-Trace-Id': 'trace-1', 'user-id': 'intruder', ACCEPT: 'text/plain' };
    await api.client({ apiVersion, headers }).getOrder(ORDER_ID);
    const sent = api.server.request().headers;
    expect(sent['x-trace-id']).toBe('trace-1');
    expect(sent['user-id']).toBe(USER_ID);
    expect(sent.accept).toBe(versionHeaderValue(apiVersion));
  });

  it('sends no version header at all when versionHeader is false', async () => {
    api.server.handle(reply(200, orderDetail));
    await api.client({ apiVersion, versionHeader: false }).getOrder(ORDER_ID);
    const { headers } = api.server.request();
    expect(headers.accept).toBeUndefined();
    expect(Object.values(headers).join(' ')).not.toContain('printdeal-api');
    expect(headers['user-id']).toBe(USER_ID);
  });

  it('sends the version under a custom header name and template', async () => {
    api.server.handle(reply(200, orderDetail));
    await api
      .client({ apiVersion, versionHeader: { name: 'X-Api-Version', template: 'printdeal-{version}' } })
      .getOrder(ORDER_ID);
    const { headers } = api.server.request();
    expect(headers['x-api-version']).toBe(`printdeal-${apiVersion}`);
    expect(headers.accept).toBeUndefined();
  });
});

describe('the client options', () => {
  it('a client speaks v2 and the vendor’s header by default', async () => {
    api.server.handle(reply(200, orderDetail));
    const client = api.client();
    expect(client.apiVersion).toBe('v2');
    await client.getOrder(ORDER_ID);
    expect(api.server.request().headers[DEFAULT_VERSION_HEADER.name.toLowerCase()]).toBe(
      'application/vnd.printdeal-api.v2',
    );
  });

  it('a client without a baseUrl points at the vendor', () => {
    const client = new OrdersClient(credentials);
    expect(client.baseUrl).toBe(DEFAULT_BASE_URL);
    return client.close();
  });

  it.each([
    ['a trailing slash', '/api/', '/api/orders'],
    ['a longer base path', '/proxy/printdeal/api', '/proxy/printdeal/api/orders'],
    ['no path at all', '', '/orders'],
  ])('a baseUrl with %s puts the orders below it', async (_what, basePath, ordersPath) => {
    api.server.handle(reply(200, { count: 0, orders: [] }));
    await api.client({ baseUrl: `${api.server.origin}${basePath}` }).listOrders();
    expect(api.server.request().path).toBe(ordersPath);
  });

  it('createOrdersClient makes the same client as the constructor', async () => {
    api.server.handle(reply(200, orderDetail));
    const client = createOrdersClient({ ...credentials, baseUrl: api.server.baseUrl, apiVersion: 'v1' });
    try {
      expect(client).toBeInstanceOf(OrdersClient);
      expect(await client.getOrder(ORDER_ID)).toEqual(orderDetail);
      expect(api.server.request().headers.accept).toBe('application/vnd.printdeal-api.v1');
    } finally {
      await client.close();
    }
  });

  it('validateRequests false sends an invalid body, and validate true on a call still checks', async () => {
    api.server.handle(reply(400, { message: 'Invalid order data' }));
    const client = api.client({ validateRequests: false });
    const body = { ...createBodies.v2, reference: 'r'.repeat(40) };
    await expect(client.createOrder(body)).rejects.toMatchObject({ status: 400 });
    expect(jsonOf(api.server.request().body)).toEqual(body);
    await expect(client.createOrder(body, { validate: true })).rejects.toMatchObject({
      code: 'ERR_PRINT_REQUEST_VALIDATION',
    });
    expect(api.server.requests).toHaveLength(1);
  });
});

describe('a ConfigurationError names the option that is wrong', () => {
  it.each([
    ['a password holding ?', 'https://ci:Pa55?w0rdX@api example.com/api'],
    ['a password holding # and /', 'https://ci:Pa#5/w0rdX@api example.com/api'],
    ['a password holding @', 'https://ci:Pa@5w0rdX@api example.com/api'],
    ['no scheme', '//ci:Pa55w0rdX@api example.com/api'],
    ['a space before it', ' https://ci:Pa55w0rdX@api example.com/api'],
  ])('shows no password of a baseUrl that is not a URL, with %s', (_what, baseUrl) => {
    const error = configurationError({ ...credentials, baseUrl });
    expect(error.message).toMatch(/^baseUrl ".*…@api example\.com\/api" is not a URL/);
    expect(error.message).not.toMatch(/w0rdX|Pa55|Pa#|Pa@/);
  });

  it.each([
    ['a baseUrl that is not a URL', { baseUrl: 'api.printdeal.com/api' }, 'baseUrl'],
    ['a baseUrl that is not http', { baseUrl: 'ftp://127.0.0.1/api' }, 'baseUrl'],
    ['a baseUrl with credentials in it', { baseUrl: 'https://user:pw@127.0.0.1/api' }, 'baseUrl'],
    ['a baseUrl with a query', { baseUrl: 'https://127.0.0.1/api?debug=1' }, 'baseUrl'],
    ['a baseUrl with a fragment', { baseUrl: 'https://127.0.0.1/api#orders' }, 'baseUrl'],
    ['an unknown apiVersion', { apiVersion: 'v3' }, 'apiVersion'],
    ['a timeout of 0', { timeoutMs: 0 }, 'timeoutMs'],
    ['a timeout that is not a number', { timeoutMs: Number.NaN }, 'timeoutMs'],
    ['a negative retry count', { retry: { retries: -1 } }, 'retry.retries'],
    ['a fractional retry count', { retry: { retries: 1.5 } }, 'retry.retries'],
    [
      'a version template without {version}',
      { versionHeader: { name: 'Accept', template: 'v2' } },
      'versionHeader',
    ],
    [
      'a version header without a name',
      { versionHeader: { name: '', template: '{version}' } },
      'versionHeader',
    ],
  ])('the client refuses %s', (_what, options, option) => {
    const error = configurationError({ ...credentials, ...(options as Partial<OrdersClientOptions>) });
    expect(error).toBeInstanceOf(ConfigurationError);
    expect(error.code).toBe('ERR_PRINT_CONFIGURATION');
    expect(error.message.startsWith(option)).toBe(true);
  });

  it.each([
    ['a missing userId', { secret: SECRET }, 'userId', ENV.userId],
    ['a blank userId', { userId: '  ', secret: SECRET }, 'userId', ENV.userId],
    ['a missing secret', { userId: USER_ID }, 'secret', ENV.secret],
    ['an empty secret', { userId: USER_ID, secret: '' }, 'secret', ENV.secret],
  ])(
    'the client refuses %s and names the environment variable to set',
    (_what, options, option, variable) => {
      const error = configurationError(options);
      expect(error.message).toContain(option);
      expect(error.message).toContain(variable);
    },
  );
});

describe('OrdersClient.fromEnv', () => {
  const env = (server: { baseUrl: string }) => ({
    [ENV.baseUrl]: server.baseUrl,
    [ENV.userId]: USER_ID,
    [ENV.secret]: SECRET,
  });

  it('OrdersClient.fromEnv reads the base URL, User-ID and secret from the given environment', async () => {
    api.server.handle(reply(200, { count: 0, orders: [] }));
    const client = OrdersClient.fromEnv({}, env(api.server));
    try {
      await client.listOrders();
      expect(api.server.request()).toMatchObject({
        path: '/api/orders',
        headers: { 'user-id': USER_ID, 'api-secret': SECRET },
      });
    } finally {
      await client.close();
    }
  });

  it('OrdersClient.fromEnv reads process.env by default', async () => {
    api.server.handle(reply(200, { count: 0, orders: [] }));
    const saved = { ...process.env };
    Object.assign(process.env, env(api.server));
    try {
      const client = OrdersClient.fromEnv({ apiVersion: 'v1' });
      await client.listOrders();
      await client.close();
      expect(api.server.request().headers).toMatchObject({
        'user-id': USER_ID,
        accept: 'application/vnd.printdeal-api.v1',
      });
    } finally {
      for (const name of Object.values(ENV)) {
        if (saved[name] === undefined) delete process.env[name];
        else process.env[name] = saved[name];
      }
    }
  });

  it('OrdersClient.fromEnv lets options override the environment', async () => {
    api.server.handle(reply(200, { count: 0, orders: [] }));
    const client = OrdersClient.fromEnv(
      { userId: 'override-user' },
      { ...env(api.server), [ENV.baseUrl]: 'http://127.0.0.1:9/api' },
    );
    try {
      expect(client.baseUrl).toBe('http://127.0.0.1:9/api');
    } finally {
      await client.close();
    }
    const pointed = OrdersClient.fromEnv({ userId: 'override-user' }, env(api.server));
    try {
      await pointed.listOrders();
      expect(api.server.request().headers['user-id']).toBe('override-user');
    } finally {
      await pointed.close();
    }
  });

  it('OrdersClient.fromEnv falls back to the vendor’s base URL', async () => {
    const client = OrdersClient.fromEnv({}, { [ENV.userId]: USER_ID, [ENV.secret]: SECRET });
    expect(client.baseUrl).toBe(DEFAULT_BASE_URL);
    await client.close();
  });

  it.each([
    ['no secret', { [ENV.userId]: USER_ID }, ENV.secret],
    ['a blank secret', { [ENV.userId]: USER_ID, [ENV.secret]: '   ' }, ENV.secret],
    ['no User-ID', { [ENV.secret]: SECRET }, ENV.userId],
  ])('OrdersClient.fromEnv with %s throws a ConfigurationError naming %s', (_what, variables, variable) => {
    expect(() => OrdersClient.fromEnv({}, variables)).toThrow(ConfigurationError);
    expect(() => OrdersClient.fromEnv({}, variables)).toThrow(variable);
  });

  it('optionsFromEnv trims values and leaves out a missing base URL', () => {
    expect(optionsFromEnv({ [ENV.userId]: ` ${USER_ID} `, [ENV.secret]: SECRET })).toEqual({
      userId: USER_ID,
      secret: SECRET,
    });
  });
});

describe('connections', () => {
  it('a client keeps its connections alive and reuses them for sequential requests', async () => {
    const client = api.client();
    api.server.handle((request, response) => {
      if (request.path.startsWith('/api/orders?')) send(response, 200, { count: 0, orders: [] });
      else send(response, 200, orderDetail);
    });
    for (let round = 0; round < 5; round++) {
      await client.listOrders({ limit: 1 });
      await client.getOrder(ORDER_ID);
      await client.updateOrder(ORDER_ID, { reference: 'a' });
      await client.updateOrderWithPost(ORDER_ID, { reference: 'b' });
    }
    expect(api.server.requests).toHaveLength(20);
    // undici's pool marks a connection free a tick after its answer has been read, so a request
    // sent at once may open a second connection; from then on the two take turns. (A DELETE
    // with a body is the exception: undici closes its connection afterwards, by design.)
    expect(api.server.connections).toBeLessThanOrEqual(2);
    expect(api.server.openConnections).toBe(api.server.connections);
  });

  it('close() closes the client’s connections, and later calls fail with a TransportError', async () => {
    api.server.handle(reply(200, orderDetail));
    const client = new OrdersClient({ ...credentials, baseUrl: api.server.baseUrl, retry: { retries: 0 } });
    await client.getOrder(ORDER_ID);
    expect(api.server.openConnections).toBe(1);
    await client.close();
    await eventually(() => api.server.openConnections === 0);
    await expect(client.getOrder(ORDER_ID)).rejects.toBeInstanceOf(TransportError);
    expect(api.server.requests).toHaveLength(1);
  });

  it('a client sends through a given dispatcher and leaves it open on close()', async () => {
    api.server.handle(reply(200, orderDetail));
    const seen: string[] = [];
    const agent = new Agent();
    const dispatcher = agent.compose((dispatch) => (options, handler) => {
      seen.push(`${options.method} ${options.path}`);
      return dispatch(options, handler);
    });
    try {
      const first = new OrdersClient({ ...credentials, baseUrl: api.server.baseUrl, dispatcher });
      await first.getOrder(ORDER_ID);
      await first.close();
      expect(agent.closed).toBe(false);
      const second = new OrdersClient({ ...credentials, baseUrl: api.server.baseUrl, dispatcher });
      await second.getOrder(ORDER_ID);
      expect(seen).toEqual([`GET /api/orders/${ORDER_ID}`, `GET /api/orders/${ORDER_ID}`]);
      expect(api.server.requests).toHaveLength(2);
    } finally {
      await agent.close();
    }
  });
});
