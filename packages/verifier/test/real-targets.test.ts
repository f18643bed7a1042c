import { randomUUID } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { MAX_ANSWER_BYTES } from '@print-contracts/client/kit';
import {
  DEMO_CREDENTIALS,
  type SampleApi,
  startDocsStandIn,
  startSampleApi,
} from '@print-contracts/sample-api';
import {
  type Alteration,
  captureIo,
  editJson,
  type ProxiedAnswer,
  type ProxiedRequest,
  startAlteringProxy,
  workspace,
} from '@print-contracts/test-support';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPORT_FILES, type RunReport, runVerify } from '../src/index.js';
import { writeFixturePacts } from './helpers/fixture-pact.js';
import { ordersOf } from './helpers/orders.js';
import { credentialEnv, type FrontAnswer, front, type Seen, verifyArgs } from './helpers/targets.js';

/** The committed contracts: what the nightly job replays against the vendor. */
const CONTRACTS = fileURLToPath(new URL('../../../contracts', import.meta.url));

const UUID = /^\/api\/orders\/([0-9a-f-]{36})$/;

/** The version an API request asks for (the vendor answers v1 without the header); none for the control surface. */
const versionOf = (seen: Seen) =>
  !seen.path.startsWith('/api/')
    ? undefined
    : String(seen.headers.accept ?? '').endsWith('.v2')
      ? 'v2'
      : 'v1';

/** A response hook changing each order a GET answers, alone or in a list, by `change`. */
const eachOrderAnswered =
  (change: (order: Record<string, unknown>) => Record<string, unknown>) =>
  (answer: ProxiedAnswer, request: ProxiedRequest) =>
    request.method !== 'GET'
      ? undefined
      : editJson(answer, (json) => {
          const body = json as Record<string, unknown>;
          return Array.isArray(body.orders)
            ? { ...body, orders: body.orders.map((order) => change(order as Record<string, unknown>)) }
            : change(body);
        });

