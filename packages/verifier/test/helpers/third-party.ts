import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { DEMO_CREDENTIALS, type SampleApi, startSampleApi } from '@print-contracts/sample-api';
import {
  type Alteration,
  captureIo,
  editJson,
  type ProxiedAnswer,
  type ProxiedRequest,
  startAlteringProxy,
  workspace,
} from '@print-contracts/test-support';
import { afterAll, beforeAll, expect } from 'vitest';
import { REPORT_FILES, type RunReport, runVerify } from '../../src/index.js';
import { writeFixturePacts } from './fixture-pact.js';
import { ordersOf } from './orders.js';
import { credentialEnv, front, verifyArgs } from './targets.js';

/** The committed contracts: what the nightly job replays against the vendor. */
export const CONTRACTS = fileURLToPath(new URL('../../../../contracts', import.meta.url));

/** A response hook changing each order a GET answers, alone or in a list, by `change`. */
export const eachOrderAnswered =
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

/**
 * What the test files of runs against third-party targets share, for the file that calls it: a
 * workspace holding the fixture pacts (made before its tests, removed after), and runs in sample
 * mode against the sample API behind a front or the altering proxy.
 */
export function thirdPartyTargets() {
  let made: Awaited<ReturnType<typeof workspace>> | undefined;
  beforeAll(async () => {
    made = await workspace();
    await writeFixturePacts(made.path('fixture-pacts'));
  });
  afterAll(() => made?.remove());
  const current = () => {
    if (!made) throw new Error('thirdPartyTargets(): its workspace is made in beforeAll');
    return made;
  };
  const space = {
    get dir() {
      return current().dir;
    },
    path: (...parts: string[]) => current().path(...parts),
  };

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

  return { space, verify, behindFront, behindProxy, verifyQuick, expectSettled, withLostCreate };
}
