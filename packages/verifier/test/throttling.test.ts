import { existsSync, readFileSync } from 'node:fs';
import { WRONG_SECRET } from '@print-contracts/client/kit';
import type { SampleApi } from '@print-contracts/sample-api';
import { captureIo, cliEnv, startAlteringProxy, workspace } from '@print-contracts/test-support';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunReport, runVerify } from '../src/index.js';
import { runCli } from './helpers/cli.js';
import { writeFixturePacts } from './helpers/fixture-pact.js';
import { ordersOf } from './helpers/orders.js';
import {
  credentialEnv,
  liveEnv,
  type Seen,
  sampleTarget,
  front as startFront,
  verifyArgs,
} from './helpers/targets.js';

const TOO_MANY = { status: 429, headers: { 'retry-after': '1' }, body: { message: 'Too many requests' } };

// Every 429 costs a second of waiting: a bound with room for a busy machine.
describe('the verify command in live mode against a vendor throttling one request in three', {
  timeout: 240_000,
}, () => {
  let space: Awaited<ReturnType<typeof workspace>>;
  let api: SampleApi;
  let front: Awaited<ReturnType<typeof startFront>>;
  let result: Awaited<ReturnType<typeof runCli>>;
  let report: RunReport;
  /** The 429s the stand-in answered, by what they refused. */
  const throttled = { creates: 0, cancels: 0, all: 0 };

  beforeAll(async () => {
    space = await workspace();
    await writeFixturePacts(space.path('pacts'), ['v2']);
    api = await sampleTarget({ control: false });
    let seen = 0;
    // The stand-in: every third request is answered 429 with Retry-After 1, and so are the first
    // create and the first cancel, whichever they are, so both kinds are sure to be throttled.
    const throttle = ({ method, path }: Seen) => {
      seen++;
      const create = method === 'POST' && path === '/api/orders';
      const cancel = method === 'DELETE';
      const first = (create && throttled.creates === 0) || (cancel && throttled.cancels === 0);
      if (!first && seen % 3 !== 0) return undefined;
      if (create) throttled.creates++;
      if (cancel) throttled.cancels++;
      throttled.all++;
      return TOO_MANY;
    };
    front = await startFront(api.origin, { answer: throttle }, { tls: true });
    result = await runCli(
      verifyArgs({
        baseUrl: front.url,
        mode: 'live',
        pact: space.path('pacts'),
        reports: space.path('reports'),
      }),
      {
        cwd: space.dir,
        env: cliEnv(liveEnv(api)),
      },
    );
    report = JSON.parse(readFileSync(space.path('reports', 'verify-report.json'), 'utf8')) as RunReport;
  });
  afterAll(async () => {
    await front.close();
    await api.close();
    await space.remove();
  });

  it('exits 0 with no interaction put down to the target, creates and cancels throttled included', () => {
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(report.totals).toMatchObject({ failed: 0, targetUnavailable: 0 });
    expect(report.totals.verified).toBeGreaterThan(0);
    expect(throttled.creates).toBeGreaterThanOrEqual(1);
    expect(throttled.cancels).toBeGreaterThanOrEqual(1);
  });

  it('waits out every 429 the vendor answered, and reports how many and how long', () => {
    expect(report.retries).toMatchObject({ answers429: throttled.all, answers503: 0 });
    expect(report.retries?.waitedMs).toBeGreaterThanOrEqual(throttled.all * 1_000);
    expect(result.stdout).toContain(
      `Retries: the target throttled or missed requests (${throttled.all} answers 429)`,
    );
  });

  it('cancels every order it created and removes the ledger', async () => {
    expect(report.teardown).toMatchObject({ open: 0, problems: [] });
    expect(existsSync(space.path('reports', 'verify-ledger.jsonl'))).toBe(false);
    const orders = await ordersOf(api);
    expect(orders.length).toBeGreaterThan(0);
    expect(orders.filter((order) => order.status !== 'cancelled')).toEqual([]);
  });
});

