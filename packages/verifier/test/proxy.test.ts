import { existsSync } from 'node:fs';
import type { SampleApi } from '@print-contracts/sample-api';
import { Agent, request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Ledger } from '../src/ledger/ledger.js';
import { parsePact } from '../src/pacts/load-pacts.js';
import { planRun } from '../src/plan/plan.js';
import type { ReplayItem } from '../src/replay/replay-item.js';
import { PROXY_HEADER, type ShardServer, STATE_PATH, startShardServer } from '../src/replay/shard-server.js';
import type { Target } from '../src/target/target.js';
import { fixtureInteractions, fixturePact, testOrderBody } from './helpers/fixture-pact.js';
import { ordersOf } from './helpers/orders.js';
import { sampleTarget } from './helpers/targets.js';
import { workspace } from './helpers/workspace.js';

/** One replayable create interaction, planned as if the target were a sample one. */
function createItem(body: unknown): ReplayItem {
  const create = fixtureInteractions('v2').find(
    (item) => item.description === 'a request to create a test order',
  );
  const request = create?.request as { body: object };
  const pact = parsePact(
    JSON.stringify(
      fixturePact('v2', [{ ...create, request: { ...request, body: { ...request.body, content: body } } }]),
    ),
    'proxy-test.json',
    { kind: 'file', path: 'proxy-test.json' },
  );
  const [planned] = planRun([pact], {
    mode: 'sample',
    capabilities: { control: false, otherCredentials: false },
  }).interactions;
  if (!planned) throw new Error('no interaction planned');
  return { planned, states: [], record: { started: false, refused: undefined, exchanges: [] } };
}

describe('the replay proxy', () => {
  let space: Awaited<ReturnType<typeof workspace>>;
  let api: SampleApi;
  const dispatcher = new Agent();

  beforeAll(async () => {
    space = await workspace();
    api = await sampleTarget();
  });
  afterAll(async () => {
    await dispatcher.close();
    await api.close();
    await space.remove();
  });

  const start = (item: ReplayItem, mode: Target['mode'], ledger: Ledger): Promise<ShardServer> => {
    const [main] = api.credentials;
    if (!main) throw new Error('no credentials');
    const target: Target = {
      kind: 'url',
      baseUrl: api.url,
      mode,
      controlOrigin: undefined,
      credentials: { main, other: undefined },
    };
    return startShardServer([item], 'v2', {
      target,
      dispatcher,
      timeoutMs: 5_000,
      ledger,
      secrets: [main.secret],
    });
  };

  const replay = async (server: ShardServer, body: unknown) => {
    const base = `http://${server.host}:${server.port}`;
    const state = await request(`${base}${STATE_PATH}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ state: '', params: {}, action: 'setup' }),
    });
    await state.body.dump();
    return request(`${base}/api/orders`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'user-id': 'example-user-id',
        'api-secret': 'example-api-secret',
        accept: 'application/vnd.printdeal-api.v2',
      },
      body: JSON.stringify(body),
    });
  };

  it('refuses a non-test create in live mode even when asked to forward it, and records nothing', async () => {
    const body = testOrderBody('v2', false);
    const ledger = Ledger.open(space.path('live-ledger.jsonl'), 'test');
    const server = await start(createItem(body), 'live', ledger);
    try {
      const answer = await replay(server, body);
      expect(answer.statusCode).toBe(403);
      expect(answer.headers[PROXY_HEADER]).toBe('refused');
      expect(await answer.body.json()).toMatchObject({ message: expect.stringMatching(/live mode/) });
    } finally {
      await server.close();
    }
    expect(await ordersOf(api)).toEqual([]);
    expect(existsSync(ledger.path)).toBe(false);
  });

  it('swaps the placeholder credentials for the real ones and writes the create to the ledger first', async () => {
    const body = testOrderBody('v2', true);
    const ledger = Ledger.open(space.path('sample-ledger.jsonl'), 'test');
    const item = createItem(body);
    const server = await start(item, 'sample', ledger);
    let uuid: string;
    try {
      const answer = await replay(server, body);
      expect(answer.statusCode).toBe(201);
      ({ uuid } = (await answer.body.json()) as { uuid: string });
    } finally {
      await server.close();
    }
    expect(ledger.open()).toMatchObject([
      { uuid, credential: 'main', source: 'replay of "a request to create a test order"' },
    ]);
    expect(item.record.exchanges).toMatchObject([{ method: 'POST', path: '/api/orders', status: 201 }]);
  });
});
