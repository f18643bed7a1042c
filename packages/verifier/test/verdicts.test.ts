import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { exampleOrder, OrdersClient } from '@print-contracts/client';
import { UNKNOWN_ORDER_ID } from '@print-contracts/client/kit';
import { type SampleApi, startSampleApi } from '@print-contracts/sample-api';
import {
  type Alteration,
  captureIo,
  editJson,
  startAlteringProxy,
  workspace,
} from '@print-contracts/test-support';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXIT_CODES } from '../src/exit-codes.js';
import { REPORT_FILES, type RunReport, runVerify } from '../src/index.js';
import { credentialEnv, verifyArgs } from './helpers/targets.js';

/** The committed contracts: what the nightly job replays against the vendor. */
const CONTRACTS = fileURLToPath(new URL('../../../contracts', import.meta.url));
const VERSIONS = ['v1', 'v2'] as const;
const ONE_ORDER = /^\/api\/orders\/[^/?]+$/;

type Json = Record<string, unknown>;
const linesOf = (json: unknown): Json[] => {
  const lines = (json as Json | null)?.lines;
  return Array.isArray(lines) ? lines : [];
};

describe('the verdicts of a run against a sample API that declared its control surface', () => {
  let space: Awaited<ReturnType<typeof workspace>>;

  beforeAll(async () => {
    space = await workspace();
  });
  afterAll(() => space.remove());

  /**
   * One run against a fresh sample API (control surface on) behind a proxy that alters it as
   * `alteration` says, read back from its JSON report.
   */
  const verify = async (
    name: string,
    alteration: Alteration,
    options: {
      extra?: readonly string[];
      before?: (api: SampleApi) => Promise<void>;
      signal?: AbortSignal;
    } = {},
  ) => {
    const api = await startSampleApi({ control: true, processingDelayMs: 20 });
    const proxy = await startAlteringProxy(api.origin, alteration);
    try {
      await options.before?.(api);
      const output = captureIo({ cwd: space.dir, env: credentialEnv(api), signal: options.signal });
      const reports = space.path(name);
      const args = verifyArgs({
        baseUrl: `${proxy.origin}/api`,
        mode: 'sample',
        control: true,
        pact: CONTRACTS,
        reports,
        extra: options.extra,
      });
      const code = await runVerify(args, output.io);
      const report = JSON.parse(readFileSync(`${reports}/${REPORT_FILES.json}`, 'utf8')) as RunReport;
      const verdict = (version: string, description: string) =>
        report.interactions.find((item) => item.version === version && item.description === description);
      return { code, report, verdict, stdout: output.stdout(), stderr: output.stderr() };
    } finally {
      await proxy.close();
      await api.close();
    }
  };

  it("a line's customerDiscount with renamed fields is FAILED with the mismatch, not excused (exit 1)", async () => {
    const run = await verify('discount-renamed', {
      response: (answer, request) =>
        request.method === 'GET' && ONE_ORDER.test(request.path) && answer.status === 200
          ? editJson(answer, (json) => {
              for (const line of linesOf(json)) {
                const discount = line.customerDiscount as Json | null;
                if (discount && typeof discount === 'object') {
                  line.customerDiscount = {
                    amount: discount.discountAmount,
                    taxAmount: discount.discountTaxAmount,
                  };
                }
              }
              return json;
            })
          : undefined,
    });
    expect(run.code).toBe(EXIT_CODES.failed);
    for (const version of VERSIONS) {
      const item = run.verdict(version, 'a request for an order with a customer discount');
      expect(item).toMatchObject({ verdict: 'failed', arranged: [expect.stringMatching(/discounted line/)] });
      expect(item?.mismatches.join('\n')).toMatch(/customerDiscount/);
    }
  }, 120_000);

  it('a vendor that names its own JSON media type and gives line ids another suffix keeps the contract: the client reads neither (exit 0)', async () => {
    const run = await verify('media-type-and-line-ids', {
      response: (answer, request) => {
        const json = String(answer.headers['content-type'] ?? '').startsWith('application/json');
        const typed = json
          ? {
              ...answer,
              headers: {
                ...answer.headers,
                'content-type': 'application/vnd.printdeal-api+json; charset=utf-8',
              },
            }
          : answer;
        if (request.method !== 'GET' || !ONE_ORDER.test(request.path) || answer.status !== 200) return typed;
        return editJson(typed, (body) => {
          for (const line of linesOf(body)) line.id = `${String(line.id)}-R`;
          return body;
        });
      },
    });
    expect(run.report.totals).toMatchObject({ failed: 0, notVerifiable: 0, targetUnavailable: 0 });
    expect(run.code).toBe(EXIT_CODES.passed);
  }, 120_000);

  it.each([
    ['an object', (id: unknown) => ({ value: id })],
    ['null', () => null],
  ])(
    'a line id turned into %s is FAILED (exit 1)',
    async (what, turn) => {
      const run = await verify(`line-id-${what.replace(' ', '-')}`, {
        response: (answer, request) =>
          request.method === 'GET' && ONE_ORDER.test(request.path) && answer.status === 200
            ? editJson(answer, (body) => {
                for (const line of linesOf(body)) line.id = turn(line.id);
                return body;
              })
            : undefined,
      });
      expect(run.code).toBe(EXIT_CODES.failed);
      for (const version of VERSIONS) {
        expect(
          run.verdict(version, 'a request for an order by its numeric id')?.mismatches.join('\n'),
        ).toMatch(/lines\[0\]\.id/);
      }
    },
    120_000,
  );

  it('a failed creation whose 404 no longer says so is arranged from the bound and FAILED by the replay (exit 1)', async () => {
    const run = await verify(
      'creation-message',
      {
        response: (answer, request) =>
          request.method === 'GET' && ONE_ORDER.test(request.path) && answer.status === 404
            ? { ...answer, body: Buffer.from(JSON.stringify({ message: 'Not found' })) }
            : undefined,
      },
      { extra: ['--creation-timeout', '3000', '--poll-interval', '200'] },
    );
    expect(run.code).toBe(EXIT_CODES.failed);
    for (const version of VERSIONS) {
      expect(run.verdict(version, 'a request for an order whose creation failed')).toMatchObject({
        verdict: 'failed',
        arranged: [expect.stringMatching(/still 404 after \d+ s .*became readable/)],
        mismatches: [expect.any(String)],
      });
    }
    // The wait said what it waited for, and its bound.
    expect(run.stdout).toMatch(/waiting for \d+ orders to be processed \(up to \d+ s more\): \d+ readable/);
  }, 120_000);

  it('a list that ignores offset is FAILED, not put down to sample data, since the target declared a control surface (exit 1)', async () => {
    const run = await verify('offset-ignored', {
      request: (request) =>
        request.path.startsWith('/api/orders?')
          ? { ...request, path: request.path.replace(/([?&])offset=\d+&?/, '$1').replace(/[?&]$/, '') }
          : undefined,
    });
    expect(run.code).toBe(EXIT_CODES.failed);
    for (const version of VERSIONS) {
      expect(run.verdict(version, 'a request for a page of orders past the last one')).toMatchObject({
        verdict: 'failed',
      });
    }
    expect(run.report.totals.notVerifiable).toBe(0);
  }, 120_000);

  it('a list that ignores status is FAILED, not put down to sample data (exit 1)', async () => {
    const run = await verify('status-ignored', {
      request: (request) =>
        request.path.startsWith('/api/orders?')
          ? { ...request, path: request.path.replace(/([?&])status=[^&]*&?/, '$1').replace(/[?&]$/, '') }
          : undefined,
    });
    expect(run.code).toBe(EXIT_CODES.failed);
    for (const version of VERSIONS) {
      expect(run.verdict(version, 'a request for the orders with status cancelled')).toMatchObject({
        verdict: 'failed',
        mismatches: expect.arrayContaining([expect.stringMatching(/status/)]),
      });
    }
    expect(run.report.totals.notVerifiable).toBe(0);
  }, 120_000);

  it('a target whose discounted and shipped orders are listed only past the first page verifies both', async () => {
    const run = await verify(
      'past-first-page',
      {},
      {
        // 60 newer orders push the seeded ones off the first page of 50 (the list is newest first).
        before: async (api) => {
          const [main] = api.credentials;
          const client = new OrdersClient({
            baseUrl: api.url,
            userId: main?.userId ?? '',
            secret: main?.secret ?? '',
          });
          try {
            const created = [];
            for (let index = 0; index < 60; index++)
              created.push(await client.createOrder(exampleOrder('v2')));
            await Promise.all(created.map(({ uuid }) => client.waitForOrder(uuid, { timeoutMs: 60_000 })));
          } finally {
            await client.close();
          }
        },
      },
    );
    expect(run.stderr).toBe('');
    expect(run.code).toBe(EXIT_CODES.passed);
    for (const version of VERSIONS) {
      for (const [description, what] of [
        ['a request for an order with a customer discount', /discounted line\) \(looked through [2-9] pages/],
        ['a request for an order with a shipped line', /shipped line\) \(looked through [2-9] pages/],
      ] as const) {
        expect(run.verdict(version, description)).toMatchObject({
          verdict: 'verified',
          arranged: [expect.stringMatching(what)],
        });
      }
    }
  }, 180_000);

  it('a run stopped by a signal reports what it did not replay as not run, never as the target unavailable (exit 130)', async () => {
    const stop = new AbortController();
    const run = await verify(
      'stopped',
      {
        // The first replayed request no arranging sends: a page of 10.
        request: (request) => {
          if (request.path.includes('limit=10')) stop.abort('SIGINT');
          return undefined;
        },
      },
      { signal: stop.signal },
    );
    expect(run.code).toBe(EXIT_CODES.interrupted);
    expect(run.report.stoppedBy).toBe('SIGINT');
    expect(run.report.totals.notRun).toBeGreaterThan(0);
    expect(run.report.totals.targetUnavailable).toBe(0);
    expect(run.report.totals.failed).toBe(0);
    expect(run.stdout).toContain('Not run (the run was stopped):');
    expect(run.report.interactions.some((item) => item.request.includes(String(UNKNOWN_ORDER_ID)))).toBe(
      true,
    );
  }, 120_000);

  it('a run stopped while the control surface is asked for a state reports those interactions not run, never FAILED (exit 130)', async () => {
    const stop = new AbortController();
    const run = await verify(
      'stopped-at-control',
      {
        request: (request) => {
          if (request.path.startsWith('/__control/orders/')) stop.abort('SIGINT');
          return undefined;
        },
        // Held in silence until the request timeout, which the stop comes before.
        lose: (request) => (request.path.startsWith('/__control/orders/') ? 'silent-before' : undefined),
      },
      { signal: stop.signal, extra: ['--request-timeout', '1000'] },
    );
    expect(run.code).toBe(EXIT_CODES.interrupted);
    expect(run.report.totals.failed).toBe(0);
    expect(run.verdict('v2', 'a request to update an order in production')).toMatchObject({
      verdict: 'not-run',
    });
  }, 120_000);

  it('a control surface that drops every request leaves its states to the target unavailable verdict, never FAILED (exit 3)', async () => {
    const run = await verify('control-dropped', {
      lose: (request) => (request.path.startsWith('/__control/orders/') ? 'before' : undefined),
    });
    expect(run.code).toBe(EXIT_CODES.targetUnavailable);
    expect(run.report.totals.failed).toBe(0);
    expect(run.verdict('v1', 'a request to cancel an order in production')).toMatchObject({
      verdict: 'target-unavailable',
      reason: expect.stringMatching(
        /control surface gave no answer to "in-production": .*dropped the connection/,
      ),
    });
  }, 120_000);

  it('a control surface that throttles is waited out like the API: every state it reaches verified, the 429s reported (exit 0)', async () => {
    let controlCalls = 0;
    const run = await verify('control-throttled', {
      request: (request) =>
        request.path.startsWith('/__control/') && ++controlCalls % 2 === 1
          ? {
              reply: {
                status: 429,
                headers: { 'content-type': 'application/json', 'retry-after': '0' },
                body: Buffer.from('{"message":"slow down"}'),
              },
            }
          : undefined,
    });
    expect(run.stderr).toBe('');
    expect(run.code).toBe(EXIT_CODES.passed);
    expect(controlCalls).toBeGreaterThan(1);
    expect(run.report.totals.notVerifiable).toBe(0);
    expect(run.report.retries?.answers429).toBeGreaterThanOrEqual(Math.floor(controlCalls / 2));
  }, 120_000);
});
