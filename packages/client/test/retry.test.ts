import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import {
  HttpError,
  type OrdersClient,
  parseRetryAfter,
  type RetryEvent,
  type RetryPolicy,
  TransportError,
} from '../src/index.js';
import { DEFAULT_RETRY_POLICY, retryDelay } from '../src/retry.js';
import { createBodies, ORDER_ID, ORDER_UUID, orderDetail } from './support/fixtures.js';
import {
  dropConnection,
  type Handler,
  inSequence,
  reply,
  truncateBody,
  useScriptedServer,
} from './support/scripted-server.js';

const api = useScriptedServer();

const ok = reply(200, orderDetail);
const unavailable = reply(503, { message: 'Service unavailable' });
const tooMany = reply(429, { message: 'Too many requests' });

describe('a GET is retried', () => {
  it.each([
    ['the connection is closed without an answer', dropConnection],
    ['the body is cut short', truncateBody],
    ['the answer is 429', tooMany],
    ['the answer is 503', unavailable],
  ])('getOrder tries again when %s', async (_what, failure) => {
    api.server.handle(inSequence(failure, ok));
    expect(await api.client().getOrder(ORDER_ID)).toEqual(orderDetail);
    expect(api.server.requests).toHaveLength(2);
    expect(new Set(api.server.requests.map((request) => `${request.method} ${request.path}`))).toEqual(
      new Set([`GET /api/orders/${ORDER_ID}`]),
    );
  });

  it('listOrders backs off through a 429 and a 503 and then succeeds', async () => {
    api.server.handle(inSequence(tooMany, unavailable, reply(200, { count: 0, orders: [] })));
    expect(await api.client().listOrders({ limit: 5 })).toEqual({ count: 0, orders: [] });
    expect(api.server.requests.map((request) => request.path)).toEqual(
      Array.from({ length: 3 }, () => '/api/orders?limit=5'),
    );
  });

  it('getOrder gives up after the configured retries with the last HttpError', async () => {
    api.server.handle(unavailable);
    const error = await api
      .client({ retry: { retries: 3 } })
      .getOrder(ORDER_ID)
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(HttpError);
    expect(error).toMatchObject({ status: 503, vendorMessage: 'Service unavailable' });
    expect(api.server.requests).toHaveLength(4);
  });

  it('getOrder gives up after the retries with a TransportError when the connection keeps dropping', async () => {
    api.server.handle(dropConnection);
    const error = await api
      .client()
      .getOrder(ORDER_ID)
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(TransportError);
    expect(error).toMatchObject({ failure: 'reset' });
    expect(api.server.requests).toHaveLength(1 + DEFAULT_RETRY_POLICY.retries);
  });

  it('getOrder does not retry when retries is 0', async () => {
    api.server.handle(unavailable);
    await expect(api.client({ retry: { retries: 0 } }).getOrder(ORDER_ID)).rejects.toBeInstanceOf(HttpError);
    expect(api.server.requests).toHaveLength(1);
  });

  it.each([400, 404, 500, 502])('getOrder does not retry a %i by default', async (status) => {
    api.server.handle(reply(status, { message: 'no' }));
    await expect(api.client().getOrder(ORDER_ID)).rejects.toMatchObject({ status });
    expect(api.server.requests).toHaveLength(1);
  });

  it('getOrder retries the statuses the policy names, besides 429 and 503, and no others', async () => {
    api.server.handle(inSequence(reply(502, {}), ok));
    expect(await api.client({ retry: { statuses: [502] } }).getOrder(ORDER_ID)).toEqual(orderDetail);
    expect(api.server.requests).toHaveLength(2);

    api.server.reset();
    api.server.handle(inSequence(reply(500, {}), ok));
    await expect(api.client({ retry: { statuses: [502] } }).getOrder(ORDER_ID)).rejects.toMatchObject({
      status: 500,
    });
    expect(api.server.requests).toHaveLength(1);
  });
});

