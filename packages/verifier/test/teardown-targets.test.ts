import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { startSampleApi } from '@print-contracts/sample-api';
import {
  type Alteration,
  editJson,
  type ProxiedAnswer,
  type ProxiedRequest,
  startAlteringProxy,
} from '@print-contracts/test-support';
import { describe, expect, it } from 'vitest';
import { ordersOf } from './helpers/orders.js';
import { type FrontAnswer, front, type Seen } from './helpers/targets.js';
import { CONTRACTS, eachOrderAnswered, thirdPartyTargets } from './helpers/third-party.js';

// The runs against third-party targets that try the teardown: cancels refused, lost or throttled,
// creates whose answers were lost or wrong, and the scan by the run's reference. The redirects
// are in real-targets.test.ts.

describe('the teardown against third-party targets', () => {
  const { space, verify, behindFront, behindProxy, verifyQuick, expectSettled, withLostCreate } =
    thirdPartyTargets();

  describe('teardown against a vendor that does not cancel', () => {
    /** A run against `api` behind a front answering `refusal` to the DELETEs `refuses` picks; the orders left open at `api`. */
    const teardown = async (
      name: string,
      refuses: RegExp,
      refusal: FrontAnswer = { status: 404, body: { message: 'Order not found' } },
      pact = space.path('fixture-pacts'),
    ) => {
      const api = await startSampleApi({ control: true, processingDelayMs: 20, seedOrders: false });
      const counted = await front(api.origin, {
        answer: (seen) => (seen.method === 'DELETE' && refuses.test(seen.path) ? refusal : undefined),
      });
      try {
        const extra = ['--control', '--creation-timeout', '5000', '--poll-interval', '100'];
        const run = await verify(name, counted.url, pact, extra);
        const open = (await ordersOf(api)).filter((order) => order.status !== 'cancelled');
        return { ...run, open, ledger: existsSync(space.path(`${name}/verify-ledger.jsonl`)) };
      } finally {
        await counted.close();
        await api.close();
      }
    };

    it('cancels by the numeric id the vendor documents once the order was read, not only by its uuid', async () => {
      const run = await teardown('cancel-by-id', /^\/api\/orders\/[0-9a-f-]{36}$/);
      expect(run.stderr).toBe('');
      expect(run.open).toEqual([]);
      expect(run.report.teardown).toMatchObject({ open: 0, problems: [] });
      expect(run.report.teardown.ended['not-found']).toBeUndefined();
      expect(run.ledger).toBe(false);
    });

    it('never crosses off an order that reads back open as never placed: it stays in the ledger, said', async () => {
      const run = await teardown('cancel-refused', /^\/api\/orders\/[^/]+$/);
      expect(run.open.length).toBeGreaterThan(0);
      expect(run.report.teardown.open).toBe(run.open.length);
      expect(run.report.teardown.problems.join('\n')).toMatch(
        /the cancel answered 404 while the order reads with status "in-progress"/,
      );
      expect(run.stdout).toMatch(/still open in .*verify-ledger\.jsonl \(run `pnpm verify --cleanup`\)/);
      expect(run.ledger).toBe(true);

      // The next run with the same ledger, against a vendor that cancels, tells them apart from its own.
      const api = await startSampleApi({ control: true, processingDelayMs: 20, seedOrders: false });
      try {
        const next = await verify('cancel-refused', api.url, space.path('fixture-pacts'), ['--control']);
        expect(next.report.teardown).toMatchObject({ open: run.open.length, openEarlier: run.open.length });
        expect(next.stdout).toContain(`; ${run.open.length} left open by an earlier run in `);
        expect(next.stdout).not.toMatch(/\d+ still open/);
      } finally {
        await api.close();
      }
    });

    it('never crosses off an order whose cancel answered success false: it stays in the ledger, said', async () => {
      const run = await teardown('cancel-unsuccessful', /^\/api\/orders\/[^/]+$/, {
        status: 200,
        body: { success: false },
      });
      expect(run.open.length).toBeGreaterThan(0);
      expect(run.report.teardown.open).toBe(run.open.length);
      expect(run.report.teardown.problems.join('\n')).toMatch(/"success": ?false/);
      expect(run.ledger).toBe(true);
    });

    it('reads back an order whose cancel answered success: one still open stays in the ledger, said', async () => {
      // Found by a front that answered every cancel success without passing it on: the teardown
      // said "none left open" while every order it made was open at the vendor.
      const run = await teardown('cancel-pretended', /^\/api\/orders\/[^/]+$/, {
        status: 200,
        body: { success: true },
      });
      expect(run.open.length).toBeGreaterThan(0);
      expect(run.report.teardown.open).toBe(run.open.length);
      expect(run.report.teardown.problems.join('\n')).toMatch(
        /the order still reads with status "in-progress" after 3 cancels answered "success": true/,
      );
      expect(run.ledger).toBe(true);
    });

    it('keeps an order arranged as cancelled in the ledger when it does not read cancelled, and FAILS its state', async () => {
      const refusal = { status: 200, body: { success: false } };
      const run = await teardown('arranged-cancel', /^\/api\/orders\/[^/]+$/, refusal, CONTRACTS);
      expect(
        run.report.interactions.some((item) =>
          /reads back with status "in-progress", not "cancelled"/.test(item.reason ?? ''),
        ),
      ).toBe(true);
      expect(run.report.teardown.open).toBe(run.open.length);
      expect(run.ledger).toBe(true);
    });
  });

  it('sends a cancel once more when its 404 came before the order read open, by uuid when answers carry no id', async () => {
    // Found by the mutation harness: a cancel can meet an order at the end of its creation, and
    // one whose answers give no id has only its uuid to be cancelled by.
    const api = await startSampleApi({ control: true, processingDelayMs: 20, seedOrders: false });
    const refused = new Set<string>();
    const notFound = { message: 'Order not found' };
    const proxy = await startAlteringProxy(api.origin, {
      request: (request) => {
        if (request.method !== 'DELETE' || refused.has(request.path)) return undefined;
        refused.add(request.path);
        const headers = { 'content-type': 'application/json' };
        return { reply: { status: 404, headers, body: Buffer.from(JSON.stringify(notFound)) } };
      },
      response: (answer, request) =>
        request.method === 'GET' && /^\/api\/orders\/[^/?]+$/.test(request.path) && answer.status === 200
          ? editJson(answer, (order) => ({ ...(order as object), id: null }))
          : undefined,
    });
    try {
      const run = await verify('cancel-again', `${proxy.origin}/api`, space.path('fixture-pacts'), [
        '--control',
        '--creation-timeout',
        '5000',
      ]);
      expect(refused.size).toBeGreaterThan(0);
      await expectSettled(run, api, 'cancel-again');
    } finally {
      await proxy.close();
      await api.close();
    }
  });

  it('sends a cancel once more past the window when its 404 came early and the reads since were throttled', async () => {
    // Found by the mutation harness (every read throttled for 27 s): the teardown took a cancel's
    // early 404, and reads that were only ever 429, for an order "still 404 past its deadline".
    const api = await startSampleApi({ control: true, processingDelayMs: 20, seedOrders: false });
    const refused = new Set<string>();
    let tearingDown = false;
    const reply = (status: number, message: string) => ({
      reply: {
        status,
        headers: { 'content-type': 'application/json' },
        body: Buffer.from(JSON.stringify({ message })),
      },
    });
    const proxy = await startAlteringProxy(api.origin, {
      request: (request) => {
        const teardownCancel =
          request.method === 'DELETE' && request.body.toString().includes('Cleanup by the contract verifier');
        if (teardownCancel && !refused.has(request.path)) {
          tearingDown = true;
          refused.add(request.path);
          return reply(404, 'Order not found');
        }
        const read = request.method === 'GET' && /^\/api\/orders\/[^/?]+$/.test(request.path);
        return tearingDown && read ? reply(429, 'Too many requests') : undefined;
      },
    });
    try {
      const run = await verify('early-404', `${proxy.origin}/api`, space.path('fixture-pacts'), [
        ...['--control', '--creation-timeout', '2000', '--poll-interval', '25'],
      ]);
      expect(refused.size).toBeGreaterThan(0);
      expect(run.report.teardown.ended['not-found'] ?? 0).toBe(0);
      // Each order waited for is said once, however many times its cancel is sent again.
      const said = run.stdout.match(/order \S+ is still being created/g) ?? [];
      expect(said.length).toBeGreaterThan(0);
      expect(new Set(said).size).toBe(said.length);
      await expectSettled(run, api, 'early-404');
    } finally {
      await proxy.close();
      await api.close();
    }
  });

  it("takes no other order's status for its own: a sample that reads cancelled for any id crosses nothing off", async () => {
    // A sample-data set may answer its own sample for any id: here one that reads cancelled,
    // while the teardown's cancels are answered "success": false.
    const api = await startSampleApi({ control: true, processingDelayMs: 20, seedOrders: false });
    let tearingDown = false;
    const sample = { id: 1234567, uuid: randomUUID(), number: 'DDB1234567', status: 'cancelled' };
    const json = (body: unknown) => ({
      reply: {
        status: 200,
        headers: { 'content-type': 'application/json' },
        body: Buffer.from(JSON.stringify(body)),
      },
    });
    const proxy = await startAlteringProxy(api.origin, {
      request: (request) => {
        if (
          request.method === 'DELETE' &&
          request.body.toString().includes('Cleanup by the contract verifier')
        ) {
          tearingDown = true;
          return json({ success: false });
        }
        const read = request.method === 'GET' && /^\/api\/orders\/[^/?]+$/.test(request.path);
        return tearingDown && read ? json(sample) : undefined;
      },
    });
    try {
      const run = await verify('sample-cancelled', `${proxy.origin}/api`, space.path('fixture-pacts'), [
        ...['--control', '--creation-timeout', '2000', '--poll-interval', '100'],
      ]);
      const open = (await ordersOf(api)).filter((order) => order.status !== 'cancelled');
      expect(open.length).toBeGreaterThan(0);
      // Each order left open is held in the ledger, and said (with those it cannot tell about).
      expect(run.report.teardown.open).toBeGreaterThanOrEqual(open.length);
      expect(run.report.teardown.problems).toHaveLength(run.report.teardown.open);
      expect(existsSync(space.path('sample-cancelled/verify-ledger.jsonl'))).toBe(true);
    } finally {
      await proxy.close();
      await api.close();
    }
  });

  it('reads back an order whose cancel got no answer: crossed off once it reads cancelled, cancelled again while open', async () => {
    // Found by a front that lost answers: a cancel whose answer never came left the order open in
    // the ledger, whether the vendor had done it or never received it.
    const cancels = new Map<string, number>();
    const lost = { arranging: 0, before: 0, after: 0 };
    await behindFront(
      {
        lose: ({ method, path, body }) => {
          const losing = (kind: keyof typeof lost, when: 'before' | 'after') => {
            lost[kind]++;
            return when;
          };
          if (method !== 'DELETE') return undefined;
          // The arranger's cancel of a "cancelled" state: done, but its answer lost.
          if (body.includes('Arranged by the contract verifier')) return losing('arranging', 'after');
          if (!body.includes('Cleanup by the contract verifier')) return undefined;
          // Each teardown cancel: never received the first time, done without an answer the second.
          const sent = (cancels.get(path) ?? 0) + 1;
          cancels.set(path, sent);
          if (sent === 1) return losing('before', 'before');
          return sent === 2 ? losing('after', 'after') : undefined;
        },
      },
      async (url, api) => {
        const run = await verify('cancel-unanswered', url, CONTRACTS, ['--control']);
        expect(lost.arranging).toBeGreaterThan(0);
        // Orders the replay cancelled read cancelled after the first loss: no second cancel.
        expect(lost.after).toBeGreaterThan(0);
        expect(lost.after).toBeLessThan(lost.before);
        expect(run.verdict('v2', 'a request for the orders with status cancelled')?.verdict).toBe('verified');
        expect(run.code).toBe(0);
        await expectSettled(run, api, 'cancel-unanswered');
      },
    );
  });

  it('cancels again an order not found after its cancel got no answer, as one still being created', async () => {
    // Found by the mutation harness: a cancel met an order at the end of its creation, its
    // answer was lost, and the order, read back, was not found yet either.
    const lost = new Set<string>();
    const readAfterLoss = new Set<string>();
    await behindFront(
      {
        lose: ({ method, path, body }) => {
          if (method !== 'DELETE' || !body.includes('Cleanup by the contract verifier') || lost.has(path)) {
            return undefined;
          }
          lost.add(path);
          return 'before';
        },
        // The first read after the lost cancel: not found yet.
        answer: ({ method, path }) => {
          if (method !== 'GET' || !lost.has(path) || readAfterLoss.has(path)) return undefined;
          readAfterLoss.add(path);
          return { status: 404, body: { message: 'Order not found' } };
        },
      },
      async (url, api) => {
        const run = await verify('creating-unanswered', url, space.path('fixture-pacts'), ['--control']);
        expect(readAfterLoss.size).toBeGreaterThan(0);
        expect(run.stdout).toMatch(/is still being created: cancelling it again/);
        await expectSettled(run, api, 'creating-unanswered');
      },
    );
  });

  it('creates again an order to arrange when a create got no answer, and settles the lost one by the run reference', async () => {
    let creates = 0;
    // The first create is done, but its answer lost.
    await behindFront(
      {
        lose: ({ method, path }) =>
          method === 'POST' && path === '/api/orders' && ++creates === 1 ? 'after' : undefined,
      },
      async (url, api) => {
        const run = await verify('create-unanswered', url, space.path('fixture-pacts'), [
          '--control',
          '--creation-timeout',
          '2000',
        ]);
        expect(run.stderr).toBe('');
        expect(run.report.totals).toMatchObject({ failed: 0, targetUnavailable: 0 });
        expect(run.code).toBe(0);
        expect(run.report.teardown.ended['settled-by-reference']).toBe(1);
        await expectSettled(run, api, 'create-unanswered');
      },
    );
  });

  it('cancels an order found by the run reference whose cancel got no answer, once it reads cancelled', async () => {
    let creates = 0;
    let lostCancels = 0;
    await behindFront(
      {
        // The first create is done but its answer lost: only the scan by reference finds the order.
        // Every cancel by a numeric id is done but its answer lost too.
        lose: ({ method, path }) => {
          if (method === 'POST' && path === '/api/orders' && ++creates === 1) return 'after';
          if (method !== 'DELETE' || !/^\/api\/orders\/\d+$/.test(path)) return undefined;
          lostCancels++;
          return 'after';
        },
      },
      async (url, api) => {
        const run = await verify('scan-unanswered', url, space.path('fixture-pacts'), [
          '--control',
          '--creation-timeout',
          '2000',
        ]);
        expect(lostCancels).toBeGreaterThan(0);
        expect(run.stdout).toMatch(/unanswered at creation, settled by a scan for the run reference/);
        await expectSettled(run, api, 'scan-unanswered');
      },
    );
  });

  describe('a vendor that lists 2 orders a page, whatever the limit asks', () => {
    /** A request for a list page, its limit cut to 2; undefined for any other request. */
    const clampList = (request: ProxiedRequest) =>
      request.method === 'GET' && /^\/api\/orders\?/.test(request.path)
        ? { ...request, path: request.path.replace(/limit=\d+/, 'limit=2') }
        : undefined;

    it('finds listed orders past the first short page, as far as the list goes', async () => {
      // Found by a front that listed 2 orders a page: a short page was taken for the end of the
      // list, and the discount states were "not verifiable here" on a list that had them.
      const api = await startSampleApi({ processingDelayMs: 20 });
      const proxy = await startAlteringProxy(api.origin, { request: clampList });
      try {
        const run = await verify('clamped-list', `${proxy.origin}/api`, CONTRACTS);
        for (const version of ['v1', 'v2']) {
          const discounted = run.verdict(version, 'a request for an order with a customer discount');
          expect(discounted?.verdict).toBe('verified');
          expect(discounted?.arranged.join()).toMatch(
            /a discounted line\) \(looked through ([2-9]|\d\d) pages/,
          );
        }
        // What is left is the closed list's own: states only a control surface reaches.
        expect(run.report.totals).toMatchObject({ failed: 0, notVerifiable: 4 });
        expect(
          run.report.interactions
            .filter((item) => item.verdict === 'not-verifiable')
            .every((item) => item.notVerifiable === 'no-control-surface'),
        ).toBe(true);
      } finally {
        await proxy.close();
        await api.close();
      }
    });

    it('scans every page for an order whose create got no answer, and cancels it', async () => {
      // A short first page once ended the scan as complete: the lost order, listed further on,
      // was crossed off and left open at the vendor.
      await withLostCreate('clamped-scan', { request: clampList }, (run) => {
        expect(run.report.teardown.ended['settled-by-reference']).toBe(1);
        expect(run.stdout).toMatch(/found \d+ orders with it: cancelled 1, already cancelled/);
      });
    });
  });

  it('scans every listed order when the target dates orders of the run before the run began', async () => {
    // Found by a front that dated every order two hours back: the scan by reference took the
    // whole list for older than the run, read none of it, called itself complete, and the order
    // whose create got no answer was crossed off and left open at the vendor.
    const back = (date: unknown) =>
      typeof date === 'string' ? new Date(Date.parse(date) - 2 * 3_600_000).toISOString() : date;
    await withLostCreate(
      'dated-back',
      { response: eachOrderAnswered((order) => Object.assign(order, { date: back(order.date) })) },
      (run) => {
        expect(run.stdout).toContain('the target dates orders of this run before it began');
        expect(run.stdout).toMatch(/found \d+ orders with it: cancelled 1, /);
      },
    );
  });

  it("scans every listed order when the target dates orders 2 h back and no create's answer came", async () => {
    // Found by an audit: with no order of the run known by its id or uuid, nothing showed the
    // dates were off; the scan skipped every order as older than the run, called itself complete,
    // and crossed off every create while their orders stayed open at the vendor.
    const back = (date: unknown) =>
      typeof date === 'string' ? new Date(Date.parse(date) - 2 * 3_600_000).toISOString() : date;
    await behindProxy(
      {
        response: eachOrderAnswered((order) => Object.assign(order, { date: back(order.date) })),
        lose: ({ method, path }) => (method === 'POST' && path === '/api/orders' ? 'after' : undefined),
      },
      async (url, api) => {
        const run = await verifyQuick('dated-back-all-lost', url);
        expect((await ordersOf(api)).length).toBeGreaterThan(0);
        await expectSettled(run, api, 'dated-back-all-lost');
        expect(run.report.teardown.ended['settled-by-reference']).toBeGreaterThan(0);
        expect(run.stdout).toContain(
          'no order of the run is known by its id or uuid: the scan reads every listed order',
        );
      },
    );
  });

  describe('a lost create the scan cannot see: kept in the ledger, said, never crossed off', () => {
    /**
     * A run on the fixture pacts against the sample API (its seed orders in it) behind
     * `alteration`, the answer to its first create lost once the order is made; resolves with the
     * run, the orders left open at the vendor that it made, and whether its ledger is still there.
     */
    const blindRun = async (
      name: string,
      alteration: (seeded: ReadonlySet<number>) => Omit<Alteration, 'lose'>,
    ) => {
      const api = await startSampleApi({ control: true, processingDelayMs: 20 });
      const seeded = new Set((await ordersOf(api)).map((order) => order.id));
      let creates = 0;
      const lose: Alteration['lose'] = ({ method, path }) =>
        method === 'POST' && path === '/api/orders' && ++creates === 1 ? 'after' : undefined;
      const proxy = await startAlteringProxy(api.origin, { ...alteration(seeded), lose });
      try {
        const run = await verifyQuick(name, `${proxy.origin}/api`);
        const open = (await ordersOf(api)).filter(
          (order) => !seeded.has(order.id) && order.status !== 'cancelled',
        );
        return { ...run, open, ledger: existsSync(space.path(`${name}/verify-ledger.jsonl`)) };
      } finally {
        await proxy.close();
        await api.close();
      }
    };
    const expectKept = (run: Awaited<ReturnType<typeof blindRun>>) => {
      expect(run.open).toHaveLength(1);
      expect(run.report.teardown.ended['settled-by-reference']).toBeUndefined();
      expect(run.report.teardown).toMatchObject({ open: 1, unconfirmed: 1 });
      expect(run.ledger).toBe(true);
      expect(run.report.teardown.problems.join('\n')).toMatch(
        /its create got no usable answer .* and the scan by the run's reference did not settle it/,
      );
      expect(run.stdout).toContain(
        'no order of the run was listed with its reference: the scan cannot tell whether the list shows them',
      );
    };

    it('a list that leaves the test orders out', async () => {
      // Found by an audit: such a list showed none of the run's orders, the scan found none with
      // the reference, called itself complete and crossed the lost create off, its order open.
      const run = await blindRun('list-omits-test', (seeded) => ({
        response: (answer, request) =>
          request.method === 'GET' && request.path.startsWith('/api/orders?')
            ? editJson(answer, (json) => {
                const body = json as { orders?: { id: number }[] };
                const orders = body.orders?.filter((order) => seeded.has(order.id));
                return { ...body, orders };
              })
            : undefined,
      }));
      expectKept(run);
    });

    it.each([
      ['null', () => null],
      ['cut to 20 characters', (reference: unknown) => String(reference).slice(0, 20)],
    ])('reads whose reference is %s', async (name, change) => {
      // Found by an audit: a reference read as null was taken for "not the run's", and a cut one
      // compared unequal: the scan found none, called itself complete and crossed the create off.
      const read = /^\/api\/orders\/[^/?]+$/;
      const run = await blindRun(`reference-${name.split(' ')[0]}`, () => ({
        response: (answer, request) =>
          request.method === 'GET' && read.test(request.path)
            ? editJson(answer, (json) => {
                const order = json as Record<string, unknown>;
                return 'reference' in order ? { ...order, reference: change(order.reference) } : order;
              })
            : undefined,
      }));
      expectKept(run);
    });
  });

  it('scans by the weakest signal: answers that break the contract still let it cancel a lost create', async () => {
    // Found by a front that renamed status in every order it answered: the scan read the list
    // through the schema, failed on it, and left the order whose create got no answer open.
    const renamed = ({ status, ...order }: Record<string, unknown>) =>
      Object.assign(order, { state: status });
    await withLostCreate('renamed-status', { response: eachOrderAnswered(renamed) }, (run) => {
      expect(run.code).toBe(1);
      expect(run.report.teardown.ended['settled-by-reference']).toBe(1);
    });
  });

  it('settles through maintenance pages: a cancel or a scan answered 200 in HTML is sent again', async () => {
    // Found by a front answering one request in 5 with a 200 maintenance page: each cancel that
    // met one left its order open, and a scan that met one gave up on the lost create's order.
    const page: ProxiedAnswer = {
      status: 200,
      headers: { 'content-type': 'text/html' },
      body: Buffer.from('<!doctype html><h1>Down for maintenance</h1>'),
    };
    const times = new Map<string, number>();
    // Every first (third, …) cancel of an order, and read of a list page or of an order by its id.
    const maintenance: Alteration['request'] = (request) => {
      const key = `${request.method} ${request.path}`;
      const count = (times.get(key) ?? 0) + 1;
      times.set(key, count);
      const settling = request.method === 'DELETE' || /^\/api\/orders(\?limit=50&|\/\d+$)/.test(request.path);
      return settling && count % 2 === 1 ? { reply: page } : undefined;
    };
    await withLostCreate('maintenance', { request: maintenance }, (run) => {
      expect(run.report.teardown.ended['settled-by-reference']).toBe(1);
      expect(run.report.teardown.ended.cancelled).toBeGreaterThan(0);
    });
  });

  it('cancels the orders a vendor made twice of one create, found by the run reference, and says so', async () => {
    // Found by a front that passed every create on twice: the second orders, unknown to the
    // ledger, were left open on a green night that said "none left open".
    let origin = '';
    const twice: Alteration['request'] = ({ method, path, headers, body }) => {
      if (origin === '' || method !== 'POST' || path !== '/api/orders') return undefined;
      const { host, connection, 'content-length': length, ...kept } = headers;
      const copy = Object.entries(kept).map(([name, value]) => [name, String(value)] as [string, string]);
      void fetch(`${origin}${path}`, { method, headers: copy, body: new Uint8Array(body) }).catch(
        () => undefined,
      );
      return undefined;
    };
    await behindProxy({ request: twice }, async (url, api) => {
      origin = api.origin;
      const run = await verifyQuick('made-twice', url);
      expect(run.code).toBe(0);
      const { unledgered, created } = run.report.teardown;
      expect(unledgered).toBeGreaterThan(0);
      // Every order listed at the vendor is one the run accounts for (those whose creation failed are not listed).
      const failed = run.report.teardown.ended['creation-failed'] ?? 0;
      expect(created - failed).toBe((await ordersOf(api)).length);
      expect(run.stdout).toContain(
        `(${unledgered} of them made beyond what its creates answered, found by the run's reference)`,
      );
      await expectSettled(run, api, 'made-twice');
    });
  });

  describe('a vendor that makes every order and answers its create with a 5xx', () => {
    /** Every create passed on, and its answer replaced by `status`: the order is made all the same. */
    const madeButAnswered =
      (status: number): Alteration['response'] =>
      (_answer, request) =>
        request.method === 'POST' && request.path === '/api/orders'
          ? { status, headers: { 'content-type': 'text/html' }, body: Buffer.from(`<h1>${status}</h1>`) }
          : undefined;

    it('fails the states whose create met its own 500, and settles every order by the run reference', async () => {
      // Found by the mutation harness: a create answered 500 was crossed off as never made, and
      // its order left open; a 500 while arranging was "target unavailable", as if nothing answered.
      await behindProxy({ response: madeButAnswered(500) }, async (url, api) => {
        const run = await verifyQuick('made-500', url);
        expect(run.verdict('v1', 'a request for an order by id')).toMatchObject({
          verdict: 'failed',
          reason: expect.stringMatching(/answered 500 to a request the vendor documents/),
        });
        expect(run.report.totals.targetUnavailable).toBe(0);
        expect(run.code).toBe(1);
        expect(run.report.teardown.ended['settled-by-reference']).toBeGreaterThan(0);
        await expectSettled(run, api, 'made-500');
      });
    });

    it("puts a gateway's 502 down to the target, fails nothing, and settles every order by the run reference", async () => {
      await behindProxy({ response: madeButAnswered(502) }, async (url, api) => {
        const run = await verifyQuick('made-502', url);
        expect(run.verdict('v1', 'a request for an order by id')).toMatchObject({
          verdict: 'target-unavailable',
        });
        expect(run.report.totals.failed).toBe(0);
        expect(run.code).toBe(3);
        expect(run.report.teardown.ended['settled-by-reference']).toBeGreaterThan(0);
        await expectSettled(run, api, 'made-502');
      });
    });
  });

  it.each([303, 302])(
    'settles by the run reference every order a vendor made and answered with a %i, the post/redirect/get way',
    async (status) => {
      // Found by a live-safety audit: a create answered 303 was crossed off as never made, and
      // its order left open while the run said "none left open".
      const redirected: Alteration['response'] = (answer, request) => {
        if (request.method !== 'POST' || request.path !== '/api/orders') return undefined;
        const { uuid } = JSON.parse(answer.body.toString()) as { uuid: string };
        return { status, headers: { location: `/api/orders/${uuid}` }, body: Buffer.alloc(0) };
      };
      await behindProxy({ response: redirected }, async (url, api) => {
        const run = await verifyQuick(`made-${status}`, url);
        expect(run.verdict('v1', 'a request for an order by id')).toMatchObject({ verdict: 'failed' });
        expect(run.report.teardown.ended['settled-by-reference']).toBeGreaterThan(0);
        await expectSettled(run, api, `made-${status}`);
      });
    },
  );

  it("retries a read a gateway answered 502, and sends again a cancel answered 500 that is not the vendor's refusal", async () => {
    const times = new Map<string, number>();
    // The first attempt of every read of one order and of every teardown cancel, never passed on.
    const firstFails: Alteration['request'] = (request) => {
      const key = `${request.method} ${request.path}`;
      const count = (times.get(key) ?? 0) + 1;
      times.set(key, count);
      const teardown =
        request.method === 'DELETE' && String(request.body).includes('Cleanup by the contract');
      const read = request.method === 'GET' && /^\/api\/orders\/\d+$/.test(request.path);
      if (count > 1 || !(teardown || read)) return undefined;
      const status = teardown ? 500 : 502;
      const body = JSON.stringify({ message: teardown ? 'Internal Server Error' : 'Bad Gateway' });
      return { reply: { status, headers: { 'content-type': 'application/json' }, body: Buffer.from(body) } };
    };
    await behindProxy({ request: firstFails }, async (url, api) => {
      const run = await verifyQuick('first-fails', url);
      expect(run.report.totals).toMatchObject({ failed: 0, targetUnavailable: 0 });
      expect(run.code).toBe(0);
      const reads = [...times].filter(([key]) => /^GET \/api\/orders\/\d+$/.test(key));
      expect(reads.length).toBeGreaterThan(0);
      expect(reads.every(([, count]) => count >= 2)).toBe(true);
      // Counted as what it is: no answer of the vendor's, retried.
      expect(run.report.retries?.unanswered).toBeGreaterThanOrEqual(reads.length);
      expect([...times].some(([key, count]) => key.startsWith('DELETE') && count >= 2)).toBe(true);
      await expectSettled(run, api, 'first-fails');
    });
  });

  it('fails the states of a vendor whose create answers a uuid that names no order, and cancels its orders by reference', async () => {
    // Found by a front answering every create with a fresh uuid: no order became readable by it,
    // 18 states were "not verifiable here" on a green night, and the teardown crossed off 24
    // orders as never placed while 22 of them were open at the vendor.
    const foreignUuid: Alteration['response'] = (answer, request) =>
      request.method === 'POST' && request.path === '/api/orders'
        ? editJson(answer, (json) => ({ ...(json as object), uuid: randomUUID() }))
        : undefined;
    await behindProxy({ response: foreignUuid }, async (url, api) => {
      const run = await verifyQuick('uuid-names-nothing', url);
      expect(run.code).toBe(1);
      expect(run.report.totals.notVerifiable).toBe(0);
      expect(run.verdict('v2', 'a request for an order by id')).toMatchObject({
        verdict: 'failed',
        reason: expect.stringMatching(
          /carrying this run's reference, reads in full: the uuids its creates answered name no order/,
        ),
      });
      expect((await ordersOf(api)).filter((order) => order.status !== 'cancelled')).toEqual([]);
      expect(run.stdout).toMatch(/creates? whose uuid named no order: looking for orders with reference/);
    });
  });

  describe('a vendor that throttles teardown cancels for longer than their window', () => {
    const LONG_WAIT = {
      status: 429,
      headers: { 'retry-after': '86400' },
      body: { message: 'Come back tomorrow' },
    };
    const teardownCancel = ({ method, body }: Seen) =>
      method === 'DELETE' && body.includes('Cleanup by the contract verifier');

    it('sends each cancel once more as its window ends, and leaves nothing open when the vendor takes it', async () => {
      // Found by a front answering 429 with Retry-After 86400 to one request in 4: each cancel
      // met it gave up at once and left its order open, though the next request would have passed.
      const refused = new Set<string>();
      await behindFront(
        {
          answer: (seen) => {
            if (!teardownCancel(seen) || refused.has(seen.path)) return undefined;
            refused.add(seen.path);
            return LONG_WAIT;
          },
        },
        async (url, api) => {
          const run = await verify('throttled-cancel', url, space.path('fixture-pacts'), [
            '--control',
            '--creation-timeout',
            '2000',
          ]);
          expect(refused.size).toBeGreaterThan(0);
          expect(run.stdout).toMatch(
            /the target asked to wait 86400 s; sending the cancel once more in \d+ s/,
          );
          expect(run.code).toBe(0);
          await expectSettled(run, api, 'throttled-cancel');
        },
      );
    });

    it('leaves an order it still may not cancel in the ledger, saying from when the vendor takes it', async () => {
      await behindFront({ answer: (seen) => (teardownCancel(seen) ? LONG_WAIT : undefined) }, async (url) => {
        const run = await verify('throttled-for-good', url, space.path('fixture-pacts'), [
          '--control',
          '--creation-timeout',
          '2000',
        ]);
        expect(run.report.teardown.open).toBeGreaterThan(0);
        for (const problem of run.report.teardown.problems) {
          expect(problem).toMatch(
            /not cancelled, throttled: .*429.*; the target asked for no cancel before 20\d\d-/,
          );
        }
        expect(existsSync(space.path('throttled-for-good/verify-ledger.jsonl'))).toBe(true);
      });
    });
  });

  it('reports a create answered without a uuid as FAILED while arranging, never as a target that gave no answer', async () => {
    const api = await startSampleApi({ control: true, processingDelayMs: 20, seedOrders: false });
    const proxy = await startAlteringProxy(api.origin, {
      response: (answer, request) =>
        request.method === 'POST' && request.path === '/api/orders'
          ? editJson(answer, () => ({}))
          : undefined,
    });
    try {
      const run = await verify('create-without-uuid', `${proxy.origin}/api`, space.path('fixture-pacts'), [
        '--control',
        '--creation-timeout',
        '2000',
      ]);
      expect(run.verdict('v1', 'a request for an order by id')).toMatchObject({
        verdict: 'failed',
        reason: expect.stringMatching(/breaks the contract: .*uuid/),
      });
      expect(run.report.totals.targetUnavailable).toBe(0);
      expect(run.code).toBe(1);
    } finally {
      await proxy.close();
      await api.close();
    }
  });

  it('stops the scan by reference at a page that repeats earlier ones, reading each listed order once', async () => {
    const api = await startSampleApi({ control: true, processingDelayMs: 20, seedOrders: false });
    const date = new Date().toISOString().replace(/\.\d+Z$/, '+00:00');
    const orders = Array.from({ length: 50 }, (_, index) => ({
      id: 9_000_000 + index,
      number: `DDB${9_000_000 + index}`,
      status: 'in-progress',
      date,
      uuid: null,
    }));
    let created = false;
    // Creates answer without a uuid (so teardown scans by reference), and once one was sent, every
    // page of the list is the same full page of recent orders, whatever its offset.
    const proxy = await startAlteringProxy(api.origin, {
      request: (request) => {
        if (request.method === 'POST' && request.path === '/api/orders') created = true;
        return undefined;
      },
      response: (answer, request) => {
        if (request.method === 'POST' && request.path === '/api/orders') return editJson(answer, () => ({}));
        if (!created || request.method !== 'GET' || !request.path.startsWith('/api/orders?limit=50&')) return;
        return {
          ...answer,
          status: 200,
          body: Buffer.from(JSON.stringify({ count: 1_000_000_000, orders })),
        };
      },
    });
    try {
      const run = await verify('repeating-scan', `${proxy.origin}/api`, space.path('fixture-pacts'), [
        '--control',
        '--creation-timeout',
        '3000',
      ]);
      const reads = proxy.seen.filter((seen) => /^\/api\/orders\/9\d{6}$/.test(seen.path)).length;
      // Once per scan (two credential sets, two versions) and per sweep for orders the ledger does not
      // know (two credential sets); up to the 100-page bound it was 100 times that.
      expect(reads).toBeLessThanOrEqual(6 * orders.length);
      expect(run.stdout).toMatch(/the scan stopped at page 2, which listed only orders of earlier pages/);
      expect(run.report.teardown.open).toBeGreaterThan(0);
    } finally {
      await proxy.close();
      await api.close();
    }
  });
});
