import { mkdir, writeFile } from 'node:fs/promises';
import {
  captureIo,
  closedPortUrl,
  startSilentBroker,
  startStubBroker,
  workspace,
} from '@print-contracts/test-support';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BROKER_EXIT_CODES, publishCommand, runPublishContracts } from '../src/index.js';
import { writeFixturePacts } from './helpers/contracts.js';

const TOKEN = 'broker-token-3c9e1f';

describe('pnpm contracts:publish', () => {
  let space: Awaited<ReturnType<typeof workspace>>;
  let broker: Awaited<ReturnType<typeof startStubBroker>>;

  beforeAll(async () => {
    space = await workspace();
    await writeFixturePacts(space.path('contracts'));
    await mkdir(space.path('empty'));
    await mkdir(space.path('notes'));
    await writeFile(space.path('notes', 'README.md'), '# not a pact\n');
    await writeFixturePacts(space.path('one-not-json'));
    await writeFile(space.path('one-not-json', 'broken.json'), '{"consumer": ');
    await mkdir(space.path('array'));
    await writeFile(space.path('array', 'pacts.json'), '[]');
    broker = await startStubBroker({});
  });
  afterAll(async () => {
    await broker.close();
    await space.remove();
  });

  it.each([
    [
      ['--dry-rn'],
      "Unknown option '--dry-rn'; did you mean --dry-run? (see pnpm contracts:publish --help)\n",
    ],
  ])('exits 2 with one usage line for %j', async (argv, want) => {
    const output = captureIo({ cwd: space.dir });
    expect(await runPublishContracts(argv, output.io)).toBe(BROKER_EXIT_CODES.notStarted);
    expect(output.stderr()).toBe(`contracts:publish: ${want}`);
  });

  it.each([
    {
      given: ['--contracts', 'nope'],
      want: '--contracts nope: no such file or folder; write the pacts with pnpm contracts, or pass the folder that holds them',
    },
    {
      given: ['--contracts', 'empty'],
      want: '--contracts empty holds no pact files (*.json); write the pacts with pnpm contracts, or pass the folder that holds them',
    },
    {
      given: ['--contracts', 'notes'],
      want: '--contracts notes holds no pact files (*.json); write the pacts with pnpm contracts, or pass the folder that holds them',
    },
    {
      given: ['--contracts', 'one-not-json'],
      want: '--contracts one-not-json: broken.json is not JSON; write the pacts again with pnpm contracts, or move it out',
    },
    {
      given: ['--contracts', 'array'],
      want: '--contracts array: pacts.json is not a pact (a JSON object); write the pacts again with pnpm contracts, or move it out',
    },
    {
      given: ['--build-url', 'not a url'],
      want: '--build-url must be an http or https URL, got "not a url"',
    },
    {
      given: ['--build-url', 'ftp://ci.example.com/build/7'],
      want: '--build-url must be an http or https URL, got "ftp://ci.example.com/build/7"',
    },
  ])(
    'exits 2 with one line naming the flag for $given, before contacting the broker',
    async ({ given, want }) => {
      const stub = await startStubBroker({});
      try {
        const output = captureIo({ cwd: space.dir });
        const code = await runPublishContracts(
          ['--broker-url', stub.url, '--consumer-version', '1.2.3', ...given],
          output.io,
        );
        expect(code).toBe(BROKER_EXIT_CODES.notStarted);
        expect(output.stderr()).toBe(`contracts:publish: ${want} (see pnpm contracts:publish --help)\n`);
        expect(stub.requests).toEqual([]);
      } finally {
        await stub.close();
      }
    },
  );

  it('prints its version for --version', async () => {
    const output = captureIo({ cwd: space.dir });
    expect(await runPublishContracts(['--version'], output.io)).toBe(BROKER_EXIT_CODES.ok);
    expect(output.stdout()).toMatch(/^@print-contracts\/broker \d+\.\d+\.\d+\n$/);
  });

  it('builds the official `pact broker publish` command, with no credential in it', () => {
    expect(
      publishCommand({
        brokerUrl: 'https://broker.example.com',
        contractsDir: 'contracts',
        consumerVersion: 'abc123',
        branch: 'main',
        tags: ['nightly'],
        buildUrl: undefined,
        dryRun: false,
        timeoutMs: 60_000,
      }),
    ).toEqual([
      'broker',
      'publish',
      'contracts',
      '--broker-base-url',
      'https://broker.example.com',
      '--consumer-app-version',
      'abc123',
      '--branch',
      'main',
      '--tag',
      'nightly',
    ]);
  });

  it('publishes contracts/ through the official Pact CLI, which sends both pacts to the broker', async () => {
    const output = captureIo({ cwd: space.dir, env: { PATH: process.env.PATH, PACT_BROKER_TOKEN: TOKEN } });
    const code = await runPublishContracts(
      [
        '--broker-url',
        broker.url,
        '--consumer-version',
        '1.2.3',
        '--branch',
        'main',
        '--contracts',
        space.path('contracts'),
      ],
      output.io,
    );
    expect(code).toBe(0);
    const publish = broker.requests.find((request) => request.path === '/contracts/publish');
    expect(publish?.authorization).toBe(`Bearer ${TOKEN}`);
    const body = publish?.body as {
      pacticipantName: string;
      pacticipantVersionNumber: string;
      branch: string;
      contracts: { providerName: string }[];
    };
    expect(body).toMatchObject({
      pacticipantName: 'print-order-client',
      pacticipantVersionNumber: '1.2.3',
      branch: 'main',
    });
    const providers = broker.requests
      .filter((request) => request.path === '/contracts/publish')
      .flatMap((request) => (request.body as typeof body).contracts.map((contract) => contract.providerName));
    expect(providers.sort()).toEqual(['print-order-api-v1', 'print-order-api-v2']);
    expect(output.stderr()).toContain(
      `contracts:publish: publishing the pacts in ${space.path('contracts')} as print-order-client version 1.2.3 on branch main to the Pact Broker at ${broker.url} (bearer token from PACT_BROKER_TOKEN; gives up after 60 s)`,
    );
    expect(output.stdout() + output.stderr()).not.toContain(TOKEN);
  });

  it('answers a refused connection with one line and exit 3 at once, without waiting out its bound', async () => {
    const url = await closedPortUrl();
    const output = captureIo({ cwd: space.dir, env: { PACT_BROKER_TOKEN: TOKEN } });
    // The default bound (60 s) outlasts this test's timeout: only an answer that does not wait passes.
    const code = await runPublishContracts(
      ['--broker-url', url, '--consumer-version', '1.2.3', '--contracts', space.path('contracts')],
      output.io,
    );
    expect(code).toBe(BROKER_EXIT_CODES.noAnswer);
    const lines = output.stderr().trimEnd().split('\n');
    expect(lines).toHaveLength(2);
    expect(lines[1]).toBe(
      `contracts:publish: could not reach the Pact Broker at ${url}: it refused the connection`,
    );
    expect(output.stdout() + output.stderr()).not.toContain(TOKEN);
  }, 30_000);

  it('gives up with exit 3 and a line naming the broker when it accepts the connection and never answers', async () => {
    const unreachable = await startSilentBroker();
    try {
      const output = captureIo({ cwd: space.dir, env: { PACT_BROKER_TOKEN: TOKEN } });
      const code = await runPublishContracts(
        [
          '--broker-url',
          unreachable.url,
          '--consumer-version',
          '1.2.3',
          '--contracts',
          space.path('contracts'),
          '--timeout',
          '3',
        ],
        output.io,
      );
      expect(code).toBe(BROKER_EXIT_CODES.noAnswer);
      expect(output.stderr()).toContain(
        `contracts:publish: gave up after 3 s: no answer from the Pact Broker at ${unreachable.url}`,
      );
      expect(output.stdout() + output.stderr()).not.toContain(TOKEN);
    } finally {
      await unreachable.close();
    }
  });
});
