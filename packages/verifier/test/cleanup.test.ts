import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { exampleOrder, OrdersClient } from '@print-contracts/client';
import type { SampleApi } from '@print-contracts/sample-api';
import {
  type Alteration,
  cliEnv,
  editJson,
  startAlteringProxy,
  workspace,
} from '@print-contracts/test-support';
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

  /** `pnpm verify --cleanup --ledger LEDGER` with the sample API's credentials in the environment. */
  const cleanUp = (ledgerPath: string) =>
    runCli(['--cleanup', '--ledger', ledgerPath, '--poll-interval', '50'], {
      cwd: space.dir,
      env: cliEnv(credentialEnv(api)),
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

    const cleanup = await cleanUp(ledgerPath);

    expect(cleanup.stderr).toBe('');
    expect(cleanup.code).toBe(0);
    expect(existsSync(ledgerPath)).toBe(false);
    const left = (await ordersOf(api)).filter((order) => order.userId === other.userId);
    expect(left.map((order) => order.status)).toEqual(['cancelled']);
  });

  /** What a vendor answers a cancel it says it did, whether or not it did. */
  const SAID_DONE = {
    reply: {
      status: 200,
      headers: { 'content-type': 'application/json' },
      body: Buffer.from('{"success":true}'),
    },
  };

  /**
   * The ledger a killed run left at `baseUrl` (the sample API, or a front on it): one v1 create,
   * answered, that the vendor made twice. Resolves with the ledger's path and the twin, which the
   * ledger does not know.
   */
  const madeTwice = async (name: string, baseUrl: string) => {
    const [main] = api.credentials;
    if (!main) throw new Error('the sample API has a credential set');
    const ledgerPath = space.path(`${name}.jsonl`);
    const ledger = Ledger.open(ledgerPath, name, 60_000);
    const key = ledger.creating(
      {
        kind: 'url',
        baseUrl,
        mode: 'sample',
        controlOrigin: undefined,
        credentials: { main, other: undefined },
      },
      { credential: 'main', version: 'v1', source: 'state "an order exists"' },
    );
    const client = new OrdersClient({ baseUrl: api.url, ...main, apiVersion: 'v1' });
    try {
      const order = exampleOrder('v1', { testOrder: true, reference: ledger.reference });
      const [{ uuid }, made] = await Promise.all([client.createOrder(order), client.createOrder(order)]);
      ledger.record('created', key, { uuid });
      return { ledgerPath, twin: await client.waitForOrder(made.uuid, { intervalMs: 20 }) };
    } finally {
      await client.close();
    }
  };

  it('cancels the order a vendor made twice of one create of a killed run, found by its reference', async () => {
    // The run's own teardown sweeps for such orders; a run killed before it left the sweep to --cleanup.
    const { ledgerPath, twin } = await madeTwice('made-twice', api.url);

    const cleanup = await cleanUp(ledgerPath);

    expect(cleanup.stderr).toBe('');
    expect(cleanup.code).toBe(0);
    expect(cleanup.stdout).toContain(
      'Cleanup: 2 orders settled (1 of them found by the reference of their run, unknown to the ledger), 0 still open',
    );
    expect(existsSync(ledgerPath)).toBe(false);
    const twinNow = (await ordersOf(api)).find((order) => order.id === twin.id);
    expect(twinNow?.status).toBe('cancelled');
  });

  it('counts a twin order it found but could not cancel as still open, not as settled', async () => {
    // The vendor answers each cancel of the twin "success" and never does it.
    let twinId = -1;
    const proxy = await startAlteringProxy(api.origin, {
      request: (request) =>
        request.method === 'DELETE' && request.path.startsWith(`/api/orders/${twinId}`)
          ? SAID_DONE
          : undefined,
    });
    try {
      const { ledgerPath, twin } = await madeTwice('twin-kept', `${proxy.origin}/api`);
      twinId = twin.id;

      const cleanup = await cleanUp(ledgerPath);

      expect(cleanup.stdout).toContain('Cleanup: 1 orders settled, 1 still open');
      expect(cleanup.stdout).toContain(`still open: order ${twin.uuid} (found by the run's reference`);
      expect(cleanup.code).toBe(1);
      expect(existsSync(ledgerPath)).toBe(true);
    } finally {
      await proxy.close();
    }
  });

  it('enters a twin order once when its version lists an order without an id and the other version is read too', async () => {
    // The v1 list gains an order without an id: the sweep reads through v1, then through v2.
    const proxy = await startAlteringProxy(api.origin, {
      response: (answer, request) =>
        request.method === 'GET' &&
        request.path.startsWith('/api/orders?') &&
        !String(request.headers.accept).endsWith('.v2')
          ? editJson(answer, (json) => {
              const list = json as { orders: unknown[] };
              return { ...list, orders: [...list.orders, { number: '10004274', status: 'in-progress' }] };
            })
          : undefined,
    });
    try {
      const { ledgerPath } = await madeTwice('twin-idless', `${proxy.origin}/api`);

      const cleanup = await cleanUp(ledgerPath);

      expect(cleanup.stderr).toBe('');
      expect(cleanup.stdout).toContain('reading the orders through the v2 API instead');
      expect(cleanup.stdout).toContain(
        'Cleanup: 2 orders settled (1 of them found by the reference of their run, unknown to the ledger), 0 still open',
      );
      expect(cleanup.code).toBe(0);
    } finally {
      await proxy.close();
    }
  });

  describe("a killed run's creates that got no answer, found by its reference", () => {
    /**
     * A ledger a run killed mid-arranging left: a create of each of `versions` at a vendor (a front
     * on the sample API with `hooks`, or the altering proxy with an `alteration`) sent and never
     * answered, its order made all the same; then `--cleanup` through that vendor. Resolves with
     * what it printed and how the orders ended.
     */
    const killedThenCleanedUp = async (
      name: string,
      versions: readonly ('v1' | 'v2')[],
      hooks: NonNullable<Parameters<typeof front>[1]> | { alteration: Alteration },
    ) => {
      const [main] = api.credentials;
      if (!main) throw new Error('the sample API has a credential set');
      const vendor =
        'alteration' in hooks
          ? await startAlteringProxy(api.origin, hooks.alteration).then((proxy) => ({
              url: `${proxy.origin}/api`,
              close: () => proxy.close(),
            }))
          : await front(api.origin, hooks);
      const ledgerPath = space.path(`${name}.jsonl`);
      const ledger = Ledger.open(ledgerPath, name, 500);
      const made: number[] = [];
      const clients: { close: () => Promise<void> }[] = [];
      try {
        for (const version of versions) {
          const target = {
            kind: 'url',
            baseUrl: vendor.url,
            mode: 'sample',
            controlOrigin: undefined,
          } as const;
          ledger.creating(
            { ...target, credentials: { main, other: undefined } },
            { credential: 'main', version, source: 'state "an order exists"' },
          );
          const client = new OrdersClient({ baseUrl: api.url, ...main, apiVersion: version });
          clients.push(client);
          const order = exampleOrder(version, { testOrder: true, reference: ledger.reference });
          made.push(
            (await client.waitForOrder((await client.createOrder(order)).uuid, { intervalMs: 20 })).id,
          );
        }
        const cleanup = await cleanUp(ledgerPath);
        const statuses = (await ordersOf(api))
          .filter((order) => made.includes(order.id))
          .map((order) => order.status);
        return { ...cleanup, statuses, made, ledgerKept: existsSync(ledgerPath) };
      } finally {
        await Promise.all(clients.map((client) => client.close()));
        await vendor.close();
      }
    };
    const isList = ({ method, path }: { method: string; path: string }) =>
      method === 'GET' && path.startsWith('/api/orders?');
    const isV2 = ({ headers }: { headers: Record<string, unknown> }) =>
      String(headers.accept).endsWith('.v2');

    it("finds them though the vendor answers each order's first three reads 500", async () => {
      // Found by the mutation harness's killed runs: one read answered 500 ended the whole scan, and
      // --cleanup left every order of the run open.
      const reads = new Map<string, number>();
      const run = await killedThenCleanedUp('reads-500', ['v2', 'v2', 'v2', 'v2'], {
        answer: ({ method, path }) => {
          if (method !== 'GET' || !/^\/api\/orders\/\d+$/.test(path)) return undefined;
          const count = (reads.get(path) ?? 0) + 1;
          reads.set(path, count);
          return count <= 3 ? { status: 500, body: { message: 'Internal Server Error' } } : undefined;
        },
      });

      expect(run.stderr).toBe('');
      expect(run.stdout).toContain('found 4 orders with it: cancelled 4, already cancelled 0');
      expect(run.code).toBe(0);
      expect(run.ledgerKept).toBe(false);
      expect(run.statuses).toEqual(['cancelled', 'cancelled', 'cancelled', 'cancelled']);
    });

    it('reads every listed order when the vendor dates its orders 2 h back, the run knowing none of its own', async () => {
      // Found by an audit: a run killed before any create was answered left no order known by its
      // id or uuid, so nothing showed the dates were off; the scan skipped every order as older than
      // the run, and --cleanup said "0 still open; the ledger is empty and removed" with all open.
      const back = (date: unknown) =>
        typeof date === 'string' ? new Date(Date.parse(date) - 2 * 3_600_000).toISOString() : date;
      const dated = (order: Record<string, unknown>) => ({ ...order, date: back(order.date) });
      const run = await killedThenCleanedUp('dated-back', ['v1', 'v2', 'v2'], {
        alteration: {
          response: (answer, request) =>
            request.method !== 'GET'
              ? undefined
              : editJson(answer, (json) => {
                  const body = json as Record<string, unknown>;
                  return Array.isArray(body.orders)
                    ? { ...body, orders: body.orders.map(dated) }
                    : dated(body);
                }),
        },
      });

      expect(run.stderr).toBe('');
      expect(run.statuses).toEqual(['cancelled', 'cancelled', 'cancelled']);
      expect(run.code).toBe(0);
      expect(run.ledgerKept).toBe(false);
      expect(run.stdout).toContain(
        'no order of the run is known by its id or uuid: the scan reads every listed order',
      );
      expect(run.stdout).toContain('found 3 orders with it: cancelled 3, already cancelled 0');
    });

    it('keeps them in the ledger and exits 1 when no order listed reads back with its reference', async () => {
      // A list that leaves the test orders out: the scan finds none with the reference, which
      // proves nothing.
      const run = await killedThenCleanedUp('list-omits-test', ['v2', 'v2'], {
        alteration: {
          response: (answer, request) =>
            request.method === 'GET' && request.path.startsWith('/api/orders?')
              ? editJson(answer, (json) => ({ ...(json as object), orders: [] }))
              : undefined,
        },
      });

      expect(run.stderr).toBe('');
      expect(run.code).toBe(1);
      expect(run.ledgerKept).toBe(true);
      expect(run.statuses).toEqual(['in-progress', 'in-progress']);
      expect(run.stdout).toContain(
        'no order of the run was listed with its reference: the scan cannot tell whether the list shows them',
      );
      expect(run.stdout).toContain('Cleanup: 0 orders settled, 2 still open');
    });

    it('looks for the creates of both API versions in one walk of the list, each order cancelled once', async () => {
      // Each version lists the orders of both: one scan per version found and cancelled them all again.
      const seen: string[] = [];
      const run = await killedThenCleanedUp('both-versions', ['v1', 'v2', 'v2'], {
        answer: ({ method, path }) => {
          seen.push(`${method} ${path.split('?')[0]}`);
          return undefined;
        },
      });

      expect(run.stderr).toBe('');
      expect(run.stdout).toContain('1 v1 and 2 v2 creates without a uuid: looking for orders with reference');
      expect(run.stdout.match(/looking for orders/g)).toHaveLength(1);
      expect(run.stdout).toContain('found 3 orders with it: cancelled 3, already cancelled 0');
      expect(seen.filter((request) => request.startsWith('DELETE'))).toHaveLength(3);
      expect(run.code).toBe(0);
      expect(run.statuses).toEqual(['cancelled', 'cancelled', 'cancelled']);
    });

    it('finds them through the other API version when their own version lists no orders array', async () => {
      // Found by the harness: a v1 list without its orders array read as the end of the list, and
      // the scan crossed the creates off with their orders open.
      const run = await killedThenCleanedUp('v1-list-changed', ['v1', 'v1'], {
        answer: (seen) => (isList(seen) && !isV2(seen) ? { status: 200, body: { count: 2 } } : undefined),
      });

      expect(run.stderr).toBe('');
      expect(run.stdout).toContain('the list answered without an "orders" array at offset 0');
      expect(run.stdout).toContain('reading the orders through the v2 API instead');
      expect(run.code).toBe(0);
      expect(run.statuses).toEqual(['cancelled', 'cancelled']);
    });

    it('keeps them in the ledger and exits 1 when no version reads an order with its reference', async () => {
      const run = await killedThenCleanedUp('reads-without-reference', ['v1', 'v1'], {
        answer: ({ method, path }) => {
          const id = /^\/api\/orders\/(\d+)$/.exec(path)?.[1];
          return method === 'GET' && id
            ? { status: 200, body: { id: Number(id), status: 'in-progress' } }
            : undefined;
        },
      });

      expect(run.stderr).toBe('');
      expect(run.stdout).toMatch(
        /\d+ orders read had no "reference": the scan cannot tell whether they are the run's/,
      );
      expect(run.stdout).toContain('reading the orders through the v2 API instead');
      expect(run.code).toBe(1);
      expect(run.ledgerKept).toBe(true);
      expect(run.statuses).toEqual(['in-progress', 'in-progress']);
    });

    it('keeps each order it found but could not cancel in the ledger once, by its id, in the place of a create', async () => {
      // Found by the mutation harness: behind a vendor that never cancels, the scan found the orders
      // and kept the creates open, then the sweep entered the same orders again as unknown to the
      // ledger: 21 entries held open for 16 orders.
      const run = await killedThenCleanedUp('never-cancels', ['v1', 'v2', 'v2'], {
        answer: ({ method }) => (method === 'DELETE' ? { status: 200, body: { success: false } } : undefined),
      });

      expect(run.stderr).toBe('');
      expect(run.stdout).toContain(
        'found 3 orders with it: cancelled 0, already cancelled 0, not cancelled 3',
      );
      expect(run.stdout).toMatch(
        /order [0-9a-f-]{36} \(state "an order exists", v\d, .*\): found by the run's reference and not cancelled: the cancel answered "success": false/,
      );
      expect(run.stdout).toContain('Cleanup: 0 orders settled, 3 still open');
      expect(run.stdout).not.toContain('unknown to the ledger');
      expect(run.code).toBe(1);
      expect(run.statuses).toEqual(['in-progress', 'in-progress', 'in-progress']);
      const held = Ledger.open(space.path('never-cancels.jsonl'), 'check', 500).open();
      expect(held.map((entry) => entry.id).sort()).toEqual([...run.made].sort());
      // Each named once at the end, with why: not once for why and once more as still open.
      for (const { uuid } of held) {
        const lines = run.stdout.split('\n').filter((line) => line.includes(`order ${uuid}`));
        expect(lines).toEqual([
          expect.stringMatching(/^ {2}still open: .*: found by the run's reference and not cancelled: /),
        ]);
      }
    });

    it('keeps them in the ledger and exits 1 when no version lists orders with a usable id', async () => {
      const idless = { count: 1, orders: [{ number: '10004274', status: 'in-progress' }] };
      const run = await killedThenCleanedUp('lists-without-ids', ['v2', 'v2'], {
        answer: (seen) => (isList(seen) ? { status: 200, body: idless } : undefined),
      });

      expect(run.stderr).toBe('');
      expect(run.stdout).toContain(
        "the list's 1 orders at offset 0 have no usable id: the scan cannot read on",
      );
      expect(run.stdout).toContain('Cleanup: 0 orders settled, 2 still open');
      expect(run.code).toBe(1);
      expect(run.ledgerKept).toBe(true);
    });
  });

  it("crosses off an order whose cancels failed once the scan by its run's reference cancelled it", async () => {
    // Found by the mutation harness: cancels unanswered past an order's window left it open; the
    // scan for the run's unanswered create then cancelled it, and --cleanup still called it open.
    let listed = false;
    const vendor = await front(api.origin, {
      answer: ({ method, path }) => {
        if (method === 'GET' && path.startsWith('/api/orders?')) listed = true;
        return method === 'DELETE' && !listed ? { status: 502, body: { message: 'Bad Gateway' } } : undefined;
      },
    });
    const [main] = api.credentials;
    if (!main) throw new Error('the sample API has a credential set');
    const ledgerPath = space.path('cancelled-by-scan.jsonl');
    const ledger = Ledger.open(ledgerPath, 'cancelled-by-scan', 1_000);
    const target = { kind: 'url', baseUrl: vendor.url, mode: 'sample', controlOrigin: undefined } as const;
    const made = { ...target, credentials: { main, other: undefined } };
    const source = 'state "an order exists"';
    const key = ledger.creating(made, { credential: 'main', version: 'v2', source });
    // A second create of the run, sent and never answered: only the scan by reference looks for it.
    ledger.creating(made, { credential: 'main', version: 'v2', source });
    const client = new OrdersClient({ baseUrl: api.url, ...main, apiVersion: 'v2' });
    try {
      const { uuid } = await client.createOrder(
        exampleOrder('v2', { testOrder: true, reference: ledger.reference }),
      );
      ledger.record('created', key, { uuid });
      const { id } = await client.waitForOrder(uuid, { intervalMs: 20 });

      const cleanup = await cleanUp(ledgerPath);

      expect(cleanup.stderr).toBe('');
      expect(cleanup.stdout).toContain('found 1 orders with it: cancelled 1, already cancelled 0');
      expect(cleanup.stdout).not.toContain('still open:');
      expect(cleanup.code).toBe(0);
      expect(existsSync(ledgerPath)).toBe(false);
      expect((await ordersOf(api)).find((order) => order.id === id)?.status).toBe('cancelled');
    } finally {
      await client.close();
      await vendor.close();
    }
  });

  it('sends the cancel again when the vendor answers success for an order that does not read yet, until it reads cancelled', async () => {
    // A run stopped right after its creates: the vendor says "success" to the first cancel of an
    // order still being created (not done), and the order reads 404 until it is. That success
    // proves nothing: the order, once created, must read cancelled before it is crossed off.
    const slow = await sampleTarget({ processingDelayMs: 1_500 });
    let faked = 0;
    const proxy = await startAlteringProxy(slow.origin, {
      request: (request) => (request.method === 'DELETE' && faked++ === 0 ? SAID_DONE : undefined),
    });
    const [main] = slow.credentials;
    if (!main) throw new Error('the sample API has a credential set');
    const ledgerPath = space.path('success-unread.jsonl');
    const ledger = Ledger.open(ledgerPath, 'success-unread', 60_000);
    const target = {
      kind: 'url',
      baseUrl: `${proxy.origin}/api`,
      mode: 'sample',
      controlOrigin: undefined,
    } as const;
    const key = ledger.creating(
      { ...target, credentials: { main, other: undefined } },
      { credential: 'main', version: 'v2', source: 'state "an order exists"' },
    );
    const client = new OrdersClient({ baseUrl: slow.url, ...main, apiVersion: 'v2' });
    try {
      const { uuid } = await client.createOrder(
        exampleOrder('v2', { testOrder: true, reference: ledger.reference }),
      );
      ledger.record('created', key, { uuid });

      const cleanup = await runCli(['--cleanup', '--ledger', ledgerPath, '--poll-interval', '50'], {
        cwd: space.dir,
        env: cliEnv(credentialEnv(slow)),
      });

      expect(faked).toBeGreaterThan(1);
      expect(cleanup.stderr).toBe('');
      expect(cleanup.code).toBe(0);
      expect(existsSync(ledgerPath)).toBe(false);
      expect((await ordersOf(slow)).map((order) => order.status)).toEqual(['cancelled']);
    } finally {
      await client.close();
      await proxy.close();
      await slow.close();
    }
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

  it.each([
    [
      'no file at the path given',
      () => space.path('typo-ledger.jsonl'),
      /^No ledger at .*typo-ledger\.jsonl: nothing to clean up \(.*--ledger or --report-dir names another\)\n$/,
    ],
    [
      'a ledger whose orders are all settled',
      () => {
        const path = space.path('settled-ledger.jsonl');
        const ledger = Ledger.open(path, 'settled', 1_000);
        const target = { kind: 'url', baseUrl: api.url } as Parameters<Ledger['creating']>[0];
        const key = ledger.creating(target, { credential: 'main', version: 'v2', source: 'a state' });
        ledger.record('closed', key, { outcome: 'cancelled' });
        return path;
      },
      /^The ledger .*settled-ledger\.jsonl holds no open orders: nothing to clean up\.\n$/,
    ],
  ])('exits 0 and says which for %s', async (_what, path, said) => {
    const cleanup = await runCli(['--cleanup', '--ledger', path()], {
      cwd: space.dir,
      env: cliEnv(credentialEnv(api)),
    });
    expect(cleanup.stderr).toBe('');
    expect(cleanup.stdout).toMatch(said);
    expect(cleanup.code).toBe(0);
  });
});
