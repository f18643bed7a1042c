import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { exampleOrder, OrdersClient } from '@print-contracts/client';
import type { SampleApi } from '@print-contracts/sample-api';
import { cliEnv, workspace } from '@print-contracts/test-support';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Ledger } from '../src/ledger/ledger.js';
import { runCli } from './helpers/cli.js';
import { ordersOf } from './helpers/orders.js';
import { credentialEnv, sampleTarget } from './helpers/targets.js';

describe('pnpm verify --cleanup', () => {
  let space: Awaited<ReturnType<typeof workspace>>;
  let api: SampleApi;

  beforeAll(async () => {
    space = await workspace();
    api = await sampleTarget();
  });
  afterAll(async () => {
    await api?.close();
    await space?.remove();
  });

  it('cancels an order a killed run left open when it belongs to the second credential set alone', async () => {
    const [main, other] = api.credentials;
    if (!main || !other) throw new Error('the sample API has two credential sets');
    const ledgerPath = space.path('other-only.jsonl');
    const ledger = Ledger.open(ledgerPath, 'killed', 60_000);
    const target = { kind: 'url', baseUrl: api.url, mode: 'sample', controlOrigin: undefined } as const;
    const key = ledger.creating(
      { ...target, credentials: { main, other } },
      { credential: 'other', version: 'v2', source: 'state "an order of another credential set exists"' },
    );
    const client = new OrdersClient({ baseUrl: api.url, ...other, apiVersion: 'v2' });
    try {
      const { uuid } = await client.createOrder(
        exampleOrder('v2', { testOrder: true, reference: ledger.reference }),
      );
      ledger.record('created', key, { uuid });
    } finally {
      await client.close();
    }

    const cleanup = await runCli(['--cleanup', '--ledger', ledgerPath, '--poll-interval', '50'], {
      cwd: space.dir,
      env: cliEnv(credentialEnv(api)),
    });

    expect(cleanup.stderr).toBe('');
    expect(cleanup.code).toBe(0);
    expect(existsSync(ledgerPath)).toBe(false);
    const left = (await ordersOf(api)).filter((order) => order.userId === other.userId);
    expect(left.map((order) => order.status)).toEqual(['cancelled']);
  });

  it('cancels the order a vendor made twice of one create of a killed run, found by its reference', async () => {
    // The run's own teardown sweeps for such orders; a run killed before it left the sweep to --cleanup.
    const [main] = api.credentials;
    if (!main) throw new Error('the sample API has a credential set');
    const ledgerPath = space.path('made-twice.jsonl');
    const ledger = Ledger.open(ledgerPath, 'killed-twice', 60_000);
    const target = { kind: 'url', baseUrl: api.url, mode: 'sample', controlOrigin: undefined } as const;
    const key = ledger.creating(
      { ...target, credentials: { main, other: undefined } },
      { credential: 'main', version: 'v1', source: 'state "an order exists"' },
    );
    const client = new OrdersClient({ baseUrl: api.url, ...main, apiVersion: 'v1' });
    let twin: number;
    try {
      const order = exampleOrder('v1', { testOrder: true, reference: ledger.reference });
      const [{ uuid }, made] = await Promise.all([client.createOrder(order), client.createOrder(order)]);
      ledger.record('created', key, { uuid });
      twin = (await client.waitForOrder(made.uuid, { intervalMs: 20 })).id;
    } finally {
      await client.close();
    }

    const cleanup = await runCli(['--cleanup', '--ledger', ledgerPath, '--poll-interval', '50'], {
      cwd: space.dir,
      env: cliEnv(credentialEnv(api)),
    });

    expect(cleanup.stderr).toBe('');
    expect(cleanup.code).toBe(0);
    expect(cleanup.stdout).toContain(
      'Cleanup: 2 orders settled (1 of them found by the reference of their run, unknown to the ledger), 0 still open',
    );
    expect(existsSync(ledgerPath)).toBe(false);
    const twinNow = (await ordersOf(api)).find((order) => order.id === twin);
    expect(twinNow?.status).toBe('cancelled');
  });

  it('leaves a file that is not a ledger as it was and exits 2', async () => {
    const notLedger = space.path('package.json');
    writeFileSync(notLedger, '{\n  "name": "not a ledger"\n}\n');

    const cleanup = await runCli(['--cleanup', '--ledger', notLedger], {
      cwd: space.dir,
      env: cliEnv(credentialEnv(api)),
    });

    expect(cleanup.code).toBe(2);
    expect(cleanup.stderr).toMatch(/^verify: --ledger .*package\.json is not a ledger of pnpm verify/);
    expect(readFileSync(notLedger, 'utf8')).toBe('{\n  "name": "not a ledger"\n}\n');
  });
});