describe('the verify command against a sample-data set throttling one request in four', {
  timeout: 240_000,
}, () => {
  let space: Awaited<ReturnType<typeof workspace>>;
  let api: SampleApi;

  beforeAll(async () => {
    space = await workspace();
    await writeFixturePacts(space.path('pacts'), ['v1', 'v2']);
    api = await sampleTarget({
      control: false,
      faults: [{ status: 429, retryAfterSeconds: 1, rate: 0.25, seed: 4 }],
    });
  });
  afterAll(async () => {
    await api.close();
    await space.remove();
  });

  it('exits 0, reports the throttling it waited out and leaves no order open', async () => {
    const reports = space.path('reports');
    const output = captureIo({ cwd: space.dir, env: credentialEnv(api) });
    const code = await runVerify(
      verifyArgs({ baseUrl: api.url, mode: 'sample', pact: space.path('pacts'), reports }),
      output.io,
    );
    api.setFaults([]);

    expect(output.stderr()).toBe('');
    expect(code).toBe(0);
    const report = JSON.parse(readFileSync(`${reports}/verify-report.json`, 'utf8')) as RunReport;
    expect(report.totals).toMatchObject({ failed: 0, targetUnavailable: 0 });
    expect(report.retries?.answers429).toBeGreaterThan(0);
    expect(output.stdout()).toMatch(/Retries: the target throttled or missed requests \(\d+ answers 429\)/);
    expect(existsSync(`${reports}/verify-ledger.jsonl`)).toBe(false);
    expect((await ordersOf(api)).filter((order) => order.status !== 'cancelled')).toEqual([]);
  });
});

describe('the verify command when the target asks for a long wait', { timeout: 60_000 }, () => {
  it('says so as the wait starts, and stops on a signal without waiting it out', async () => {
    const space = await workspace();
    await writeFixturePacts(space.path('pacts'), ['v2']);
    const api = await sampleTarget({ control: false });
    // The first request with a real secret, the preflight's, is answered 429 with Retry-After 20
    // (beside it, each set's list goes out with a wrong secret too).
    const real = (seen: Seen) => seen.headers['api-secret'] !== WRONG_SECRET;
    const stall = await startFront(api.origin, {
      answer: (seen) =>
        real(seen) && stall.requests.filter(real).length === 1
          ? { ...TOO_MANY, headers: { 'retry-after': '20' } }
          : undefined,
    });
    try {
      const stop = new AbortController();
      const output = captureIo({ cwd: space.dir, env: credentialEnv(api), signal: stop.signal });
      const reports = space.path('reports');
      const run = runVerify(
        verifyArgs({ baseUrl: stall.url, mode: 'sample', pact: space.path('pacts'), reports }),
        output.io,
      );
      await expect
        .poll(output.stdout, { timeout: 15_000 })
        .toMatch(/Waiting 20 s, as the target asked \(429\), before sending GET \/api\/orders\S* again\n/);
      // Every read of the preflight has come: each set's list, and the same with a wrong secret.
      await expect.poll(() => stall.requests.length).toBe(4);
      const sent = stall.requests.length;
      stop.abort('SIGINT');
      // The one line on stderr is the stop's own.
      const stopped = '\nSIGINT: stopping; tearing down the orders this run created (again to quit now)…\n';
      expect({ code: await run, stderr: output.stderr() }).toEqual({ code: 130, stderr: stopped });
      // Stopped in the wait, before anything was created: nothing was sent after the signal.
      expect(stall.requests.length).toBe(sent);
    } finally {
      await stall.close();
      await api.close();
      await space.remove();
    }
  });
});

/**
 * One run in sample mode against `baseUrl` (a stand-in in front of `api`), its control surface
 * declared, the creation window cut to `windowMs` and polls to 100 ms: its exit status and report.
 */
async function quickRun(
  space: Awaited<ReturnType<typeof workspace>>,
  api: SampleApi,
  baseUrl: string,
  windowMs: number,
) {
  const reports = space.path('reports');
  const output = captureIo({ cwd: space.dir, env: credentialEnv(api) });
  const extra = ['--control', '--creation-timeout', String(windowMs), '--poll-interval', '100'];
  const code = await runVerify(
    verifyArgs({ baseUrl, mode: 'sample', pact: space.path('pacts'), reports, extra }),
    output.io,
  );
  const report = JSON.parse(readFileSync(`${reports}/verify-report.json`, 'utf8')) as RunReport;
  return { code, report };
}

