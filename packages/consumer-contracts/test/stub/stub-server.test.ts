import { execFileSync } from 'node:child_process';
import { EventEmitter, once } from 'node:events';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { API_VERSIONS, isHttpError, OrdersClient } from '@print-contracts/client';
import { PLACEHOLDER_CREDENTIALS, PROVIDER_STATES, UNKNOWN_ORDER_ID } from '@print-contracts/client/kit';
import { descendants, findByCommand, living, waitUntilGone } from '@print-contracts/test-support';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXAMPLE_ORDER } from '../../src/fixtures/examples.js';
import { CANCEL_REASON } from '../../src/fixtures/orders.js';
import {
  INTERACTION_HEADER,
  isStubServerError,
  NO_INTERACTION_STATUS,
  runStubCli,
  STUB_STATE_HEADER,
  type StubServer,
  startStubServer,
} from '../../src/index.js';

describe.each(API_VERSIONS)('the stub serving the %s contract', (version) => {
  let stub: StubServer;
  const clients: OrdersClient<typeof version>[] = [];
  /** A client of the kit, as another team would point it at the stub, optionally naming a state. */
  const clientIn = (state?: string) => {
    const made = new OrdersClient({
      baseUrl: stub.url,
      ...PLACEHOLDER_CREDENTIALS,
      apiVersion: version,
      retry: { retries: 0 },
      headers: state === undefined ? {} : { [STUB_STATE_HEADER]: state },
    });
    clients.push(made);
    return made;
  };
  const raw = (path: string, headers: Record<string, string>) =>
    fetch(`${new URL(stub.url).origin}${path}`, {
      headers: {
        'User-ID': PLACEHOLDER_CREDENTIALS.userId,
        'API-Secret': PLACEHOLDER_CREDENTIALS.secret,
        Accept: `application/vnd.printdeal-api.${version}`,
        ...headers,
      },
    });
  beforeAll(async () => {
    stub = await startStubServer({ versions: [version] });
  });
  afterAll(async () => {
    await Promise.all(clients.map((c) => c.close()));
    await stub.close();
  });

  it('answers the happy path without a state header: the order, and a cancellation accepted', async () => {
    const client = clientIn();
    await expect(client.getOrder(UNKNOWN_ORDER_ID)).resolves.toMatchObject({ id: EXAMPLE_ORDER.id });
    await expect(client.cancelOrder(EXAMPLE_ORDER.id, CANCEL_REASON)).resolves.toEqual({ success: true });
  });

  it.each([
    ['no body', undefined],
    ['another key than reason', '{"cancelReason": "Ordered twice by mistake"}'],
    ['a reason that is no string', '{"reason": 42}'],
  ])(
    `answers ${NO_INTERACTION_STATUS} to a cancel with %s, naming the body: the contract pins {reason}`,
    async (_what, body) => {
      // Found by an audit: the Pact stub server matches no body of a DELETE, and accepted any cancel.
      const answer = await fetch(`${new URL(stub.url).origin}/api/orders/${EXAMPLE_ORDER.id}`, {
        method: 'DELETE',
        headers: {
          'User-ID': PLACEHOLDER_CREDENTIALS.userId,
          'API-Secret': PLACEHOLDER_CREDENTIALS.secret,
          Accept: `application/vnd.printdeal-api.${version}`,
          'Content-Type': 'application/json',
        },
        ...(body === undefined ? {} : { body }),
      });
      expect(answer.status).toBe(NO_INTERACTION_STATUS);
      expect(((await answer.json()) as { message: string }).message).toMatch(
        /"a request to cancel an order with a reason" \(.*\), needs: body/,
      );
    },
  );

  it('answers the refusal whose provider state the header names exactly as the contract writes it', async () => {
    const inProduction = clientIn(PROVIDER_STATES.orderInProductionExists.name);
    const refused = await inProduction.cancelOrder(EXAMPLE_ORDER.id, CANCEL_REASON).catch((e: unknown) => e);
    expect(isHttpError(refused) && refused.status).toBe(500);
    const unknown = clientIn(PROVIDER_STATES.noOrderWithId.name);
    const missing = await unknown.getOrder(UNKNOWN_ORDER_ID).catch((e: unknown) => e);
    expect(isHttpError(missing) && missing.status).toBe(404);
  });

  it('takes a regular expression over state names in the header, as the official stub server does', async () => {
    const answer = await raw(`/api/orders/${EXAMPLE_ORDER.id}`, {
      [STUB_STATE_HEADER]: '^an order of another',
    });
    expect(answer.status).toBe(404);
    expect(answer.headers.get(INTERACTION_HEADER)).toBe('a request for an order of another credential set');
  });

  it(`answers ${NO_INTERACTION_STATUS} naming the request when no interaction has the state it names`, async () => {
    const answer = await raw(`/api/orders/${EXAMPLE_ORDER.id}`, {
      [STUB_STATE_HEADER]: 'a moon order exists',
    });
    expect(answer.status).toBe(NO_INTERACTION_STATUS);
    expect(await answer.json()).toEqual({
      message: expect.stringContaining(`/api/orders/${EXAMPLE_ORDER.id}`),
    });
  });

  it('answers 400 to a state header that is neither a state nor a regular expression', async () => {
    const answer = await raw(`/api/orders/${EXAMPLE_ORDER.id}`, { [STUB_STATE_HEADER]: 'an order (exists' });
    expect(answer.status).toBe(400);
    expect(await answer.json()).toEqual({ message: expect.stringContaining(STUB_STATE_HEADER) });
  });

  it(`answers ${NO_INTERACTION_STATUS} to a path no interaction has, where the official stub server says 404`, async () => {
    const answer = await raw('/api/invoices', {});
    expect(answer.status).toBe(NO_INTERACTION_STATUS);
  });

  it('never echoes a secret it refuses', async () => {
    const answer = await raw(`/api/orders/${EXAMPLE_ORDER.id}`, {
      Accept: 'text/plain',
      'API-Secret': 'distinctive-secret-4711',
    });
    expect(answer.status).toBe(NO_INTERACTION_STATUS);
    expect(await answer.text()).not.toContain('distinctive-secret-4711');
  });
});