describe('Retry-After', () => {
  /** Backoff so long that a retry inside the test's bound can only come from Retry-After. */
  const slowBackoff: Partial<RetryPolicy> = { baseDelayMs: 60_000, maxDelayMs: 60_000 };

  it('getOrder waits as Retry-After "1" second says instead of its own backoff', async () => {
    api.server.handle(inSequence(reply(503, {}, { 'retry-after': '1' }), ok));
    // Were the 60 s backoff used, this signal would end the call with an aborted TransportError.
    const order = await api
      .client({ retry: slowBackoff })
      .getOrder(ORDER_ID, { signal: AbortSignal.timeout(10_000) });
    expect(order).toEqual(orderDetail);
    expect(api.server.requests).toHaveLength(2);
  });

  it('getOrder honours Retry-After on a 429 too', async () => {
    api.server.handle(inSequence(reply(429, {}, { 'retry-after': '1' }), ok));
    await api.client({ retry: slowBackoff }).getOrder(ORDER_ID, { signal: AbortSignal.timeout(10_000) });
    expect(api.server.requests).toHaveLength(2);
  });

  it.each([
    ['"0" seconds', '0'],
    ['an HTTP date already past', new Date(Date.now() - 60_000).toUTCString()],
  ])('getOrder takes Retry-After %s as no wait asked: its own backoff applies', async (_what, retryAfter) => {
    api.server.handle(inSequence(reply(429, {}, { 'retry-after': retryAfter }), ok));
    // The 60 s backoff outlasts the signal: the call ends aborted, after the first attempt.
    const error = await api
      .client({ retry: slowBackoff })
      .getOrder(ORDER_ID, { signal: AbortSignal.timeout(500) })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(TransportError);
    expect(error).toMatchObject({ failure: 'aborted' });
    expect(api.server.requests).toHaveLength(1);
  });

  it('getOrder stops retrying when Retry-After asks for longer than the budget left', async () => {
    api.server.handle(reply(503, { message: 'maintenance' }, { 'retry-after': '120' }));
    const error = await api
      .client({ retry: { budgetMs: 5_000 } })
      .getOrder(ORDER_ID)
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(HttpError);
    expect(error).toMatchObject({ status: 503, retryAfterSeconds: 120, vendorMessage: 'maintenance' });
    expect(api.server.requests).toHaveLength(1);
  });

  it("getOrder stops retrying when Retry-After passes the call's own deadline", async () => {
    api.server.handle(inSequence(reply(429, {}, { 'retry-after': '30' }), ok));
    const error = await api
      .client({ retry: { budgetMs: 600_000 } })
      .getOrder(ORDER_ID, { deadline: Date.now() + 5_000 })
      .catch((caught: unknown) => caught);
    expect(error).toMatchObject({ code: 'ERR_PRINT_HTTP', status: 429, retryAfterSeconds: 30 });
    expect(api.server.requests).toHaveLength(1);
  });

  /** A vendor clock 10 min ahead of this machine's, on a whole second (an HTTP date has no finer grain). */
  const vendorClock = () => Math.floor((Date.now() + 600_000) / 1000) * 1000;
  const skewed = (status: number, aheadMs: number): Handler => {
    return (_request, response) => {
      const at = vendorClock();
      const headers = {
        date: new Date(at).toUTCString(),
        'retry-after': new Date(at + aheadMs).toUTCString(),
      };
      response.writeHead(status, { 'content-type': 'application/json', ...headers });
      response.end('{}');
    };
  };

  it("getOrder measures an HTTP-date Retry-After against the answer's own Date, not this machine's clock", async () => {
    api.server.handle(inSequence(skewed(429, 1_000), ok));
    const events: RetryEvent[] = [];
    const order = await api
      .client({ retry: slowBackoff, onRetry: (event) => events.push(event) })
      .getOrder(ORDER_ID, { signal: AbortSignal.timeout(10_000) });
    expect(order).toEqual(orderDetail);
    expect(events.map(({ status, delayMs }) => ({ status, delayMs }))).toEqual([
      { status: 429, delayMs: 1_000 },
    ]);
  });

  it("an HttpError's retryAfterSeconds is measured against the answer's own Date", async () => {
    api.server.handle(skewed(503, 120_000));
    const error = await api
      .client({ retry: { budgetMs: 5_000 } })
      .getOrder(ORDER_ID)
      .catch((caught: unknown) => caught);
    expect(error).toMatchObject({ code: 'ERR_PRINT_HTTP', status: 503, retryAfterSeconds: 120 });
    expect(api.server.requests).toHaveLength(1);
  });

  it('getOrder ends with an aborted TransportError when the caller aborts during the wait', async () => {
    api.server.handle(reply(503, {}, { 'retry-after': '60' }));
    // The 503 comes back within milliseconds and the client then waits 60 s: the abort lands there.
    const error = await api
      .client({ retry: { budgetMs: 120_000 } })
      .getOrder(ORDER_ID, { signal: AbortSignal.timeout(250) })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(TransportError);
    expect(error).toMatchObject({ failure: 'aborted', method: 'GET', path: `/api/orders/${ORDER_ID}` });
    expect(api.server.requests).toHaveLength(1);
  });
});

