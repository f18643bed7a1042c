import { createServer } from 'node:net';
import vm from 'node:vm';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import {
  API_VERSIONS,
  ConfigurationError,
  ERROR_CODES,
  HttpError,
  isConfigurationError,
  isHttpError,
  isOrderCreationFailedError,
  isOrderWaitTimeoutError,
  isPrintOrderError,
  isRequestValidationError,
  isResponseValidationError,
  isTransportError,
  OrderCreationFailedError,
  OrdersClient,
  OrderWaitTimeoutError,
  PrintOrderError,
  RequestValidationError,
  ResponseValidationError,
  TransportError,
} from '../src/index.js';
import { describeTransportFailure, MAX_ANSWER_BYTES } from '../src/kit.js';
import { ORDER_ID, ORDER_UUID, orderDetail, orderDetailJson, SECRET, USER_ID } from './support/fixtures.js';
import {
  dropConnection,
  type Handler,
  neverAnswer,
  reply,
  truncateBody,
  useScriptedServer,
} from './support/scripted-server.js';

const api = useScriptedServer();

/** A loopback port nothing listens on: taken from the system, then given back. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe('HttpError', () => {
  it('HttpError carries the status, method, path with query, vendor message and body', async () => {
    api.server.handle(reply(403, { message: 'Not your order', detail: { hint: 'link the credentials' } }));
    const error = await api
      .client()
      .listOrders({ limit: 5, status: 'completed' })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(HttpError);
    expect(error).toBeInstanceOf(PrintOrderError);
    expect(error).toBeInstanceOf(Error);
    expect(error).toMatchObject({
      name: 'HttpError',
      code: ERROR_CODES.http,
      status: 403,
      method: 'GET',
      path: '/api/orders?limit=5&status=completed',
      vendorMessage: 'Not your order',
      body: { message: 'Not your order', detail: { hint: 'link the credentials' } },
      retryAfterSeconds: undefined,
    });
    expect((error as HttpError).message).toBe(
      'Request failed with status 403: GET /api/orders?limit=5&status=completed: Not your order',
    );
  });

  it('HttpError takes the vendor message from an "error" field too', async () => {
    api.server.handle(reply(400, { error: 'Bad request' }));
    const error = await api
      .client()
      .createOrder({} as never, { validate: false })
      .catch((caught: unknown) => caught);
    expect(error).toMatchObject({
      status: 400,
      method: 'POST',
      path: '/api/orders',
      vendorMessage: 'Bad request',
    });
  });

  it('HttpError keeps a body that is not JSON as text, with no vendor message', async () => {
    api.server.handle(reply(502, '<html>Bad gateway</html>'));
    const error = await api
      .client({ retry: { retries: 0 } })
      .getOrder(ORDER_ID)
      .catch((caught: unknown) => caught);
    expect(error).toMatchObject({ status: 502, body: '<html>Bad gateway</html>', vendorMessage: undefined });
    expect((error as HttpError).message).toBe(`Request failed with status 502: GET /api/orders/${ORDER_ID}`);
  });

  it('HttpError has no vendor message for an empty error body', async () => {
    api.server.handle(reply(401));
    const error = await api
      .client()
      .getOrder(ORDER_ID)
      .catch((caught: unknown) => caught);
    expect(error).toMatchObject({ status: 401, body: '', vendorMessage: undefined });
  });

  it('HttpError reports a redirect as an error: the client follows none', async () => {
    api.server.handle(reply(302, '', { location: '/elsewhere' }));
    await expect(api.client().getOrder(ORDER_ID)).rejects.toMatchObject({
      code: ERROR_CODES.http,
      status: 302,
    });
    expect(api.server.requests).toHaveLength(1);
  });
});

describe('TransportError', () => {
  const failureCases: { what: string; handler: Handler; failure: string; timeoutMs?: number }[] = [
    { what: 'the server never answers', handler: neverAnswer, failure: 'timeout', timeoutMs: 150 },
    {
      what: 'the body stops arriving',
      handler: (_request, response) => {
        response.writeHead(200, { 'content-length': '100' });
        response.write('{"count":');
      },
      failure: 'timeout',
      timeoutMs: 150,
    },
    {
      // A byte every 50 ms never trips undici's bodyTimeout, which bounds only the pause between chunks.
      what: 'the body trickles in for longer than the timeout',
      handler: (_request, response) => {
        response.writeHead(200, { 'content-type': 'application/json' });
        response.write('{"count":0,"orders":[');
        const trickle = setInterval(() => response.write(' '), 50);
        response.on('close', () => clearInterval(trickle));
      },
      failure: 'timeout',
      timeoutMs: 300,
    },
    {
      what: 'the body is larger than any answer of the vendor',
      handler: (_request, response) => {
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end(`{"count":0,"orders":[],"pad":"${'x'.repeat(MAX_ANSWER_BYTES)}"}`);
      },
      failure: 'network',
    },
    {
      what: 'the body decodes to more than any answer of the vendor (a gzip bomb)',
      handler: (_request, response) => {
        response.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' });
        response.end(gzipSync(Buffer.alloc(MAX_ANSWER_BYTES + 1, ' ')));
      },
      failure: 'network',
    },
    { what: 'the connection is closed before an answer', handler: dropConnection, failure: 'reset' },
    {
      what: 'the connection is destroyed mid-answer',
      handler: (_request, response, raw) => {
        response.writeHead(200, { 'content-length': '100' });
        response.write('{"count":', () => raw.socket.destroy());
      },
      failure: 'reset',
    },
    { what: 'the body is shorter than its content-length', handler: truncateBody, failure: 'reset' },
  ];

  it('TransportError says what failed for each kind of broken answer', async () => {
    // One case per path, all at once: undici's timeouts tick about once a second.
    api.server.handle((request, response, raw) => {
      const index = Number(new URL(request.path, 'http://x').searchParams.get('offset'));
      failureCases[index]?.handler(request, response, raw);
    });
    const outcomes = await Promise.all(
      failureCases.map(({ timeoutMs }, index) =>
        api
          .client({ timeoutMs: timeoutMs ?? 5_000, retry: { retries: 0 } })
          .listOrders({ offset: index })
          .then(
            () => 'answered',
            (caught: unknown) => caught,
          ),
      ),
    );
    outcomes.forEach((error, index) => {
      const { what, failure } = failureCases[index] as (typeof failureCases)[number];
      expect(error, what).toBeInstanceOf(TransportError);
      expect(error, what).toMatchObject({
        name: 'TransportError',
        code: ERROR_CODES.transport,
        failure,
        method: 'GET',
        path: `/api/orders?offset=${index}`,
      });
    });
  });

  it('a secret no header can carry is a TransportError at once: nothing is sent, nor tried again', async () => {
    // Found by an audit: undici refuses the header locally, and the client retried that 12 times
    // as a network failure, for 16 s, before the verifier called the target unavailable.
    api.server.handle(reply(200, { count: 0, orders: [] }));
    let retried = 0;
    const client = api.client({
      secret: `${SECRET}\u007f`,
      retry: { retries: 5, baseDelayMs: 200 },
      onRetry: () => retried++,
    });
    const error = await client.listOrders().catch((caught: unknown) => caught);
    expect(retried).toBe(0);
    expect(error).toBeInstanceOf(TransportError);
    expect(error).toMatchObject({ failure: 'network' });
    expect(api.server.requests).toHaveLength(0);
    expect(describeTransportFailure((error as Error).cause)).toMatch(
      /^the request could not be sent: .*\(nothing reached the target\)$/,
    );
  });

  it('TransportError says refused when nothing listens on the port', async () => {
    const port = await closedPort();
    const client = api.client({ baseUrl: `http://127.0.0.1:${port}/api`, retry: { retries: 0 } });
    const error = await client.getOrder(ORDER_ID).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(TransportError);
    expect(error).toMatchObject({ failure: 'refused', method: 'GET', path: `/api/orders/${ORDER_ID}` });
  });

  it('TransportError says aborted when the caller aborts a request in flight', async () => {
    api.server.handle(neverAnswer);
    const controller = new AbortController();
    const pending = api
      .client()
      .getOrder(ORDER_ID, { signal: controller.signal })
      .catch((caught: unknown) => caught);
    await api.server.requestCount(1);
    controller.abort();
    expect(await pending).toMatchObject({ code: ERROR_CODES.transport, failure: 'aborted' });
    expect(api.server.requests).toHaveLength(1);
  });

  it('TransportError says aborted, and nothing is sent, when the signal was aborted already', async () => {
    const error = await api
      .client()
      .getOrder(ORDER_ID, { signal: AbortSignal.abort() })
      .catch((caught: unknown) => caught);
    expect(error).toMatchObject({ code: ERROR_CODES.transport, failure: 'aborted' });
    expect(api.server.requests).toHaveLength(0);
  });

  it('TransportError keeps the underlying failure as its cause', async () => {
    api.server.handle(dropConnection);
    const error = await api
      .client({ retry: { retries: 0 } })
      .getOrder(ORDER_ID)
      .catch((caught: unknown) => caught);
    expect((error as TransportError).cause).toBeInstanceOf(Error);
  });
});

describe.each(API_VERSIONS)('ResponseValidationError in %s', (apiVersion) => {
  it('names the path in the answer that did not match', async () => {
    const body = orderDetailJson();
    body.status = 'lost';
    (body.lines[0] as Record<string, unknown>).quantity = '250';
    delete body.total;
    api.server.handle(reply(200, body));
    const error = await api
      .client({ apiVersion })
      .getOrder(ORDER_ID)
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect(error).toMatchObject({
      code: ERROR_CODES.responseValidation,
      status: 200,
      method: 'GET',
      path: `/api/orders/${ORDER_ID}`,
      apiVersion,
    });
    expect((error as ResponseValidationError).issues.map((issue) => issue.path).sort()).toEqual(
      ['lines[0].quantity', 'status', 'total'].sort(),
    );
    expect((error as ResponseValidationError).message).toContain('lines[0].quantity');
  });

  it('names the entry of a list that did not match', async () => {
    api.server.handle(
      reply(200, {
        count: 2,
        orders: [{ id: 1, number: 'DDB1', status: 'completed', date: 'yesterday', uuid: null }],
      }),
    );
    const error = await api
      .client({ apiVersion })
      .listOrders()
      .catch((caught: unknown) => caught);
    expect(isResponseValidationError(error) && error.issues.map((issue) => issue.path)).toEqual([
      'orders[0].date',
    ]);
  });

  it('names the first 5 issues in its message and counts the rest, keeping them all in issues', async () => {
    const order = (id: number) => ({
      id,
      number: `DDB${id}`,
      status: 'completed',
      date: 'yesterday',
      uuid: null,
    });
    api.server.handle(reply(200, { count: 8, orders: [1, 2, 3, 4, 5, 6, 7, 8].map(order) }));
    const error = (await api
      .client({ apiVersion })
      .listOrders()
      .catch((caught: unknown) => caught)) as ResponseValidationError;
    expect(error.issues).toHaveLength(8);
    expect(error.message).toContain('orders[4].date');
    expect(error.message).not.toContain('orders[5].date');
    expect(error.message).toMatch(/; and 3 more$/);
  });

  it('reports a 2xx answer that is not JSON, with no issues', async () => {
    api.server.handle(reply(200, '<html>maintenance</html>'));
    const error = await api
      .client({ apiVersion })
      .createOrder({} as never, { validate: false })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect(error).toMatchObject({ status: 200, method: 'POST', path: '/api/orders', issues: [] });
  });

  it('tolerates unknown extra fields and keeps them in the result', async () => {
    const body = {
      ...orderDetailJson(),
      channel: 'web',
      lines: [{ ...orderDetail.lines[0], colour: 'cyan' }],
    };
    api.server.handle(reply(200, body));
    const order = await api.client({ apiVersion }).getOrder(ORDER_ID);
    expect(order).toEqual(body);
  });
});

describe('the is…Error guards', () => {
  const guards = [
    { name: 'isHttpError', guard: isHttpError, code: ERROR_CODES.http },
    { name: 'isTransportError', guard: isTransportError, code: ERROR_CODES.transport },
    {
      name: 'isRequestValidationError',
      guard: isRequestValidationError,
      code: ERROR_CODES.requestValidation,
    },
    {
      name: 'isResponseValidationError',
      guard: isResponseValidationError,
      code: ERROR_CODES.responseValidation,
    },
    { name: 'isOrderWaitTimeoutError', guard: isOrderWaitTimeoutError, code: ERROR_CODES.orderWaitTimeout },
    {
      name: 'isOrderCreationFailedError',
      guard: isOrderCreationFailedError,
      code: ERROR_CODES.orderCreationFailed,
    },
    { name: 'isConfigurationError', guard: isConfigurationError, code: ERROR_CODES.configuration },
  ];

  for (const { name, guard, code } of guards) {
    it(`${name} recognises a plain object from another realm by its code alone`, () => {
      const foreign: unknown = vm.runInNewContext(`({ name: 'SomeError', code: ${JSON.stringify(code)} })`);
      expect(guard(foreign)).toBe(true);
      expect(isPrintOrderError(foreign)).toBe(true);
      for (const other of guards) if (other.code !== code) expect(other.guard(foreign)).toBe(false);
    });
  }

  it('isPrintOrderError recognises an Error made in another realm that carries a code', () => {
    const foreign: unknown = vm.runInNewContext(
      `Object.assign(new Error('x'), { code: ${JSON.stringify(ERROR_CODES.http)} })`,
    );
    expect(foreign instanceof Error).toBe(false);
    expect(isPrintOrderError(foreign)).toBe(true);
    expect(isHttpError(foreign)).toBe(true);
  });

  it.each([
    ['null', null],
    ['undefined', undefined],
    ['a string', ERROR_CODES.http],
    ['an object with another code', { code: 'ECONNRESET' }],
    ['an object with a code that is not a string', { code: 1 }],
    ['a plain Error', new Error('boom')],
  ])('isPrintOrderError rejects %s', (_what, value) => {
    expect(isPrintOrderError(value)).toBe(false);
    expect(isHttpError(value)).toBe(false);
  });

  it('each error class has a stable name and the code its guard checks', () => {
    const made = [
      new HttpError({
        status: 500,
        method: 'GET',
        path: '/api/orders',
        vendorMessage: undefined,
        body: '',
        retryAfterSeconds: undefined,
      }),
      new TransportError('reset', 'GET', '/api/orders'),
      new RequestValidationError('createOrder', 'v2', [{ path: 'reference', message: 'too long' }]),
      new ResponseValidationError({
        method: 'GET',
        path: '/api/orders',
        status: 200,
        apiVersion: 'v1',
        issues: [],
      }),
      new OrderWaitTimeoutError(ORDER_UUID, 1_000, undefined),
      new OrderCreationFailedError(ORDER_UUID, 'creation failed'),
      new ConfigurationError('bad'),
    ];
    expect(made.map((error) => [error.name, error.code])).toEqual([
      ['HttpError', ERROR_CODES.http],
      ['TransportError', ERROR_CODES.transport],
      ['RequestValidationError', ERROR_CODES.requestValidation],
      ['ResponseValidationError', ERROR_CODES.responseValidation],
      ['OrderWaitTimeoutError', ERROR_CODES.orderWaitTimeout],
      ['OrderCreationFailedError', ERROR_CODES.orderCreationFailed],
      ['ConfigurationError', ERROR_CODES.configuration],
    ]);
    made.forEach((error, index) => {
      expect(guards[index]?.guard(error)).toBe(true);
      expect(error).toBeInstanceOf(PrintOrderError);
    });
  });

  it('a ConfigurationError is thrown by the constructor, before anything is sent', () => {
    expect(() => new OrdersClient({ baseUrl: 'not a url', userId: USER_ID, secret: SECRET })).toThrow(
      ConfigurationError,
    );
  });
});