// One after another: four runs at once, each with a Pact process of its own, crowd the other
// files' runs on two cores, and the suite is no shorter for it.
// A create is retried to its order's deadline, so 2.7 s of a 3 s window leave its wait nothing;
// the others start later in the window, and are throttled 2 s from the first of them.
describe.each([
  { what: 'creates', method: 'POST', path: /^\/api\/orders$/, burstMs: 2_700 },
  { what: 'reads of an order', method: 'GET', path: /^\/api\/orders\/[^/?]+$/, burstMs: 2_000 },
  { what: 'lists', method: 'GET', path: /^\/api\/orders(\?.*)?$/, burstMs: 2_000 },
  { what: 'cancels', method: 'DELETE', path: /^\/api\/orders\/[^/?]+$/, burstMs: 2_000 },
])(
  'the verify command against a vendor that throttles $what for most of a creation window',
  ({ method, path, burstMs }) => {
    it('waits it out: nothing FAILED, nothing left open, the 429s reported', {
      timeout: 120_000,
    }, async () => {
      const space = await workspace();
      await writeFixturePacts(space.path('pacts'), ['v2']);
      const api = await sampleTarget();
      const WINDOW_MS = 3_000;
      let first: number | undefined;
      // Every such request is answered 429 (no Retry-After) for `burstMs` after the first one came.
      const throttle = (seen: Seen) => {
        if (seen.method !== method || !path.test(seen.path)) return undefined;
        first ??= Date.now();
        return Date.now() < first + burstMs
          ? { status: 429, body: { message: 'Too many requests' } }
          : undefined;
      };
      const stand = await startFront(api.origin, { answer: throttle });
      try {
        const { code, report } = await quickRun(space, api, stand.url, WINDOW_MS);
        expect(report.interactions.filter((item) => item.verdict === 'failed')).toEqual([]);
        expect(code).toBe(0);
        expect(report.retries?.answers429).toBeGreaterThan(0);
        expect((await ordersOf(api)).filter((order) => order.status !== 'cancelled')).toEqual([]);
      } finally {
        await stand.close();
        await api.close();
        await space.remove();
      }
    });
  },
);

describe('the verify command against a vendor whose clock runs 10 min ahead, asking for retries by HTTP date', () => {
  it("measures each Retry-After against the answer's Date: nothing FAILED or unavailable, nothing left open", {
    timeout: 120_000,
  }, async () => {
    const space = await workspace();
    await writeFixturePacts(space.path('pacts'), ['v2']);
    const api = await sampleTarget();
    const vendorDate = (inMs = 0) => new Date(Date.now() + 600_000 + inMs).toUTCString();
    let seen = 0;
    // One request in four (the preflight's, the arranger's and the replayed ones alike) is
    // answered 429 with a Retry-After 1 s after the vendor's own Date; every answer has that Date.
    const stand = await startFront(api.origin, {
      answer: () => {
        if (++seen % 4 !== 1) return undefined;
        const date = vendorDate();
        const at = new Date(Date.parse(date) + 1_000).toUTCString();
        return { status: 429, headers: { date, 'retry-after': at }, body: { message: 'Too many requests' } };
      },
      headers: () => ({ date: vendorDate() }),
    });
    try {
      const { code, report } = await quickRun(space, api, stand.url, 10_000);
      expect(report.interactions.filter((item) => item.verdict !== 'verified')).toEqual([]);
      expect(report.totals).toMatchObject({ failed: 0, targetUnavailable: 0 });
      expect(code).toBe(0);
      expect(report.retries?.answers429).toBeGreaterThan(0);
      expect((await ordersOf(api)).filter((order) => order.status !== 'cancelled')).toEqual([]);
    } finally {
      await stand.close();
      await api.close();
      await space.remove();
    }
  });
});

describe('the verify command against a vendor that throttles the reads of one order past its window', () => {
  it('puts that order down to the target, not to a broken contract, while the others of its body read', {
    timeout: 120_000,
  }, async () => {
    const space = await workspace();
    await writeFixturePacts(space.path('pacts'), ['v2']);
    const api = await sampleTarget();
    let throttledUuid: string | undefined;
    const tooMany = {
      reply: {
        status: 429,
        headers: { 'content-type': 'application/json' },
        body: Buffer.from('{"message":"Too many requests"}'),
      },
    };
    // Every read of the first order created is answered 429, for good.
    const proxy = await startAlteringProxy(api.origin, {
      request: (request) =>
        throttledUuid !== undefined &&
        request.method === 'GET' &&
        request.path === `/api/orders/${throttledUuid}`
          ? tooMany
          : undefined,
      response: (answer, request) => {
        if (throttledUuid === undefined && request.method === 'POST' && request.path === '/api/orders') {
          throttledUuid = (JSON.parse(answer.body.toString()) as { uuid?: string }).uuid;
        }
        return undefined;
      },
    });
    try {
      const { code, report } = await quickRun(space, api, `${proxy.origin}/api`, 2_000);
      expect(throttledUuid).toBeDefined();
      expect(report.interactions.filter((item) => item.verdict === 'failed')).toEqual([]);
      expect(report.totals.targetUnavailable).toBeGreaterThan(0);
      expect(code).toBe(3);
    } finally {
      await proxy.close();
      await api.close();
      await space.remove();
    }
  });
});