describe('throttling', () => {
  const throttled = reply(429, { message: 'Slow down' }, { 'retry-after': '0' });

  it('listOrders waits out more 429s than the retry count, since the budget bounds throttling', async () => {
    api.server.handle(
      inSequence(throttled, throttled, throttled, throttled, reply(200, { count: 0, orders: [] })),
    );
    const page = await api.client({ retry: { retries: 1 } }).listOrders();
    expect(page).toEqual({ count: 0, orders: [] });
    expect(api.server.requests).toHaveLength(5);
  });

  it('a vendor answering every request 429 with Retry-After: 0 is asked again at the pace of the backoff, not at once', async () => {
    api.server.handle(throttled);
    const policy = { baseDelayMs: DEFAULT_RETRY_POLICY.baseDelayMs, budgetMs: 2_000 };
    await expect(api.client({ retry: policy }).getOrder(ORDER_ID)).rejects.toMatchObject({
      status: 429,
    });
    // Waits of 50-100, 100-200, 200-400, 400-800 ms... fit at most 7 attempts in 2 s; at once, over a thousand.
    expect(api.server.requests.length).toBeGreaterThan(1);
    expect(api.server.requests.length).toBeLessThanOrEqual(7);
  });

  // A first backoff of 2-4 s against a budget of 1.5 s: the wait is cut to the budget.
  const pastTheBudget = { baseDelayMs: 4_000, maxDelayMs: 4_000, budgetMs: 1_500 };

  it('a backoff that would pass the budget ends at it, for one last attempt that may succeed', async () => {
    api.server.handle(inSequence(throttled, ok));
    const started = Date.now();
    expect(await api.client({ retry: pastTheBudget }).getOrder(ORDER_ID)).toEqual(orderDetail);
    expect(api.server.requests).toHaveLength(2);
    // It waited for the budget's end, not sent again at once.
    expect(Date.now() - started).toBeGreaterThanOrEqual(1_000);
  });

  it('after the last attempt at the end of the budget, a call gives up: no attempt past it', async () => {
    api.server.handle(throttled);
    await expect(api.client({ retry: pastTheBudget }).getOrder(ORDER_ID)).rejects.toMatchObject({
      status: 429,
    });
    expect(api.server.requests).toHaveLength(2);
  });

  it('getOrder counts a 503 without Retry-After against the retries: a target down is told quickly', async () => {
    api.server.handle(unavailable);
    await expect(api.client({ retry: { retries: 1 } }).getOrder(ORDER_ID)).rejects.toMatchObject({
      status: 503,
    });
    expect(api.server.requests).toHaveLength(2);
  });

  it('getOrder waits out a 503 with Retry-After like a 429', async () => {
    const busy = reply(503, {}, { 'retry-after': '0' });
    api.server.handle(inSequence(busy, busy, busy, ok));
    expect(await api.client({ retry: { retries: 1 } }).getOrder(ORDER_ID)).toEqual(orderDetail);
    expect(api.server.requests).toHaveLength(4);
  });

  it('a client with retries 0 retries nothing, not even a 429', async () => {
    api.server.handle(inSequence(throttled, ok));
    await expect(api.client({ retry: { retries: 0 } }).getOrder(ORDER_ID)).rejects.toMatchObject({
      status: 429,
    });
    expect(api.server.requests).toHaveLength(1);
  });

  it('onRetry is told of each retry: the attempt, the status, whether it was throttling, and the wait', async () => {
    api.server.handle(inSequence(reply(429, {}, { 'retry-after': '1' }), dropConnection, ok));
    const events: RetryEvent[] = [];
    const client = api.client({ onRetry: (event) => events.push(event) });
    expect(await client.getOrder(ORDER_ID)).toEqual(orderDetail);
    expect(events).toEqual([
      {
        method: 'GET',
        path: `/api/orders/${ORDER_ID}`,
        attempt: 1,
        status: 429,
        throttled: true,
        delayMs: 1_000,
      },
      {
        method: 'GET',
        path: `/api/orders/${ORDER_ID}`,
        attempt: 2,
        status: undefined,
        throttled: false,
        delayMs: expect.any(Number),
      },
    ]);
  });
});

