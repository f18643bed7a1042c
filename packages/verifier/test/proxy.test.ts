import { once } from 'node:events';
import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { SampleApi } from '@print-contracts/sample-api';
import { workspace } from '@print-contracts/test-support';
import { Agent, request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Ledger } from '../src/ledger/ledger.js';
import { Availability, type Exchange, type ForwardContext, forward } from '../src/replay/proxy/forwarder.js';
import { PROXY_HEADER, type ReplayProxy, startProxy } from '../src/replay/proxy/proxy.js';
import { filterRequest } from '../src/replay/proxy/request-filter.js';
import { STATE_PATH, StateSequence } from '../src/replay/proxy/state-endpoint.js';
import type { Target } from '../src/target/target.js';
import { runRetryPolicy } from '../src/target/transport.js';
import { testOrderBody } from './helpers/fixture-pact.js';
import { ordersOf } from './helpers/orders.js';
import { front, sampleTarget } from './helpers/targets.js';

const PLACEHOLDERS = {
  'user-id': 'example-user-id',
  'api-secret': 'example-api-secret',
  accept: 'application/vnd.printdeal-api.v2',
};

describe('the replay proxy', () => {
  let space: Awaited<ReturnType<typeof workspace>>;
  let api: SampleApi;
  let counted: Awaited<ReturnType<typeof front>>;
  const dispatcher = new Agent();

  beforeAll(async () => {
    space = await workspace();
    api = await sampleTarget();
    counted = await front(api.origin);
  });
  afterAll(async () => {
    await dispatcher.close();
    await counted.close();
    await api.close();
    await space.remove();
  });

  /** A proxy for one create interaction, in front of the counting front of the sample API. */
  const start = async (mode: Target['mode'], ledger: Ledger, faults: unknown[] = []) => {
    const [main] = api.credentials;
    if (!main) throw new Error('no credentials');
    const target: Target = {
      kind: 'url',
      baseUrl: counted.url,
      mode,
      controlOrigin: undefined,
      credentials: { main, other: undefined },
    };
    const exchanges: Exchange[] = [];
    const proxy = await startProxy({
      sequence: new StateSequence([
        { id: 'create', description: 'a create', states: [], values: [], refusal: undefined },
      ]),
      filter: { target, ledger, missing: new Set() },
      forward: {
        target,
        dispatcher,
        timeoutMs: 5_000,
        ledger,
        secrets: [main.secret],
        retry: { ...runRetryPolicy({ retries: 4, creationTimeoutMs: 60_000 }), baseDelayMs: 10 },
        availability: new Availability(),
        version: 'v2',
      },
      onExchange: (_item, exchange) => exchanges.push(exchange),
      broke: (fault) => faults.push(fault),
    });
    return { proxy, exchanges };
  };

  /** Pact's two calls: the state setup, then the request. */
  const replay = async (proxy: ReplayProxy, path: string, body: unknown) => {
    const base = `http://${proxy.host}:${proxy.port}`;
    const state = await request(`${base}${STATE_PATH}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ state: '', params: {}, action: 'setup' }),
    });
    await state.body.dump();
    return request(`${base}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...PLACEHOLDERS },
      body: JSON.stringify(body),
    });
  };

  it.each(['/api/orders', '/api/orders/', '/api//orders', '/API/%6Frders', '/api/x/../orders'])(
    'refuses a non-test create in live mode at %s: nothing is sent, nothing is ledgered',
    async (path) => {
      const ledger = Ledger.open(space.path(`live-${encodeURIComponent(path)}.jsonl`), 'test', 60_000);
      const { proxy, exchanges } = await start('live', ledger);
      const before = counted.requests.length;
      try {
        const answer = await replay(proxy, path, testOrderBody('v2', false));
        expect(answer.statusCode).toBe(403);
        expect(answer.headers[PROXY_HEADER]).toBe('refused');
        expect(await answer.body.json()).toMatchObject({ message: expect.stringMatching(/live mode/) });
      } finally {
        await proxy.close();
      }
      expect(counted.requests.length).toBe(before);
      expect(exchanges).toMatchObject([{ failure: expect.stringMatching(/testOrder/) }]);
      expect(existsSync(ledger.path)).toBe(false);
      expect(await ordersOf(api)).toEqual([]);
    },
  );

  it.each([
    ['PUT', '/api/orders/1000013'],
    ['POST', '/api/orders/1000013'],
    ['DELETE', '/api//orders/1000013'],
    ['DELETE', '/API/%6Frders/1000013/'],
    ['POST', '/api/orders/1000013/cancel'],
  ])('refuses in live mode %s %s, a change the run may not make: nothing is sent', async (method, path) => {
    const ledger = Ledger.open(space.path('live-not-ours.jsonl'), 'test', 60_000);
    const { proxy, exchanges } = await start('live', ledger);
    const before = counted.requests.length;
    try {
      const base = `http://${proxy.host}:${proxy.port}`;
      await (
        await request(`${base}${STATE_PATH}`, { method: 'POST', body: '{"state":"","action":"setup"}' })
      ).body.dump();
      const answer = await request(`${base}${path}`, {
        method: method as 'PUT',
        headers: { 'content-type': 'application/json', ...PLACEHOLDERS },
        body: JSON.stringify({ reason: 'not mine to cancel' }),
      });
      expect(answer.statusCode).toBe(403);
      expect(await answer.body.json()).toMatchObject({
        message: expect.stringMatching(/did not create|does not describe/),
      });
    } finally {
      await proxy.close();
    }
    expect(counted.requests.length).toBe(before);
    expect(exchanges).toMatchObject([{ failure: expect.stringMatching(/did not create|does not describe/) }]);
  });

  it('swaps the placeholder credentials for the real ones, ledgers the create first and stamps the run reference', async () => {
    const ledger = Ledger.open(space.path('sample-ledger.jsonl'), 'abcd1234', 60_000);
    const { proxy, exchanges } = await start('sample', ledger);
    let uuid: string;
    try {
      const answer = await replay(proxy, '/api/orders', testOrderBody('v2', true));
      expect(answer.statusCode).toBe(201);
      ({ uuid } = (await answer.body.json()) as { uuid: string });
    } finally {
      await proxy.close();
    }
    expect(ledger.open()).toMatchObject([{ uuid, credential: 'main', source: 'replay of "a create"' }]);
    const sent = counted.requests.at(-1);
    expect(sent?.headers['api-secret']).toBe(api.credentials[0]?.secret);
    expect(JSON.parse(sent?.body ?? '{}')).toMatchObject({
      reference: 'contract verify abcd1234',
      testOrder: true,
    });
    expect(exchanges).toMatchObject([
      { method: 'POST', path: '/api/orders', status: 201, credentials: 'real' },
    ]);
  });

  it('answers a create the verifier itself fails on (a ledger it cannot write) as its own, judged by nobody: nothing is sent', async () => {
    // Found by a verdict audit: the proxy answered its own failure 400, which Pact took for the
    // target's refusal, and the interactions that expect a 4xx were verified.
    const ledger = Ledger.open(space.path('broken', 'ledger.jsonl'), 'broken', 60_000);
    await mkdir(space.path('broken', 'ledger.jsonl'), { recursive: true });
    const faults: unknown[] = [];
    const { proxy, exchanges } = await start('sample', ledger, faults);
    const before = counted.requests.length;
    try {
      const answer = await replay(proxy, '/api/orders', testOrderBody('v2', true));
      expect(answer.statusCode).toBe(500);
      expect(answer.headers[PROXY_HEADER]).toBe('refused');
    } finally {
      await proxy.close();
    }
    expect(counted.requests.length).toBe(before);
    expect(faults).toHaveLength(1);
    expect(exchanges).toMatchObject([
      { broke: true, failure: expect.stringMatching(/^the verifier broke on the request: EISDIR/) },
    ]);
  });

  it('rides out a 429 with Retry-After and a 503 before a create goes through, ledgering one order', async () => {
    api.setFaults([
      { operation: 'createOrder', status: 429, retryAfterSeconds: 0, times: 1 },
      { operation: 'createOrder', status: 503, times: 2 },
    ]);
    const ledger = Ledger.open(space.path('busy-ledger.jsonl'), 'busy', 60_000);
    const { proxy, exchanges } = await start('sample', ledger);
    try {
      const answer = await replay(proxy, '/api/orders', testOrderBody('v2', true));
      expect(answer.statusCode).toBe(201);
    } finally {
      await proxy.close();
      api.setFaults([]);
    }
    expect(exchanges).toMatchObject([{ status: 201, attempts: 3, unavailable: false }]);
    expect(ledger.open()).toHaveLength(1);
  });
});

