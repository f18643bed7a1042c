import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type { SampleApi } from '@print-contracts/sample-api';
import {
  cliEnv,
  descendants,
  findByCommand,
  signalWhileLoading,
  workspace,
} from '@print-contracts/test-support';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { CLI, runCli, spawnCli } from './helpers/cli.js';
import { writeFixturePacts } from './helpers/fixture-pact.js';
import { ordersOf } from './helpers/orders.js';
import { credentialEnv, front, sampleTarget, verifyArgs } from './helpers/targets.js';

/** Long enough that a signal lands while the run still waits for its orders to be created. */
const PROCESSING_DELAY_MS = 1_500;

const isCreate = (seen: { method: string; path: string }) =>
  seen.method === 'POST' && seen.path.endsWith('/orders');

const events = (ledger: string, event: string) =>
  readFileSync(ledger, 'utf8')
    .split('\n')
    .filter((line) => line.includes(`"event":"${event}"`)).length;

describe('the verify command stopped mid-run', () => {
  let space: Awaited<ReturnType<typeof workspace>>;
  let api: SampleApi;

  beforeAll(async () => {
    space = await workspace();
    await writeFixturePacts(space.path('pacts'));
  });
  afterEach(() => api?.close());
  afterAll(() => space.remove());

  const start = async (
    reports: string,
    extra: readonly string[] = [],
    baseUrl?: (api: SampleApi) => Promise<string>,
  ) => {
    api = await sampleTarget({ processingDelayMs: PROCESSING_DELAY_MS });
    const args = verifyArgs({
      baseUrl: baseUrl ? await baseUrl(api) : api.url,
      mode: 'sample',
      control: true,
      pact: space.path('pacts'),
      reports,
      // A creation window of its own where `extra` gives none.
      extra: extra.includes('--creation-timeout') ? extra : ['--creation-timeout', '20000', ...extra],
    });
    const run = spawnCli(args, { cwd: space.dir, env: cliEnv(credentialEnv(api)) });
    await run.waitFor('Verifying ');
    return run;
  };

  it.each([
    ['SIGINT', 130],
    ['SIGTERM', 143],
  ] as const)(
    'on %s tears down every order it created, empties the ledger, writes the reports and exits %i',
    async (signal, status) => {
      const reports = space.path(signal);
      const run = await start(reports);
      // Let the create requests land: the orders now exist and are being processed.
      const ledger = `${reports}/verify-ledger.jsonl`;
      await expect
        .poll(() => existsSync(ledger) && events(ledger, 'created'), { timeout: 20_000 })
        .toBeGreaterThan(0);
      run.child.kill(signal);
      const { code } = await run.done;

      expect(code).toBe(status);
      expect(run.stderr()).toContain(`${signal}: stopping; tearing down`);
      const orders = await ordersOf(api);
      expect(orders.length).toBeGreaterThan(0);
      expect(orders.filter((order) => order.status !== 'cancelled')).toEqual([]);
      expect(existsSync(`${reports}/verify-ledger.jsonl`)).toBe(false);
      const report = JSON.parse(readFileSync(`${reports}/verify-report.json`, 'utf8'));
      expect(report).toMatchObject({ stoppedBy: signal, exitCode: status, teardown: { open: 0 } });
      expect(run.stdout()).toContain(
        `Stopped by ${signal}: the replay ended early (${report.totals.notRun} not run); what the run created was torn down.`,
      );
    },
  );

  it.each([
    ['SIGINT', 130],
    ['SIGTERM', 143],
  ] as const)(
    'on %s while it still loads, ends with %i as soon as it is up, having created nothing',
    async (signal, status) => {
      // It died by the signal before: nothing was created, but the status was the shell's, and the
      // command had no say in it.
      api = await sampleTarget({ processingDelayMs: PROCESSING_DELAY_MS });
      const reports = space.path(`loading-${signal}`);
      const args = verifyArgs({
        baseUrl: api.url,
        mode: 'sample',
        control: true,
        pact: space.path('pacts'),
        reports,
      });
      const child = spawn(process.execPath, [...signalWhileLoading(signal), CLI, ...args], {
        cwd: space.dir,
        env: cliEnv(credentialEnv(api)),
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let stderr = '';
      child.stderr.on('data', (chunk: Buffer) => {
        stderr += chunk.toString();
      });
      child.stdout.resume();
      const [code] = await once(child, 'close');
      expect(code, stderr).toBe(status);
      expect(stderr).toMatch(new RegExp(`^\\n?${signal}: stopping`));
      expect(await ordersOf(api)).toEqual([]);
    },
  );

  it("ends broken (exit 2) when Pact's verifier process dies mid-run, judging nothing after it and tearing down", async () => {
    // Found by an audit: every interaction left was FAILED, the vendor blamed for a crash of the kit's side.
    const reports = space.path('worker-killed');
    const run = await start(reports);
    let worker: number | undefined;
    for (let tries = 0; worker === undefined && tries < 400; tries++) {
      worker = await findByCommand(await descendants(run.child.pid as number), /pact-worker\.cjs/);
      if (worker === undefined) await new Promise((done) => setTimeout(done, 25));
    }
    expect(worker, "Pact's verifier process").toBeDefined();
    process.kill(worker as number, 'SIGKILL');
    const { code } = await run.done;
    expect(code, run.stderr()).toBe(2);
    // Killed once ready, or (on a busy machine) while it still started: the kit's side either way.
    expect(run.stderr()).toMatch(
      /^verify: Pact's verifier (?:process ended unexpectedly|could not start: it ended before it was ready) \(SIGKILL\)/m,
    );
    expect(run.stdout()).not.toMatch(/✗ v\d/);
    expect((await ordersOf(api)).filter((order) => order.status !== 'cancelled')).toEqual([]);
  });

  it('killed with SIGKILL while creates are in flight leaves a ledger that --cleanup finishes, by the run reference where no uuid came back', async () => {
    const reports = space.path('killed');
    // Creates are processed at once, but their answers are held back: the kill lands in between.
    let holding = true;
    let held: Awaited<ReturnType<typeof front>> | undefined;
    const run = await start(reports, ['--creation-timeout', '3000'], async (target) => {
      held = await front(target.origin, {
        holdMs: (seen) => (holding && isCreate(seen) ? 5_000 : 0),
      });
      return held.url;
    });
    await expect.poll(() => held?.requests.filter(isCreate).length, { timeout: 20_000 }).toBeGreaterThan(0);
    run.child.kill('SIGKILL');
    await run.done;
    holding = false;
    const ledger = `${reports}/verify-ledger.jsonl`;
    expect(events(ledger, 'creating')).toBeGreaterThan(events(ledger, 'created'));

    const cleanup = await runCli(['--cleanup', '--report-dir', reports, '--poll-interval', '100'], {
      cwd: space.dir,
      env: cliEnv(credentialEnv(api)),
    });
    await held?.close();
    expect(cleanup.stderr).toBe('');
    expect(cleanup.stdout).toContain('looking for orders with reference "contract verify ');
    expect(cleanup.stdout).toContain('the ledger is empty and removed');
    expect(cleanup.code).toBe(0);
    expect(existsSync(ledger)).toBe(false);
    const orders = await ordersOf(api);
    expect(orders.length).toBeGreaterThan(0);
    expect(orders.filter((order) => order.status !== 'cancelled')).toEqual([]);
  });

  it('--cleanup exits 1 and keeps the ledger while it cannot prove what a killed run left', async () => {
    const reports = space.path('unsure');
    let held: Awaited<ReturnType<typeof front>> | undefined;
    const run = await start(reports, ['--creation-timeout', '2000'], async (target) => {
      held = await front(target.origin, {
        holdMs: (seen) => (isCreate(seen) ? 5_000 : 0),
      });
      return held.url;
    });
    await expect.poll(() => held?.requests.filter(isCreate).length, { timeout: 20_000 }).toBeGreaterThan(0);
    run.child.kill('SIGKILL');
    await run.done;
    await held?.close();
    // The list cannot be read (the front the run went through is gone, and the API's list answers
    // 503): the orders without a uuid cannot be looked for. A refused connection is retried for
    // the whole bound on waiting, per scan: 2 s here.
    api.setFaults([{ operation: 'listOrders', status: 503 }]);
    const flags = [
      '--cleanup',
      '--report-dir',
      reports,
      '--poll-interval',
      '100',
      '--creation-timeout',
      '2000',
    ];
    const cleanup = await runCli(flags, {
      cwd: space.dir,
      env: cliEnv(credentialEnv(api)),
    });
    api.setFaults([]);
    expect(cleanup.code).toBe(1);
    expect(cleanup.stdout).toMatch(/still open/);
    expect(existsSync(`${reports}/verify-ledger.jsonl`)).toBe(true);
  });
});

// Teardown's budget after a stop is 15 s; the test's bound leaves room for a busy machine.
describe('the verify command stopped during teardown', { timeout: 90_000 }, () => {
  /**
   * A run that creates one order the target never processes, at its teardown for `use`: teardown
   * would wait for that order until its deadline, 10 min away. Its workspace and target go after.
   */
  async function atTeardown(
    use: (run: ReturnType<typeof spawnCli>, reports: string, api: SampleApi) => Promise<void>,
  ) {
    const space = await workspace();
    const api = await sampleTarget({ processingDelayMs: 3_600_000 });
    try {
      const pacts = await writeFixturePacts(space.path('pacts'), ['v1'], (_version, interactions) =>
        interactions.filter((item) => item.description === 'a request to create a test order'),
      );
      const reports = space.path('reports');
      const run = spawnCli(
        verifyArgs({
          baseUrl: api.url,
          mode: 'sample',
          control: true,
          pact: pacts,
          reports,
          extra: ['--creation-timeout', '600000', '--verbose'],
        }),
        { cwd: space.dir, env: cliEnv(credentialEnv(api)) },
      );
      await run.waitFor('Teardown:');
      await use(run, reports, api);
    } finally {
      await api.close();
      await space.remove();
    }
  }

  it('stops waiting for orders still being created within its budget, exits 143 and leaves them in the ledger, as a stopped --cleanup does (130)', async () => {
    await atTeardown(async (run, reports, api) => {
      run.child.kill('SIGTERM');
      expect(await run.done).toEqual({ code: 143, signal: null });
      const ledger = `${reports}/verify-ledger.jsonl`;
      expect(run.stderr()).toBe(
        `\nSIGTERM: stopping; tearing down the orders this run created (again to quit now, leaving what is still open in ${ledger} for \`pnpm verify --cleanup --ledger ${ledger}\`)…\n`,
      );
      const report = JSON.parse(readFileSync(`${reports}/verify-report.json`, 'utf8'));
      expect(report).toMatchObject({
        stoppedBy: 'SIGTERM',
        exitCode: 143,
        teardown: { created: 1, open: 1 },
      });
      expect(events(ledger, 'creating')).toBe(1);

      // `--cleanup` waits for that order too, until a Ctrl-C: it keeps it in the ledger and exits 130.
      const cleanup = spawnCli(['--cleanup', '--report-dir', reports, '--poll-interval', '100'], {
        cwd: dirname(reports),
        env: cliEnv(credentialEnv(api)),
      });
      await cleanup.waitFor('Cleanup: 1 open orders');
      cleanup.child.kill('SIGINT');
      expect(await cleanup.done).toEqual({ code: 130, signal: null });
      expect(cleanup.stderr()).toBe(
        '\nSIGINT: stopping; what is still open stays in the ledger for the next `pnpm verify --cleanup` (again to quit now)…\n',
      );
      expect(cleanup.stdout()).toMatch(/still open: .*\n.*1 still open in .*verify-ledger\.jsonl/);
      expect(events(ledger, 'creating')).toBe(1);
      expect(existsSync(ledger)).toBe(true);
    });
  });

  it('quits at a second signal, leaving the order it could not cancel in the ledger its first notice named', async () => {
    await atTeardown(async (run, reports) => {
      run.child.kill('SIGINT');
      const ledger = `${reports}/verify-ledger.jsonl`;
      await expect.poll(run.stderr, { timeout: 20_000 }).toContain(`--cleanup --ledger ${ledger}`);
      // A second signal a second or more after the first quits; copies of the first do not count.
      await new Promise((resolve) => setTimeout(resolve, 3_000));
      run.child.kill('SIGINT');
      expect(await run.done).toEqual({ code: 130, signal: null });
      // Quit: no teardown to its end, no reports; the order still open, and said so: the ledger keeps it for `--cleanup`.
      expect(existsSync(`${reports}/verify-report.json`)).toBe(false);
      expect([events(ledger, 'creating'), events(ledger, 'closed')]).toEqual([1, 0]);
    });
  });
});
