import { existsSync, readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import type { SampleApi } from '@print-contracts/sample-api';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { cliEnv, runCli, spawnCli } from './helpers/cli.js';
import { writeFixturePacts } from './helpers/fixture-pact.js';
import { ordersOf } from './helpers/orders.js';
import { credentialEnv, sampleTarget, verifyArgs } from './helpers/targets.js';
import { workspace } from './helpers/workspace.js';

/** Long enough that an interrupt lands while the run still waits for its orders to be created. */
const PROCESSING_DELAY_MS = 1_200;

describe('the verify command interrupted mid-run', () => {
  let space: Awaited<ReturnType<typeof workspace>>;
  let api: SampleApi;

  beforeAll(async () => {
    space = await workspace();
    await writeFixturePacts(space.path('pacts'));
  });
  afterEach(() => api?.close());
  afterAll(() => space.remove());

  const start = async (reports: string) => {
    api = await sampleTarget({ processingDelayMs: PROCESSING_DELAY_MS });
    const args = verifyArgs({
      baseUrl: api.url,
      mode: 'sample',
      control: true,
      pact: space.path('pacts'),
      reports,
    });
    const run = spawnCli(args, { cwd: space.dir, env: cliEnv(credentialEnv(api)) });
    await run.waitFor('Plan:');
    // Let the create requests land: the orders now exist and are being processed.
    await sleep(200);
    expect((await ordersOf(api)).length).toBe(0);
    return run;
  };

  it('on SIGINT cancels every order it created, empties the ledger and exits 130', async () => {
    const reports = space.path('sigint');
    const run = await start(reports);
    run.child.kill('SIGINT');
    const { code } = await run.done;

    expect(code).toBe(130);
    expect(run.stderr()).toContain('Interrupted: tearing down');
    const orders = await ordersOf(api);
    expect(orders.length).toBeGreaterThan(0);
    expect(orders.filter((order) => order.status !== 'cancelled')).toEqual([]);
    expect(existsSync(`${reports}/verify-ledger.jsonl`)).toBe(false);
    const report = JSON.parse(readFileSync(`${reports}/verify-report.json`, 'utf8'));
    expect(report).toMatchObject({ interrupted: true, exitCode: 130, teardown: { open: 0 } });
  });

  it('killed outright, leaves a ledger that --cleanup finishes', async () => {
    const reports = space.path('killed');
    const run = await start(reports);
    run.child.kill('SIGKILL');
    await run.done;
    const ledger = `${reports}/verify-ledger.jsonl`;
    expect(readFileSync(ledger, 'utf8')).toContain('"event":"created"');

    const cleanup = await runCli(['--cleanup', '--report-dir', reports], {
      cwd: space.dir,
      env: cliEnv(credentialEnv(api)),
    });
    expect(cleanup.stderr).toBe('');
    expect(cleanup.code).toBe(0);
    expect(cleanup.stdout).toContain('the ledger is empty and removed');
    expect(existsSync(ledger)).toBe(false);
    const orders = await ordersOf(api);
    expect(orders.length).toBeGreaterThan(0);
    expect(orders.filter((order) => order.status !== 'cancelled')).toEqual([]);
  });
});