describe('the verifier against third-party targets', () => {
  let space: Awaited<ReturnType<typeof workspace>>;

  beforeAll(async () => {
    space = await workspace();
    await writeFixturePacts(space.path('fixture-pacts'));
  });
  afterAll(() => space.remove());

  /** One run against `baseUrl` in sample mode, read back from its JSON report. */
  const verify = async (
    name: string,
    baseUrl: string,
    pact: string,
    extra: readonly string[] = [],
    env = credentialEnv({ credentials: DEMO_CREDENTIALS } as SampleApi),
  ) => {
    const output = captureIo({ cwd: space.dir, env });
    const reports = space.path(name);
    const code = await runVerify(verifyArgs({ baseUrl, mode: 'sample', pact, reports, extra }), output.io);
    const report = JSON.parse(readFileSync(`${reports}/${REPORT_FILES.json}`, 'utf8')) as RunReport;
    const verdict = (version: string, description: string) =>
      report.interactions.find((item) => item.version === version && item.description === description);
    return { code, report, verdict, stdout: output.stdout(), stderr: output.stderr() };
  };

  /** The sample API (orders processed in 20 ms, none seeded) behind a front with `hooks`, for `use`; both closed after. */
  const behindFront = async (
    hooks: Parameters<typeof front>[1],
    use: (url: string, api: SampleApi) => Promise<void>,
  ) => {
    const api = await startSampleApi({ control: true, processingDelayMs: 20, seedOrders: false });
    const counted = await front(api.origin, hooks);
    try {
      await use(counted.url, api);
    } finally {
      await counted.close();
      await api.close();
    }
  };

  /** The same sample API behind the altering proxy with `alteration`, for `use`; both closed after. */
  const behindProxy = async (alteration: Alteration, use: (url: string, api: SampleApi) => Promise<void>) => {
    const api = await startSampleApi({ control: true, processingDelayMs: 20, seedOrders: false });
    const proxy = await startAlteringProxy(api.origin, alteration);
    try {
      await use(`${proxy.origin}/api`, api);
    } finally {
      await proxy.close();
      await api.close();
    }
  };

  /** A run `name` on the fixture pacts with the bound on creation cut to 2 s, and polls (and pauses between cancels) to 100 ms. */
  const verifyQuick = (name: string, url: string) =>
    verify(name, url, space.path('fixture-pacts'), [
      ...['--control', '--creation-timeout', '2000', '--poll-interval', '100'],
    ]);

  /** Every order run `name` created reads cancelled at `api`, its teardown saw no problem, its ledger is gone. */
  const expectSettled = async (run: Awaited<ReturnType<typeof verify>>, api: SampleApi, name: string) => {
    expect(run.report.teardown).toMatchObject({ open: 0, problems: [] });
    expect((await ordersOf(api)).filter((order) => order.status !== 'cancelled')).toEqual([]);
    expect(existsSync(space.path(`${name}/verify-ledger.jsonl`))).toBe(false);
  };

  /**
   * A run `name` on the fixture pacts against the sample API behind `alteration`, the answer to
   * its first create lost once the order is made, so only the scan by the run's reference can
   * settle that order. `check` reads the run; then every order it made must read cancelled.
   */
  const withLostCreate = async (
    name: string,
    alteration: Omit<Alteration, 'lose'>,
    check: (run: Awaited<ReturnType<typeof verify>>) => void,
  ) => {
    let creates = 0;
    const lose: Alteration['lose'] = ({ method, path }) =>
      method === 'POST' && path === '/api/orders' && ++creates === 1 ? 'after' : undefined;
    await behindProxy({ ...alteration, lose }, async (url, api) => {
      const run = await verifyQuick(name, url);
      check(run);
      await expectSettled(run, api, name);
    });
  };

  describe('a sample-data set whose created orders never become readable, but which lists sample orders', () => {
    // The bound on the one wait for orders being created, and the pause between polls.
    const BOUND_MS = 6_000;
    const POLL_MS = 200;
    /** Polls of one wait: a few quick ones first (25, 50, 100 ms), then one per POLL_MS. */
    const ONE_WAIT_POLLS = BOUND_MS / POLL_MS + 4;
    let api: SampleApi;
    let counted: Awaited<ReturnType<typeof front>>;
    let run: Awaited<ReturnType<typeof verify>>;

    beforeAll(async () => {
      api = await startSampleApi({ processingDelayMs: 3_600_000 });
      counted = await front(api.origin);
      run = await verify('never-readable', counted.url, CONTRACTS, [
        '--creation-timeout',
        String(BOUND_MS),
        '--poll-interval',
        String(POLL_MS),
      ]);
    });
    afterAll(async () => {
      await counted.close();
      await api.close();
    });

    it('verifies every read-only interaction on orders the target lists, and exits 0', () => {
      expect(run.stderr).toBe('');
      expect(run.code).toBe(0);
      for (const version of ['v1', 'v2']) {
        for (const description of [
          'a request for an order by its numeric id',
          'a request for an order by its uuid',
          'a request for an order with a shipped line',
          'a request for an order with a customer discount',
          'a request for the orders with status cancelled',
          'a request for an order of another credential set',
        ]) {
          expect(run.verdict(version, description)).toMatchObject({
            verdict: 'verified',
            arranged: [expect.stringMatching(/listed order/)],
          });
        }
      }
    });

    it('reports what needs an order of its own as not verifiable here, saying why', () => {
      expect(run.verdict('v2', 'a request to cancel an order with a reason')).toMatchObject({
        verdict: 'not-verifiable',
        notVerifiable: 'no-plain-order-readable',
        reason: expect.stringMatching(
          /no plain order this run created became readable .*was not readable after \d+ s\b.*a sample-data credential set may never make its orders readable/,
        ),
      });
      expect(run.report.totals.failed).toBe(0);
    });

    it('waits for each order once, within its bound, in arranging and teardown together', () => {
      const polls = new Map<string, number>();
      for (const seen of counted.requests) {
        const uuid = seen.method === 'GET' ? UUID.exec(seen.path)?.[1] : undefined;
        if (uuid) polls.set(uuid, (polls.get(uuid) ?? 0) + 1);
      }
      expect(polls.size).toBeGreaterThan(0);
      // A second wait, in teardown, would double the polls.
      for (const count of polls.values()) expect(count).toBeLessThan(ONE_WAIT_POLLS * 1.5);
      expect(run.report.teardown.open).toBe(0);
    });

    it('sends every create before the first wait ends, so the run waits for the vendor once, not twice', () => {
      const creates = counted.requests.flatMap((seen, index) =>
        seen.method === 'POST' && /^\/api\/orders\/?$/.test(seen.path) ? [index] : [],
      );
      const firstPolled = counted.requests.find((seen) => seen.method === 'GET' && UUID.test(seen.path));
      const pollsAfterLastCreate = counted.requests
        .slice(Math.max(...creates))
        .filter((seen) => seen.method === 'GET' && seen.path === firstPolled?.path).length;
      // Replayed creates included: they go out while the arranged orders are still awaited, so
      // the first order is polled on for most of its wait after them (replayed after the wait,
      // teardown would poll it once or twice at most).
      const replayedCreates = run.report.interactions.filter(
        (item) => item.states === '' && /^POST \/api\/orders\b/.test(item.request),
      ).length;
      expect(replayedCreates).toBeGreaterThan(0);
      expect(creates.length).toBeGreaterThan(replayedCreates);
      expect(pollsAfterLastCreate).toBeGreaterThan(2);
    });
  });

  it('fails no interaction against a stand-in that answers only what the vendor documents, and says why for the rest', async () => {
    const standIn = await startDocsStandIn();
    try {
      const run = await verify('docs', standIn.url, CONTRACTS, [
        '--creation-timeout',
        '3000',
        '--poll-interval',
        '200',
      ]);
      expect(run.code).toBe(0);
      expect(run.report.totals.failed).toBe(0);
      expect(run.report.totals.verified).toBeGreaterThan(run.report.totals.notVerifiable);
      for (const item of run.report.interactions.filter((entry) => entry.verdict !== 'verified')) {
        expect(item.reason, item.description).toMatch(/\S/);
      }
      expect(run.verdict('v2', 'a request for an order with a shipped line')?.verdict).toBe('verified');
      // The stand-in answers the documented example for any id: a sample-data set's property, shown
      // by two other ids no order has (it used to say "an order with id … exists on this target").
      expect(run.verdict('v2', 'a request for an order with an unknown id')).toMatchObject({
        verdict: 'not-verifiable',
        notVerifiable: 'sample-data-ignores-request',
      });
    } finally {
      await standIn.close();
    }
  });

  it('rides out a target that answers a share of requests 429 with Retry-After or 503: the run is green', async () => {
    const api = await startSampleApi({ control: true, processingDelayMs: 20 });
    api.setFaults([
      { status: 429, retryAfterSeconds: 0, rate: 0.15, seed: 7 },
      { status: 503, retryAfterSeconds: 0, rate: 0.1, seed: 11 },
    ]);
    try {
      const run = await verify('busy', api.url, space.path('fixture-pacts'), ['--control', '--retries', '8']);
      expect(run.report.totals).toMatchObject({ failed: 0, notVerifiable: 0, targetUnavailable: 0 });
      expect(run.code).toBe(0);
    } finally {
      await api.close();
    }
  });

  it.each([
    [503, 'the target'],
    [504, 'its gateway'],
  ])(
    'reports a target that stops answering mid-run (%i from %s) as unavailable, with exit 3, never as a broken contract',
    async (status) => {
      const api = await startSampleApi({ control: true, processingDelayMs: 20 });
      let gone = false;
      const counted = await front(api.origin, {
        // The first replayed request (the list without a query: arranging always pages) ends it.
        answer: (seen) => {
          if (seen.method === 'GET' && seen.path === '/api/orders') gone = true;
          return gone ? { status } : undefined;
        },
      });
      try {
        const run = await verify(`gone-${status}`, counted.url, space.path('fixture-pacts'), [
          '--control',
          '--retries',
          '1',
          // A create a gateway answered may have made its order: the teardown looks after its window.
          '--creation-timeout',
          '2000',
        ]);
        expect(run.report.totals.failed).toBe(0);
        expect(run.report.totals.targetUnavailable).toBeGreaterThan(0);
        expect(run.code).toBe(3);
        expect(run.stdout).toContain('Target unavailable (not a broken contract):');
      } finally {
        await counted.close();
        await api.close();
      }
    },
  );

  /**
   * A v1 run against a front answering the first page of orders with `page` instead: the
   * interaction is target unavailable for `reason`, nothing FAILED, exit 3.
   */
  async function unavailableFirstPage(name: string, page: FrontAnswer, reason: RegExp, extra: string[]) {
    const api = await startSampleApi({ control: true, processingDelayMs: 20 });
    const counted = await front(api.origin, {
      answer: (seen) => (seen.method === 'GET' && seen.path === '/api/orders' ? page : undefined),
    });
    try {
      const pacts = space.path('fixture-pacts');
      const run = await verify(name, counted.url, pacts, ['--control', ...extra, '--api-version', 'v1']);
      expect(run.stderr).toBe('');
      expect(run.verdict('v1', 'a request for the first page of orders')).toMatchObject({
        verdict: 'target-unavailable',
        reason: expect.stringMatching(reason),
      });
      expect(run.report.totals.failed).toBe(0);
      expect(run.code).toBe(3);
    } finally {
      await counted.close();
      await api.close();
    }
  }

  it('reports an answer trickled for longer than the request timeout as unavailable, with exit 3', async () => {
    // A byte every 100 ms: undici's bodyTimeout bounds only the pause between two chunks.
    await unavailableFirstPage(
      'trickled',
      { status: 200, body: { count: 0, orders: [] }, trickleMs: 100 },
      /timed out waiting for the rest of the answer/,
      ['--request-timeout', '1500', '--retries', '0'],
    );
  });

  it('cuts off an answer larger than any of the vendor, says so, and exits 3 instead of holding it', async () => {
    await unavailableFirstPage(
      'oversized',
      { status: 200, body: { count: 0, orders: [], pad: 'x'.repeat(MAX_ANSWER_BYTES) } },
      /sent an answer larger than 16 MB/,
      ['--retries', '1'],
    );
  });

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

  /**
   * The sample API behind a vendor that moved `moved` requests to `/api/moved/…` with a 308, and
   * serves them there; `there` counts each request that followed, by method and body.
   */
  const behindRedirect = async (
    moved: (request: ProxiedRequest) => boolean,
    use: (url: string, api: SampleApi, there: ProxiedRequest[]) => Promise<void>,
  ) => {
    const there: ProxiedRequest[] = [];
    const request: Alteration['request'] = (request) => {
      if (request.path.startsWith('/api/moved/')) {
        there.push(request);
        return { ...request, path: request.path.replace('/api/moved/', '/api/') };
      }
      if (!request.path.startsWith('/api/') || !moved(request)) return undefined;
      const location = request.path.replace('/api/', '/api/moved/');
      return { reply: { status: 308, headers: { location }, body: Buffer.alloc(0) } };
    };
    await behindProxy({ request }, (url, api) => use(url, api, there));
  };

  it('fails every interaction of a vendor that moved its API behind a redirect, and follows none of them', async () => {
    // Found by a redirecting front: Pact's verifier followed each 308 itself, past the proxy, so
    // the replay's creates reached the moved path unledgered, and 6 orders were left open.
    await behindRedirect(
      () => true,
      async (url, api, there) => {
        const run = await verify('moved-api', url, CONTRACTS, ['--control']);
        expect(run.code).toBe(1);
        expect(run.report.totals).toMatchObject({ failed: 57, verified: 0, notVerifiable: 0 });
        expect(run.verdict('v2', 'a request to create an order')?.reason).toMatch(
          /^the target answered 308, a redirect to \/api\/moved\/orders, which the client does not follow: status:/,
        );
        expect(run.verdict('v1', 'a request for an order by its uuid')?.reason).toMatch(
          /the target redirected a request the vendor documents: .*a redirect to \/api\/moved\/orders/,
        );
        expect(there).toEqual([]);
        expect(await ordersOf(api)).toEqual([]);
      },
    );
  });

  it('fails the cancels of a vendor that moved its cancel, and settles through the redirect on its own origin', async () => {
    await behindRedirect(
      (request) => request.method === 'DELETE',
      async (url, api, there) => {
        const run = await verify('moved-cancel', url, CONTRACTS, ['--control']);
        expect(run.code).toBe(1);
        expect(run.verdict('v2', 'a request to cancel an order with a reason')).toMatchObject({
          verdict: 'failed',
          reason: expect.stringMatching(
            /a redirect to \/api\/moved\/orders\/\d+, which the client does not follow/,
          ),
        });
        expect(run.verdict('v2', 'a request for the first page of orders')?.verdict).toBe('verified');
        // Only the teardown followed, each cancel to the moved path.
        expect(there.length).toBeGreaterThan(0);
        expect(
          there.every(
            ({ method, body }) =>
              method === 'DELETE' && /Cleanup by the contract verifier/.test(String(body)),
          ),
        ).toBe(true);
        // The HAR says where each redirect pointed.
        const har = JSON.parse(readFileSync(space.path(`moved-cancel/${REPORT_FILES.har}`), 'utf8')) as {
          log: { entries: { response: { status: number; redirectURL: string } }[] };
        };
        const redirects = har.log.entries.filter(({ response }) => response.status === 308);
        expect(redirects.length).toBeGreaterThan(0);
        for (const { response } of redirects)
          expect(response.redirectURL).toMatch(/^\/api\/moved\/orders\/\w/);
        await expectSettled(run, api, 'moved-cancel');
      },
    );
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

  it('says once that a target no longer serves v1, keeps v2 green, and exits 1', async () => {
    const api = await startSampleApi({ control: true, processingDelayMs: 20 });
    const counted = await front(api.origin, {
      answer: (seen) =>
        versionOf(seen) === 'v1' ? { status: 406, body: { message: 'v1 was shut down' } } : undefined,
    });
    try {
      const run = await verify('no-v1', counted.url, space.path('fixture-pacts'), ['--control']);
      expect(run.report.findings).toEqual([
        expect.objectContaining({
          version: 'v1',
          kind: 'retired',
          status: 406,
          text: expect.stringMatching(/^v1 is no longer served here/),
        }),
      ]);
      expect(run.report.byVersion.v2).toMatchObject({ failed: 0, notVerifiable: 0 });
      expect(run.stdout.match(/Finding: v1 is no longer served/g)).toHaveLength(1);
      expect(run.code).toBe(1);
    } finally {
      await counted.close();
      await api.close();
    }
  });

  it('warns of Deprecation and Sunset headers with their dates, and still exits 0', async () => {
    const api = await startSampleApi({ control: true, processingDelayMs: 20 });
    const counted = await front(api.origin, {
      headers: (seen): Record<string, string> =>
        versionOf(seen) === 'v1'
          ? { deprecation: '@1585699200', sunset: 'Fri, 11 Sep 2020 00:00:00 GMT' }
          : {},
    });
    try {
      const run = await verify('deprecated', counted.url, space.path('fixture-pacts'), ['--control']);
      expect(run.report.warnings).toEqual([
        'v1 is deprecated (Deprecation: @1585699200, 2020-04-01)',
        'v1 will be shut down (Sunset: Fri, 11 Sep 2020 00:00:00 GMT, 2020-09-11)',
      ]);
      expect(run.stdout).toContain(
        'Warning: v1 will be shut down (Sunset: Fri, 11 Sep 2020 00:00:00 GMT, 2020-09-11)',
      );
      expect(readFileSync(space.path('deprecated', REPORT_FILES.markdown), 'utf8')).toContain(
        '- Warning: v1 is deprecated',
      );
      expect(run.code).toBe(0);
    } finally {
      await counted.close();
      await api.close();
    }
  });
});
