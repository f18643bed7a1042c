import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { OrdersClient } from '@print-contracts/client';
import { type SampleApi, startSampleApi } from '@print-contracts/sample-api';
import { descendants, killLeftovers, start, waitUntilGone } from '@print-contracts/test-support';
import { afterEach, describe, expect, it } from 'vitest';

/** Every order of the sample API's first credential set, with its status. */
async function statuses(api: SampleApi): Promise<string[]> {
  const [main] = api.credentials;
  if (!main) throw new Error('no credentials');
  const client = new OrdersClient({ baseUrl: api.url, ...main, apiVersion: 'v2' });
  try {
    const found: string[] = [];
    for await (const order of client.listAllOrders()) found.push(order.status);
    return found;
  } finally {
    await client.close();
  }
}

describe('pnpm verify and signals sent to pnpm', () => {
  let tracked: number[] = [];
  let api: SampleApi | undefined;
  let scratch: string | undefined;
  afterEach(async () => {
    await killLeftovers(tracked);
    tracked = [];
    await api?.close();
    if (scratch) rmSync(scratch, { recursive: true, force: true });
  });

  it.each(['SIGTERM', 'SIGINT'] as const)(
    'on %s to pnpm alone, tears down what it created, exits as documented and leaves no process',
    async (signal) => {
      api = await startSampleApi({ seedOrders: false, processingDelayMs: 1_500, control: true });
      const [main] = api.credentials;
      scratch = mkdtempSync(join(tmpdir(), 'verify-signals-'));
      const run = start(
        'pnpm',
        ['verify', '--base-url', api.url, '--mode', 'sample', '--control', '--report-dir', scratch],
        { PRINT_API_USER_ID: main?.userId ?? '', PRINT_API_SECRET: main?.secret ?? '' },
      );
      tracked.push(run.pid);
      await run.waitFor(/^Verifying /m);
      // The signal lands once orders exist: the ledger has the uuid of one.
      const ledger = join(scratch, 'verify-ledger.jsonl');
      await expect
        .poll(() => existsSync(ledger) && readFileSync(ledger, 'utf8').includes('"event":"created"'), {
          timeout: 30_000,
        })
        .toBe(true);
      const processes = [run.pid, ...(await descendants(run.pid))];
      tracked.push(...processes);
      process.kill(run.pid, signal);
      await run.exited;
      expect(await waitUntilGone(processes)).toEqual([]);
      expect(run.output.stderr).toContain('stopping; tearing down the orders this run created');
      const created = await statuses(api);
      expect(created.length).toBeGreaterThan(0);
      expect(created.filter((status) => status !== 'cancelled')).toEqual([]);
      expect(existsSync(ledger)).toBe(false);
    },
  );
});
