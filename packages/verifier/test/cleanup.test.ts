import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { exampleOrder, OrdersClient } from '@print-contracts/client';
import type { SampleApi } from '@print-contracts/sample-api';
import { cliEnv, workspace } from '@print-contracts/test-support';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Ledger } from '../src/ledger/ledger.js';
import { runCli } from './helpers/cli.js';
import { ordersOf } from './helpers/orders.js';
import { credentialEnv, front, sampleTarget } from './helpers/targets.js';

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

  it("finds a killed run's unanswered creates by its reference though the vendor answers each order's first reads 500", async () => {
    // Found by the mutation harness's killed runs: one read answered 500 ended the whole scan, and
    // --cleanup left every order of the run open.
    const [main] = api.credentials;
    if (!main) throw new Error('the sample API has a credential set');
    const ledgerPath = space.path('reads-500.jsonl');
    const ledger = Ledger.open(ledgerPath, 'killed-500', 500);
    const client = new OrdersClient({ baseUrl: api.url, ...main, apiVersion: 'v2' });
    const made: number[] = [];
    try {
      for (let index = 0; index < 4; index++) {
        const target = { kind: 'url', baseUrl: '', mode: 'sample', controlOrigin: undefined } as const;
        ledger.creating(
          { ...target, credentials: { main, other: undefined } },
          { credential: 'main', version: 'v2', source: 'state "an order exists"' },
        );
        const order = exampleOrder('v2', { testOrder: true, reference: ledger.reference });
        made.push((await client.waitForOrder((await client.createOrder(order)).uuid, { intervalMs: 20 })).id);
      }
    } finally {
      await client.close();
    }
    // Each order's first three reads answer 500 (one read's tries, all), then the order.
    const reads = new Map<string, number>();
    const vendor = await front(api.origin, {
      answer: ({ method, path }) => {
        if (method !== 'GET' || !/^\/api\/orders\/\d+$/.test(path)) return undefined;
        const count = (reads.get(path) ?? 0) + 1;
        reads.set(path, count);
        return count <= 3 ? { status: 500, body: { message: 'Internal Server Error' } } : undefined;
      },
    });
    try {
      // The ledger names the front as the run's target.
      const text = readFileSync(ledgerPath, 'utf8').replaceAll('"target":""', `"target":"${vendor.url}"`);
      writeFileSync(ledgerPath, text);
      const cleanup = await runCli(['--cleanup', '--ledger', ledgerPath, '--poll-interval', '50'], {
        cwd: space.dir,
        env: cliEnv(credentialEnv(api)),
      });

      expect(cleanup.stderr).toBe('');
      expect(cleanup.stdout).toContain('found 4 orders with it: cancelled 4, already cancelled 0');
      expect(cleanup.code).toBe(0);
      expect(existsSync(ledgerPath)).toBe(false);
    } finally {
      await vendor.close();
    }
    const statuses = (await ordersOf(api)).filter((order) => made.includes(order.id));
    expect(statuses.map((order) => order.status)).toEqual([
      'cancelled',
      'cancelled',
      'cancelled',
      'cancelled',
    ]);
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
