import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { isHttpError } from '@print-contracts/client';
import {
  descendants,
  killLeftovers,
  portClosed,
  type Started,
  start,
  waitUntilGone,
} from '@print-contracts/test-support';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CONTRACTS_DIR,
  defaultStates,
  INTERACTION_HEADER,
  NO_INTERACTION_STATUS,
  PROVIDER_HEADER,
} from '../../src/index.js';
import { readPact } from '../../src/pact-files.js';
import { type Driver, driveStub, type StubCase, statusOf, stubCases } from './support/drive-interaction.js';
import { STUB_COMMAND } from './support/stub-command.js';

const files = readdirSync(CONTRACTS_DIR)
  .filter((name) => name.endsWith('.json'))
  .map((name) => join(CONTRACTS_DIR, name));
const cases = stubCases(files);
const assumed = new Set(defaultStates(files.map((file) => readPact(file))));
const isSuccess = (status: number | undefined) => status !== undefined && status >= 200 && status < 300;
const label = ({ pact, interaction }: StubCase) => `${pact.provider.name}: ${interaction.description}`;

describe(`${STUB_COMMAND}, driven by the kit's client through every interaction in contracts/`, () => {
  let stub: Started;
  let driver: Driver;
  let started: number[] = [];

  beforeAll(async () => {
    const [command, ...args] = STUB_COMMAND.split(' ') as [string, ...string[]];
    stub = start(command, args);
    const url = await stub.waitFor(/listening at (\S+)/);
    started = [stub.pid, ...(await descendants(stub.pid))];
    driver = await driveStub(new URL(url).origin);
  }, 90_000);

  afterAll(async () => {
    await driver?.close();
    if (stub?.child.exitCode === null && stub.child.signalCode === null) stub.child.kill('SIGTERM');
    await waitUntilGone(started);
    await killLeftovers(started);
  });

  it('holds interactions to reach', () => {
    expect(cases.length).toBeGreaterThan(0);
  });

  it.each(cases.map((c) => [label(c), c] as const))(
    'answers %s when its request names the state the guide gives',
    async (_label, stubCase) => {
      const { interaction, pact, route } = stubCase;
      const outcome = await driver.send(stubCase, route.stateHeader);
      expect({
        status: outcome.recorded.status,
        interaction: outcome.recorded.headers[INTERACTION_HEADER.toLowerCase()],
        provider: outcome.recorded.headers[PROVIDER_HEADER.toLowerCase()],
      }).toEqual({
        status: interaction.response.status,
        interaction: interaction.description,
        provider: pact.provider.name,
      });
      const example = interaction.response.body?.content;
      if (example !== undefined) expect(JSON.parse(outcome.recorded.body)).toEqual(example);
      // The client reads the answer as the contract promises: a parsed body on 2xx, its HttpError otherwise.
      if (isSuccess(interaction.response.status)) expect(outcome.result).toMatchObject({ ok: true });
      else expect(isHttpError(!outcome.result.ok && outcome.result.error)).toBe(true);
      expect(statusOf(outcome)).toBe(interaction.response.status);
    },
  );

  const happy = cases.filter(({ interaction }) => isSuccess(interaction.response.status));
  it.each(happy.map((c) => [label(c), c] as const))(
    'answers the happy path to the request of %s without a state header',
    async (_label, stubCase) => {
      const outcome = await driver.send(stubCase, undefined);
      expect(outcome.recorded.status).toBe(stubCase.interaction.response.status);
      expect(outcome.result).toMatchObject({ ok: true });
    },
  );

  const refusals = cases.filter(
    ({ interaction }) =>
      !isSuccess(interaction.response.status) &&
      (interaction.providerStates ?? []).length > 0 &&
      !(interaction.providerStates ?? []).some((state) => assumed.has(state.name)),
  );
  it.each(refusals.map((c) => [label(c), c] as const))(
    'needs the state named to answer %s, and answers 2xx without it',
    async (_label, stubCase) => {
      const outcome = await driver.send(stubCase, undefined);
      expect(isSuccess(outcome.recorded.status), outcome.recorded.body).toBe(true);
    },
  );

  it(`answers ${NO_INTERACTION_STATUS} with the reason when the request lacks what every interaction needs`, async () => {
    const [listed] = cases.filter(({ route }) => route.method === 'GET' && route.headerNotes.length === 0);
    expect(listed).toBeDefined();
    const url = /listening at (\S+)/.exec(stub.output.stdout)?.[1] as string;
    const noSecret = await fetch(`${new URL(url).origin}${listed?.route.target}`, {
      headers: { 'User-ID': 'someone', Accept: 'application/vnd.printdeal-api.v2' },
    });
    expect(noSecret.status).toBe(NO_INTERACTION_STATUS);
    expect(((await noSecret.json()) as { message: string }).message).toContain('API-Secret is missing');
    const wrongVersion = await fetch(`${new URL(url).origin}${listed?.route.target}`, {
      headers: {
        'User-ID': 'someone',
        'API-Secret': 'something',
        Accept: 'application/vnd.printdeal-api.v9',
      },
    });
    expect(wrongVersion.status).toBe(NO_INTERACTION_STATUS);
  });

  it('stops on SIGTERM to pnpm with status 0, closing its port and leaving none of its processes', async () => {
    const url = /listening at (\S+)/.exec(stub.output.stdout)?.[1] as string;
    expect(started.length).toBeGreaterThanOrEqual(3); // pnpm, node, the stub server
    process.kill(stub.pid, 'SIGTERM');
    expect(await stub.exited).toEqual({ code: 0, signal: null });
    expect(await waitUntilGone(started)).toEqual([]);
    expect(await portClosed(Number(new URL(url).port))).toBe(true);
  });
});