describe('the request filter in live mode', () => {
  const OWNED = { uuid: '7b3f2c1a-0d4e-4f5a-8b6c-9d0e1f2a3b4c', id: 5000002 };
  let space: Awaited<ReturnType<typeof workspace>>;
  let ledger: Ledger;
  const target: Target = {
    kind: 'url',
    baseUrl: 'https://vendor.example/api',
    mode: 'live',
    controlOrigin: undefined,
    credentials: { main: { userId: 'team', secret: 'real-secret' }, other: undefined },
  };

  beforeAll(async () => {
    space = await workspace();
    ledger = Ledger.open(space.path('ledger.jsonl'), 'live1234', 60_000);
    const key = ledger.creating(target, { credential: 'main', version: 'v2', source: 'replay' });
    ledger.answered(key, OWNED.uuid);
    ledger.record('read', key, { id: OWNED.id });
  });
  afterAll(() => space.remove());

  /** The filter's judgement of one request on the wire, with the pact's placeholder credentials. */
  const judge = (method: string, url: string, body: string, headers: Record<string, string> = {}) =>
    filterRequest(
      { method, url, headers: { 'content-type': 'application/json', ...PLACEHOLDERS, ...headers } },
      Buffer.from(body),
      { target, ledger, missing: new Set(['5000001;x', '5000001']) },
    );
  const testOrder = JSON.stringify(testOrderBody('v2', true));

  it.each([
    ['a create with a query string', 'POST', '/api/orders?testOrder=0', testOrder, {}, /query string/],
    [
      'a create that also spells testOrder another way',
      'POST',
      '/api/orders',
      JSON.stringify({ ...(testOrderBody('v2', true) as object), Test_Order: false }),
      {},
      /spells "testOrder" another way/,
    ],
    [
      'a create whose JSON is declared a form',
      'POST',
      '/api/orders',
      testOrder,
      { 'content-type': 'application/x-www-form-urlencoded' },
      /declares its body "application\/x-www-form-urlencoded", not JSON/,
    ],
    [
      "an update of the run's order with a form body",
      'POST',
      `/api/orders/${OWNED.id}`,
      'testOrder=0&reference=x',
      { 'content-type': 'application/x-www-form-urlencoded' },
      /not JSON/,
    ],
    [
      "an update of the run's order whose body is no JSON object",
      'PUT',
      `/api/orders/${OWNED.uuid}`,
      '[{"testOrder": false}]',
      {},
      /no JSON object as its body/,
    ],
    [
      'a cancel of an id proved missing, with a path parameter a servlet router drops',
      'DELETE',
      '/api/orders/5000001;x',
      '{"reason": "gone"}',
      {},
      /names an order otherwise than by its id or uuid/,
    ],
    [
      'a read that asks to be taken as a cancel',
      'GET',
      `/api/orders/${OWNED.id}`,
      '',
      { 'x-http-method-override': 'DELETE' },
      /taken as another method \(x-http-method-override\)/,
    ],
    [
      'a create that asks to be taken as another method by its query',
      'POST',
      '/api/orders?_method=PUT',
      testOrder,
      {},
      /taken as another method \(_method\)/,
    ],
  ])('refuses %s: nothing is sent', (_what, method, url, body, headers, reason) => {
    expect(judge(method, url, body, headers)).toEqual({
      kind: 'refuse',
      status: 403,
      reason: expect.stringMatching(reason),
    });
  });

  it('sends a create with a repeated key as the JSON it judged, also where its reference is the point', () => {
    const long = 'x'.repeat(40);
    const raw = JSON.stringify({ ...(testOrderBody('v2', true) as object), reference: long }).replace(
      '{',
      '{"testOrder": false, ',
    );
    const judged = judge('POST', '/api/orders', raw);
    expect(judged.kind).toBe('forward');
    const sent = judged.kind === 'forward' ? (judged.body?.toString() ?? '') : '';
    expect(sent.match(/testOrder/g)).toEqual(['testOrder']);
    expect(JSON.parse(sent)).toMatchObject({ testOrder: true, reference: long });
  });

  it("sends a change of the run's order to the order's own path, however the pact spells it", () => {
    const judged = judge('PUT', `/API/orders/999/%2e%2e/${OWNED.uuid.toUpperCase()}`, '{"poNumber": "1"}');
    expect(judged).toMatchObject({
      kind: 'forward',
      path: `/api/orders/${OWNED.uuid}`,
      body: expect.any(Buffer),
    });
    expect(judged.kind === 'forward' && judged.body?.toString()).toBe('{"poNumber":"1"}');
  });

  it("still sends the run's own changes and cancels, and a cancel of an id proved missing", () => {
    expect(judge('DELETE', `/api/orders/${OWNED.id}`, '{"reason": "done"}')).toMatchObject({
      kind: 'forward',
    });
    expect(judge('POST', `/api/orders/${OWNED.uuid}`, '{"testOrder": true}')).toMatchObject({
      kind: 'forward',
    });
    expect(judge('DELETE', '/api/orders/5000001', '{"reason": "gone"}')).toMatchObject({ kind: 'forward' });
  });
});