describe('the stub server', () => {
  it('refuses to start without the pact files and says where it looked', async () => {
    const error = await startStubServer({ contractsDir: '/nonexistent/contracts' }).catch((e: unknown) => e);
    expect(isStubServerError(error)).toBe(true);
  });

  it('serves the contracts, not a broker, whatever PACT_BROKER_BASE_URL says', async () => {
    // Found by an audit: the official stub server reads the broker the kit's broker commands use,
    // and an unreachable one stopped it from starting at all.
    const saved = process.env.PACT_BROKER_BASE_URL;
    process.env.PACT_BROKER_BASE_URL = 'http://127.0.0.1:9';
    try {
      const stub = await startStubServer({ versions: ['v2'] });
      try {
        const client = new OrdersClient({
          baseUrl: stub.url,
          ...PLACEHOLDER_CREDENTIALS,
          retry: { retries: 0 },
        });
        expect((await client.getOrder(EXAMPLE_ORDER.id)).id).toBe(EXAMPLE_ORDER.id);
        await client.close();
      } finally {
        await stub.close();
      }
    } finally {
      if (saved === undefined) delete process.env.PACT_BROKER_BASE_URL;
      else process.env.PACT_BROKER_BASE_URL = saved;
    }
  });

  it('stops the official stub server process when closed', async () => {
    const stub = await startStubServer({ versions: ['v2'] });
    expect(await living([stub.pid])).toEqual([stub.pid]);
    await stub.close();
    expect(await waitUntilGone([stub.pid])).toEqual([]);
  });
});

