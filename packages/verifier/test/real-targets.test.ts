import { readFileSync } from 'node:fs';
import { MAX_ANSWER_BYTES } from '@print-contracts/client/kit';
import { type SampleApi, startDocsStandIn, startSampleApi } from '@print-contracts/sample-api';
import {
  type Alteration,
  editJson,
  type ProxiedRequest,
  startAlteringProxy,
} from '@print-contracts/test-support';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPORT_FILES } from '../src/index.js';
import { ordersOf } from './helpers/orders.js';
import { type FrontAnswer, front, type Seen } from './helpers/targets.js';
import { CONTRACTS, thirdPartyTargets } from './helpers/third-party.js';

// The runs against third-party targets that read the replay's verdicts; those that try the
// teardown are in teardown-targets.test.ts (two files, so that vitest runs them side by side).

const UUID = /^\/api\/orders\/([0-9a-f-]{36})$/;

/** The version an API request asks for (the vendor answers v1 without the header); none for the control surface. */
const versionOf = (seen: Seen) =>
  !seen.path.startsWith('/api/')
    ? undefined
    : String(seen.headers.accept ?? '').endsWith('.v2')
      ? 'v2'
      : 'v1';

/** An order, or each order of a list, with its `number` a number: a change of type the contracts pin. */
const retypedNumbers = (json: unknown): unknown => {
  const body = json as { orders?: unknown[] };
  const retype = (order: unknown) => ({ ...(order as object), number: 1234567 });
  return Array.isArray(body.orders) ? { ...body, orders: body.orders.map(retype) } : retype(json);
};

describe('the verifier against third-party targets', () => {
  const { space, verify, behindProxy, expectSettled } = thirdPartyTargets();

  describe('a sample-data set whose created orders never become readable, but which lists sample orders', () => {
    // The bound on the one wait for orders being created, and the pause between polls.
    // Long enough that a busy machine starts the first replay within it (it starts in about 1 s).
    const BOUND_MS = 8_000;
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
        '--verbose',
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
      const firstCancelled = counted.requests.findIndex(
        (seen) => seen.method === 'DELETE' && seen.path === firstPolled?.path,
      );
      // Polls of the first order's wait (its teardown, which starts with its cancel, not counted)
      // after the last create: replayed after the wait, the creates would leave none.
      const waitPollsAfterLastCreate = counted.requests
        .slice(Math.max(...creates), firstCancelled)
        .filter((seen) => seen.method === 'GET' && seen.path === firstPolled?.path).length;
      const replayedCreates = run.report.interactions.filter(
        (item) => item.states === '' && /^POST \/api\/orders\b/.test(item.request),
      ).length;
      expect(replayedCreates).toBeGreaterThan(0);
      expect(creates.length).toBeGreaterThan(replayedCreates);
      expect(firstCancelled).toBeGreaterThan(Math.max(...creates));
      expect(waitPollsAfterLastCreate).toBeGreaterThan(0);
    });

    it('replays the creates first, so that the vendor starts making their orders before anything else is sent', () => {
      // `--verbose` prints each replayed request, in the order sent, with its interaction.
      const replayed = run.stdout.split('\n').flatMap((line) => {
        const sent = /^ +→ (v\d) \S+ \S+ → .*? {2}(.+)$/.exec(line);
        return sent ? [{ version: sent[1], description: String(sent[2]) }] : [];
      });
      for (const version of ['v1', 'v2']) {
        const firstWave = run.report.interactions.filter(
          (item) => item.version === version && item.states === '',
        );
        const isCreate = new Set(
          firstWave
            .filter((item) => /^POST \/api\/orders\b/.test(item.request))
            .map((item) => item.description),
        );
        const others = new Set(
          firstWave.map((item) => item.description).filter((name) => !isCreate.has(name)),
        );
        const order = replayed.filter((sent) => sent.version === version).map((sent) => sent.description);
        const lastCreate = order.findLastIndex((name) => isCreate.has(name));
        const firstOther = order.findIndex((name) => others.has(name));
        expect(Math.min(isCreate.size, others.size), version).toBeGreaterThan(1);
        expect(lastCreate, version).toBeGreaterThan(-1);
        expect(lastCreate, version).toBeLessThan(firstOther);
      }
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

  it("leaves a sample-data set's schema-breaking sample order to the replay and the probe, never to the arranger", async () => {
    const standIn = await startDocsStandIn();
    // Its one sample order, answered for any id, and its sample list, each with a retyped number.
    const proxy = await startAlteringProxy(new URL(standIn.url).origin, {
      response: (answer, request) =>
        request.method === 'GET' ? editJson(answer, retypedNumbers) : undefined,
    });
    try {
      const run = await verify('docs-retyped', `${proxy.origin}/api`, CONTRACTS, [
        ...['--creation-timeout', '3000', '--poll-interval', '200'],
      ]);
      // The replay judges the reads of an order; the probe excuses the refusal a sample set never gives.
      expect(run.verdict('v2', 'a request for an order by its numeric id')).toMatchObject({
        verdict: 'failed',
      });
      expect(run.verdict('v2', 'a request for the first page of orders')).toMatchObject({
        verdict: 'failed',
      });
      for (const description of [
        'a request for an order with an unknown id',
        'a request for a page of orders past the last one',
      ]) {
        expect(run.verdict('v2', description), description).toMatchObject({
          verdict: 'not-verifiable',
          notVerifiable: 'sample-data-ignores-request',
        });
      }
    } finally {
      await proxy.close();
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
