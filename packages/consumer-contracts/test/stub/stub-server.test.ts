import { API_VERSIONS, isHttpError, OrdersClient } from '@print-contracts/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CANCEL_REASON,
  EXAMPLE_ORDER,
  isStubServerError,
  NEW_ORDERS,
  PLACEHOLDER_CREDENTIALS,
  PROVIDER_STATES,
  runStubCli,
  STUB_STATE_HEADER,
  type StubServer,
  startStubServer,
  UNKNOWN_ORDER_ID,
} from '../../src/index.js';

describe.each(API_VERSIONS)('the Pact stub server serving the %s contract', (version) => {
  let stub: StubServer;
  let client: OrdersClient<typeof version>;
  const clients: OrdersClient<typeof version>[] = [];
  /** A client of the kit, as another team would point it at the stub, optionally naming a state. */
  const clientIn = (state?: string) => {
    const headers: Record<string, string> = state
      ? { [STUB_STATE_HEADER]: `^${state.replace(/[{}]/g, '\\$&')}$` }
      : {};
    const made = new OrdersClient({
      baseUrl: stub.url,
      ...PLACEHOLDER_CREDENTIALS,
      apiVersion: version,
      retry: { retries: 0 },
      headers,
    });
    clients.push(made);
    return made;
  };
  beforeAll(async () => {
    stub = await startStubServer({ versions: [version] });
    client = clientIn();
  });
  afterAll(async () => {
    await Promise.all(clients.map((c) => c.close()));
    await stub.close();
  });

  it("answers the kit's client with the contract's example order, which passes the client's schema", async () => {
    const order = await client.getOrder(EXAMPLE_ORDER.id);
    expect(order.id).toBe(EXAMPLE_ORDER.id);
    expect(order.lines.length).toBeGreaterThan(0);
  });

  it('answers a list of orders and a created order', async () => {
    const page = await client.listOrders();
    expect(page.orders.length).toBeGreaterThan(0);
    const created = await client.createOrder(NEW_ORDERS[version] as never);
    expect(created.uuid).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('answers a cancellation with a reason, or its refusal, as the named provider state says', async () => {
    const exists = clientIn(PROVIDER_STATES.orderExists.name);
    const inProduction = clientIn(PROVIDER_STATES.orderInProductionExists.name);
    await expect(exists.cancelOrder(EXAMPLE_ORDER.id, CANCEL_REASON)).resolves.toEqual({ success: true });
    const refused = await inProduction.cancelOrder(EXAMPLE_ORDER.id, CANCEL_REASON).catch((e: unknown) => e);
    expect(isHttpError(refused) && refused.status).toBe(500);
  });

  it('answers an unknown order with the 404 the contract promises', async () => {
    const unknown = clientIn(PROVIDER_STATES.noOrderWithId.name);
    const error = await unknown.getOrder(UNKNOWN_ORDER_ID).catch((e: unknown) => e);
    expect(isHttpError(error) && error.status).toBe(404);
  });
});

describe('the stub server', () => {
  it('refuses to start without the pact files and says where it looked', async () => {
    const error = await startStubServer({ contractsDir: '/nonexistent/contracts' }).catch((e: unknown) => e);
    expect(isStubServerError(error)).toBe(true);
  });
});

describe('print-contracts-stub', () => {
  const io = (stopped?: Promise<unknown>) => {
    const out: string[] = [];
    const err: string[] = [];
    return {
      out,
      err,
      io: {
        stdout: { write: (text: string) => out.push(text) },
        stderr: { write: (text: string) => err.push(text) },
        ...(stopped ? { stopped } : {}),
      },
    };
  };

  it.each([
    [['--api-version', 'v9'], '--api-version'],
    [['--port', 'eighty'], '--port'],
    [['--verbose'], '--verbose'],
  ])('given %j exits 2 naming %s', async (argv, named) => {
    const run = io();
    expect(await runStubCli(argv, run.io)).toBe(2);
    expect(run.err.join('').split('\n')[0]).toContain(named);
  });

  it('prints the URL it serves at, with a leading `--` from pnpm, and stops when told', async () => {
    let stop = () => {};
    const stopped = new Promise<void>((resolve) => {
      stop = resolve;
    });
    const run = io(stopped);
    const exit = runStubCli(['--', '--api-version', 'v2'], run.io);
    while (!run.out.join('').includes('listening at')) await new Promise((r) => setTimeout(r, 20));
    const url = /listening at (\S+)/.exec(run.out.join(''))?.[1] ?? '';
    const client = new OrdersClient({ baseUrl: url, ...PLACEHOLDER_CREDENTIALS, apiVersion: 'v2' });
    await expect(client.getOrder(EXAMPLE_ORDER.id)).resolves.toMatchObject({ id: EXAMPLE_ORDER.id });
    await client.close();
    stop();
    expect(await exit).toBe(0);
  });
});