describe('print-contracts-stub', () => {
  const io = () => {
    const out: string[] = [];
    const err: string[] = [];
    const signals = new EventEmitter();
    let parent = 4242;
    return {
      out,
      err,
      signals,
      leaveParent: () => {
        parent = 1;
      },
      io: {
        stdout: { write: (text: string) => out.push(text) },
        stderr: { write: (text: string) => err.push(text) },
        stop: { signals, parentPid: () => parent, pollMs: 10 },
      },
    };
  };
  const until = async (check: () => boolean) => {
    for (let waited = 0; !check(); waited += 20) {
      if (waited > 20_000) throw new Error('timed out');
      await new Promise((r) => setTimeout(r, 20));
    }
  };

  it.each([
    [['--api-version', 'v9'], '--api-version'],
    [['--port', 'eighty'], '--port'],
    [['--verbose'], '--verbose'],
    [['--tabel'], "Unknown option '--tabel'; did you mean --table?"],
  ])('given %j exits 2 with one line naming %s, pointing at --help', async (argv, named) => {
    const run = io();
    expect(await runStubCli(argv, run.io)).toBe(2);
    const text = run.err.join('');
    expect(text.split('\n')).toEqual([expect.any(String), '']);
    expect(text).toContain(named);
    expect(text).toMatch(/^stub: .* \(see pnpm stub --help\)\n$/);
  });

  it('prints its version and exits 0 for --version', async () => {
    const run = io();
    expect(await runStubCli(['--version'], run.io)).toBe(0);
    expect(run.out.join('')).toMatch(/^@print-contracts\/consumer-contracts \d+\.\d+\.\d+\n$/);
  });

  it('prints the table of every interaction with --table, and exits 0', async () => {
    const run = io();
    expect(await runStubCli(['--table', '--api-version', 'v2'], run.io)).toBe(0);
    const table = run.out.join('');
    expect(table).toContain('| a request to cancel an order in production |');
    expect(table).toContain(`\`${PROVIDER_STATES.orderInProductionExists.name}\``);
  });

  it.each([
    ['is missing', undefined, /no pact file at .*print-order-client-print-order-api-v2\.json/],
    ['is not JSON', '{ not json', /print-order-client-print-order-api-v2\.json/],
    [
      'has an interaction without a request',
      JSON.stringify({
        consumer: { name: 'c' },
        provider: { name: 'print-order-api-v2' },
        interactions: [
          { type: 'Synchronous/HTTP', description: 'half an interaction', response: { status: 200 } },
        ],
      }),
      /interaction "half an interaction" has no request method and path or no response status/,
    ],
    ['is a named pipe, which would block it for good', 'fifo', /is not a regular file/],
  ])(
    'exits 2 with one line when the pact file %s, with --table or serving',
    async (_what, content, message) => {
      const dir = mkdtempSync(join(tmpdir(), 'stub-contracts-'));
      try {
        const file = join(dir, 'print-order-client-print-order-api-v2.json');
        if (content === 'fifo') execFileSync('mkfifo', [file]);
        else if (content !== undefined) writeFileSync(file, content);
        for (const first of [['--table'], []]) {
          const run = io();
          expect(await runStubCli([...first, '--api-version', 'v2', '--contracts-dir', dir], run.io)).toBe(2);
          const text = run.err.join('');
          expect(text.trim().split('\n')).toHaveLength(1);
          expect(text).toMatch(message);
          expect(run.out.join('')).toBe('');
        }
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  );

  it('exits 1 with one line naming --port and its fix when another program holds the port, its stub server gone', async () => {
    const other = createServer();
    await once(other.listen(0, '127.0.0.1'), 'listening');
    try {
      const port = (other.address() as AddressInfo).port;
      const run = io();
      expect(await runStubCli(['--api-version', 'v2', '--port', String(port)], run.io)).toBe(1);
      expect(run.err.join('')).toBe(
        `stub: --port ${port} is in use by another program; choose another port, or --port 0 for a free one (see pnpm stub --help)\n`,
      );
      expect(run.out.join('')).toBe('');
      expect(await findByCommand(await descendants(process.pid), /[/\\]pact(\.exe)? stub /)).toBeUndefined();
    } finally {
      await new Promise((resolve) => other.close(resolve));
    }
  });

  it.each(['SIGINT', 'SIGTERM', 'SIGHUP'])(
    'serves with a leading `--` from pnpm, and stops with 0 on %s, its stub server gone',
    async (signal) => {
      const run = io();
      const exit = runStubCli(['--', '--api-version', 'v2'], run.io);
      await until(() => run.out.join('').includes('listening at'));
      const url = /listening at (\S+)/.exec(run.out.join(''))?.[1] ?? '';
      const client = new OrdersClient({ baseUrl: url, ...PLACEHOLDER_CREDENTIALS, apiVersion: 'v2' });
      await expect(client.getOrder(EXAMPLE_ORDER.id)).resolves.toMatchObject({ id: EXAMPLE_ORDER.id });
      await client.close();
      run.signals.emit(signal);
      run.signals.emit(signal); // pnpm forwards the signal the process group got: it comes twice
      expect(await exit).toBe(0);
      expect(run.out.join('')).toContain(`Stopped on ${signal}`);
      expect(run.signals.listenerCount(signal)).toBe(0);
    },
  );

  it('stops with 0 when the process that started it goes', async () => {
    const run = io();
    const exit = runStubCli(['--api-version', 'v1'], run.io);
    await until(() => run.out.join('').includes('listening at'));
    run.leaveParent();
    expect(await exit).toBe(0);
    expect(run.out.join('')).toContain('the process that started it exited');
  });
});