/** Every call that changes an order, with the request it must send. */
const changes: {
  call: string;
  method: string;
  path: string;
  run: (client: OrdersClient) => Promise<unknown>;
}[] = [
  {
    call: 'createOrder',
    method: 'POST',
    path: '/api/orders',
    run: (client) => client.createOrder(createBodies.v2),
  },
  {
    call: 'updateOrder',
    method: 'PUT',
    path: `/api/orders/${ORDER_ID}`,
    run: (client) => client.updateOrder(ORDER_ID, { reference: 'x' }),
  },
  {
    call: 'updateOrderWithPost',
    method: 'POST',
    path: `/api/orders/${ORDER_ID}`,
    run: (client) => client.updateOrderWithPost(ORDER_ID, { reference: 'x' }),
  },
  {
    call: 'cancelOrder',
    method: 'DELETE',
    path: `/api/orders/${ORDER_ID}`,
    run: (client) => client.cancelOrder(ORDER_ID, 'duplicate'),
  },
];

/** Any 2xx JSON object: each change reads a different shape, and none of these tests reads it. */
const done = reply(200, { success: true, uuid: ORDER_UUID });

const unprocessed: { what: string; handler: Handler }[] = [
  { what: 'a 503', handler: unavailable },
  { what: 'a 429', handler: tooMany },
  { what: 'a 429 with Retry-After 0', handler: reply(429, {}, { 'retry-after': '0' }) },
];

const maybeProcessed: { what: string; handler: Handler; error: typeof HttpError | typeof TransportError }[] =
  [
    { what: 'a 502, even when the policy retries reads on it', handler: reply(502, {}), error: HttpError },
    { what: 'a 500', handler: reply(500, {}), error: HttpError },
    { what: 'a dropped connection', handler: dropConnection, error: TransportError },
    { what: 'a cut-short body', handler: truncateBody, error: TransportError },
  ];

for (const { call, method, path, run } of changes) {
  describe(`${call} is retried only when nothing was processed`, () => {
    for (const { what, handler } of unprocessed) {
      it(`${call} is sent again after ${what}, which proves nothing was processed`, async () => {
        api.server.handle(inSequence(handler, done));
        await expect(run(api.client({ retry: { retries: 2 } }))).resolves.toBeDefined();
        expect(api.server.requests.map((request) => `${request.method} ${request.path}`)).toEqual([
          `${method} ${path}`,
          `${method} ${path}`,
        ]);
      });
    }

    for (const { what, handler, error } of maybeProcessed) {
      it(`${call} sends exactly one request after ${what}: it may have been processed`, async () => {
        api.server.handle(inSequence(handler, done));
        const client = api.client({ retry: { retries: 5, statuses: [429, 502, 503] } });
        await expect(run(client)).rejects.toBeInstanceOf(error);
        expect(api.server.requests.map((request) => `${request.method} ${request.path}`)).toEqual([
          `${method} ${path}`,
        ]);
      });
    }
  });
}