describe('the forwarder, against a target that holds requests without an answer', () => {
  /**
   * A bare target on loopback that answers each GET `{}` and holds the other requests open, never
   * answered (`holdAll`: every request); the forwarding context of a run against it, with a 1 s
   * request timeout; closed after `use`.
   */
  const holding = async (
    holdAll: boolean,
    use: (context: ForwardContext, seen: () => number) => Promise<void>,
  ) => {
    let seen = 0;
    const server = createServer((incoming, outgoing) => {
      seen++;
      incoming.resume();
      if (incoming.method === 'GET' && !holdAll) outgoing.end('{}');
    });
    await once(server.listen(0, '127.0.0.1'), 'listening');
    const space = await workspace();
    const dispatcher = new Agent();
    const port = (server.address() as AddressInfo).port;
    const credentials = { main: { userId: 'u', secret: 's' }, other: undefined };
    try {
      await use(
        {
          target: {
            kind: 'url',
            baseUrl: `http://127.0.0.1:${port}/api`,
            mode: 'sample',
            controlOrigin: undefined,
            credentials,
          },
          dispatcher,
          timeoutMs: 1_000,
          ledger: Ledger.open(space.path('ledger.jsonl'), 'held', 60_000),
          secrets: [],
          retry: runRetryPolicy({ retries: 0, creationTimeoutMs: 60_000 }),
          availability: new Availability(),
          version: 'v2',
          source: 'replay',
        },
        () => seen,
      );
    } finally {
      await dispatcher.destroy();
      server.closeAllConnections();
      server.close();
      await space.remove();
    }
  };
  const sent = (method: string, path: string) =>
    ({
      kind: 'forward',
      method,
      path,
      headers: {},
      body: undefined,
      creates: false,
      credentials: 'real',
    }) as const;
  const update = (id: number) => sent('PUT', `/api/orders/${id}`);

  it('sends the requests still to replay when it answered others while the held ones waited', async () => {
    await holding(false, async (context) => {
      const held = [1, 2, 3].map((id) => forward(update(id), context));
      await forward(sent('GET', '/api/orders/4'), context);
      expect((await Promise.all(held)).map(({ exchange }) => exchange.failure)).toEqual(
        Array(3).fill(expect.stringMatching(/^target unavailable: .*timed out/)),
      );

      const { exchange, answer } = await forward(sent('GET', '/api/orders/5'), context);

      expect(exchange).toMatchObject({ status: 200, unavailable: false });
      expect(answer?.body.toString()).toBe('{}');
    });
  });

  it('counts it down after three requests given up with no answer meanwhile, and sends no more', async () => {
    await holding(true, async (context, seen) => {
      await Promise.all([1, 2, 3].map((id) => forward(update(id), context)));

      const { exchange, answer } = await forward(sent('GET', '/api/orders/4'), context);

      expect(exchange).toMatchObject({
        attempts: 0,
        unavailable: true,
        failure: 'target unavailable: it stopped answering earlier in the run',
      });
      expect(answer).toBeUndefined();
      expect(seen()).toBe(3);
    });
  });
});