describe('a refused connection', () => {
  it('cancelOrder is sent again when the connection was refused, and reaches the server once it listens', async () => {
    const received: string[] = [];
    const server = createServer((request, response) => {
      received.push(`${request.method} ${request.url}`);
      request.resume();
      response.writeHead(200, { 'content-type': 'application/json' }).end('{"success":true}');
    });
    // A port that was free a moment ago: nothing listens there until the first refusal.
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    await new Promise<void>((resolve) => server.close(() => resolve()));
    const refusals: RetryEvent[] = [];
    const client = api.client({
      baseUrl: `http://127.0.0.1:${port}/api`,
      retry: { retries: 10, baseDelayMs: 100, maxDelayMs: 500 },
      onRetry: (event) => {
        if (refusals.push(event) === 1) server.listen(port, '127.0.0.1');
      },
    });
    try {
      expect(await client.cancelOrder(ORDER_ID, 'duplicate')).toEqual({ success: true });
      expect(refusals.length).toBeGreaterThanOrEqual(1);
      expect(refusals.every((event) => event.status === undefined && !event.throttled)).toBe(true);
      expect(received).toEqual([`DELETE /api/orders/${ORDER_ID}`]);
    } finally {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });

  it('createOrder ends with a refused TransportError once the retries are spent', async () => {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    await new Promise<void>((resolve) => server.close(() => resolve()));
    let retried = 0;
    const client = api.client({
      baseUrl: `http://127.0.0.1:${port}/api`,
      retry: { retries: 2 },
      onRetry: () => retried++,
    });
    await expect(client.createOrder(createBodies.v2)).rejects.toMatchObject({
      code: 'ERR_PRINT_TRANSPORT',
      failure: 'refused',
    });
    expect(retried).toBe(2);
  });
});

describe('after a timeout', () => {
  it('a GET is tried again, while createOrder, updateOrder, updateOrderWithPost and cancelOrder are not', async () => {
    // All at once: undici's timeouts tick about once a second, so one wait serves them all.
    let gets = 0;
    api.server.handle((request, response, raw) => {
      if (request.method === 'GET' && ++gets > 1) ok(request, response, raw);
    });
    const client = api.client({ timeoutMs: 1_000, retry: { retries: 5 } });
    const [order, ...errors] = await Promise.all([
      client.getOrder(ORDER_ID),
      ...changes.map(({ run }) => run(client).catch((caught: unknown) => caught)),
    ]);
    expect(order).toEqual(orderDetail);
    for (const error of errors)
      expect(error).toMatchObject({ code: 'ERR_PRINT_TRANSPORT', failure: 'timeout' });
    expect(api.server.requests.map((request) => `${request.method} ${request.path}`).sort()).toEqual(
      [
        `GET /api/orders/${ORDER_ID}`,
        `GET /api/orders/${ORDER_ID}`,
        ...changes.map(({ method, path }) => `${method} ${path}`),
      ].sort(),
    );
  });
});

describe('parseRetryAfter', () => {
  const now = Date.UTC(2024, 2, 5, 10, 0, 0);

  it.each([
    ['delta seconds', '5', 5],
    ['delta seconds with spaces', ' 7 ', 7],
    ['zero', '0', 0],
    ['an HTTP date 30 s ahead', new Date(now + 30_000).toUTCString(), 30],
    ['an HTTP date in the past', new Date(now - 30_000).toUTCString(), 0],
    ['the first of several values', ['3', '9'], 3],
    ['a word', 'soon', undefined],
    ['a negative number', '-5', undefined],
    ['a fraction', '1.5', undefined],
    ['an empty value', '', undefined],
    ['no header', undefined, undefined],
  ])('parseRetryAfter reads %s', (_what, value, seconds) => {
    expect(parseRetryAfter(value, now)).toBe(seconds);
  });

  const ahead = now + 600_000;
  it.each([
    [
      "an HTTP date 2 s after the answer's Date, the server's clock 10 min ahead",
      new Date(ahead + 2_000).toUTCString(),
      new Date(ahead).toUTCString(),
      2,
    ],
    [
      "an HTTP date before the answer's Date",
      new Date(ahead - 5_000).toUTCString(),
      new Date(ahead).toUTCString(),
      0,
    ],
    [
      'the first of several Date values',
      new Date(ahead + 4_000).toUTCString(),
      [new Date(ahead).toUTCString(), 'Thu, 01 Jan 1970 00:00:00 GMT'],
      4,
    ],
    ['delta seconds, whatever the Date', '5', new Date(ahead).toUTCString(), 5],
    [
      'an HTTP date with a Date that is no HTTP date: against now',
      new Date(now + 30_000).toUTCString(),
      '1700000000',
      30,
    ],
    [
      'an HTTP date with an unreadable Date: against now',
      new Date(now + 30_000).toUTCString(),
      'Yesterday',
      30,
    ],
    ['an HTTP date with an empty Date: against now', new Date(now + 30_000).toUTCString(), '', 30],
  ])('parseRetryAfter reads %s', (_what, value, date, seconds) => {
    expect(parseRetryAfter(value, now, date)).toBe(seconds);
  });
});

describe('retryDelay', () => {
  const policy: RetryPolicy = { ...DEFAULT_RETRY_POLICY, baseDelayMs: 100, maxDelayMs: 1_000 };

  it('retryDelay doubles the backoff each attempt, with jitter between half and all of it', () => {
    for (let run = 0; run < 200; run++) {
      for (const [attempt, full] of [
        [1, 100],
        [2, 200],
        [3, 400],
      ] as const) {
        const delay = retryDelay(policy, attempt);
        expect(delay).toBeGreaterThanOrEqual(full / 2);
        expect(delay).toBeLessThanOrEqual(full);
      }
    }
  });

  it('retryDelay never exceeds maxDelayMs', () => {
    for (let run = 0; run < 50; run++) expect(retryDelay(policy, 20)).toBeLessThanOrEqual(1_000);
  });

  it('retryDelay takes Retry-After as it is, even above maxDelayMs: the budget bounds it', () => {
    expect(retryDelay(policy, 1, 1)).toBe(1_000);
    expect(retryDelay(policy, 1, 2)).toBe(2_000);
    expect(retryDelay(policy, 4, 1)).toBe(1_000);
  });

  it('retryDelay backs off on a Retry-After of 0, which asks for no wait', () => {
    for (let run = 0; run < 50; run++) {
      expect(retryDelay(policy, 1, 0)).toBeGreaterThanOrEqual(50);
      expect(retryDelay(policy, 4, 0)).toBeGreaterThanOrEqual(400);
    }
  });
});
