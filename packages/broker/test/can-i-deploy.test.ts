import { spawn } from 'node:child_process';
import { type AddressInfo, createServer as createNetServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import {
  captureIo,
  cliEnv,
  closedPortUrl,
  startSilentBroker,
  startStubBroker,
  workspace,
} from '@print-contracts/test-support';
import { isUsageError } from '@print-contracts/verifier';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { BROKER_EXIT_CODES, parseCanIDeployArgs, runCanIDeploy } from '../src/index.js';

const TOKEN = 'broker-token-5d1b7a';
const BROKER = 'https://broker.example.com';

/** Long enough for the Pact CLI to start and ask on a busy machine; short enough for a test. */
const SHORT_BOUND = ['--timeout', '3'];

const CAN_I_DEPLOY_CLI = fileURLToPath(new URL('../dist/can-i-deploy-cli.js', import.meta.url));

describe('parseCanIDeployArgs', () => {
  it.each([
    {
      given: ['--version', 'abc123', '--to-environment', 'production'],
      env: { PACT_BROKER_BASE_URL: BROKER },
      want: {
        args: [
          '--pacticipant',
          'print-order-client',
          '--version',
          'abc123',
          '--to-environment',
          'production',
        ],
        question: 'print-order-client version abc123 can be deployed to environment production',
        timeoutMs: 60_000,
      },
    },
    {
      given: [
        '--',
        '--timeout=5',
        '--broker-base-url',
        `${BROKER}/`,
        '-a',
        'shop',
        '-e',
        '7',
        '--to',
        'prod',
      ],
      env: {},
      want: {
        args: ['-a', 'shop', '-e', '7', '--to', 'prod'],
        question: 'shop version 7 can be deployed to the versions tagged prod',
        timeoutMs: 5_000,
      },
    },
    {
      given: [
        '--pacticipant',
        'shop',
        '--latest',
        'main',
        '--pacticipant',
        'api',
        '--main-branch',
        '-o',
        'json',
      ],
      env: { PACT_BROKER_BASE_URL: BROKER },
      want: {
        args: [
          '--pacticipant',
          'shop',
          '--latest',
          'main',
          '--pacticipant',
          'api',
          '--main-branch',
          '-o',
          'json',
        ],
        question: 'shop (latest tagged main) with api (latest of its main branch) can be deployed',
        timeoutMs: 60_000,
      },
    },
    {
      given: [
        '-a',
        'shop',
        '--latest=main',
        '-ojson',
        '--dry-run',
        '--retry-while-unknown',
        '3',
        '--dry-run',
      ],
      env: { PACT_BROKER_BASE_URL: BROKER },
      want: {
        args: ['-a', 'shop', '--latest', 'main', '--output=json', '--dry-run', '--retry-while-unknown', '3'],
        question: 'shop (latest tagged main) can be deployed',
        timeoutMs: 60_000,
      },
    },
  ])('passes $given on to pact broker can-i-deploy with the broker URL last', ({ given, env, want }) => {
    expect(parseCanIDeployArgs(given, env)).toEqual({
      brokerUrl: BROKER,
      args: ['broker', 'can-i-deploy', ...want.args, '--broker-base-url', BROKER],
      timeoutMs: want.timeoutMs,
      question: want.question,
    });
  });

  it.each([
    { given: ['--help'], want: undefined },
    { given: ['--version'], want: 'version' },
    { given: ['--', '--version'], want: 'version' },
  ])('answers $want for $given alone', ({ given, want }) => {
    expect(parseCanIDeployArgs(given, {})).toBe(want);
  });

  it.each([
    { given: ['--version', '1'], reason: 'no Pact Broker' },
    { given: ['--broker-token', 's3cr3t-value'], reason: 'not accepted as arguments (--broker-token)' },
    { given: ['--broker-password=s3cr3t-value'], reason: 'not accepted as arguments (--broker-password)' },
    { given: ['-ks3cr3t-value'], reason: 'not accepted as arguments (-k)' },
    {
      given: ['--broker-base-url', 'https://user:s3cr3t-value@broker.example.com'],
      reason: 'must not hold credentials',
    },
    { given: ['--broker-base-url', 'ftp://broker.example.com'], reason: 'must use http or https' },
    {
      given: ['--broker-base-url', BROKER, '--timeout', '0'],
      reason: '--timeout must be a number of seconds',
    },
    {
      given: ['--broker-base-url', BROKER, '--timeout', 'soon'],
      reason: '--timeout must be a number of seconds',
    },
    {
      given: ['--broker-base-url', BROKER, '--version'],
      reason: "Option '-e, --version <value>' argument missing",
    },
  ])('refuses $given with a UsageError: $reason', ({ given, reason }) => {
    let thrown: unknown;
    try {
      parseCanIDeployArgs(given, {});
    } catch (error) {
      thrown = error;
    }
    expect(isUsageError(thrown)).toBe(true);
    expect((thrown as Error).message).toContain(reason);
    expect((thrown as Error).message).not.toContain('s3cr3t-value');
  });
});

describe('pnpm can-i-deploy against a Pact Broker that answers', () => {
  let space: Awaited<ReturnType<typeof workspace>>;
  beforeAll(async () => {
    space = await workspace();
  });
  afterAll(() => space.remove());

  it.each([
    { deployable: true, code: BROKER_EXIT_CODES.ok, verdict: 'Computer says yes' },
    { deployable: false, code: BROKER_EXIT_CODES.failed, verdict: 'Computer says no' },
  ])('exits $code when the broker says deployable is $deployable', async ({ deployable, code, verdict }) => {
    const broker = await startStubBroker({}, { deployable });
    try {
      const output = captureIo({ cwd: space.dir, env: { PACT_BROKER_TOKEN: TOKEN } });
      const status = await runCanIDeploy(
        ['--broker-base-url', broker.url, '--version', 'abc123', '--to-environment', 'production'],
        output.io,
      );
      expect(status, output.stderr()).toBe(code);
      expect(output.stdout()).toContain(verdict);
      expect(output.stderr()).toContain(
        `can-i-deploy: asking the Pact Broker at ${broker.url} whether print-order-client version abc123 can be deployed to environment production (bearer token from PACT_BROKER_TOKEN; gives up after 60 s)`,
      );
      const [matrix] = broker.requests;
      expect(matrix?.path).toMatch(/^\/matrix\?.*pacticipant\]=print-order-client.*environment=production/);
      expect(matrix?.authorization).toBe(`Bearer ${TOKEN}`);
      expect(output.stdout() + output.stderr()).not.toContain(TOKEN);
    } finally {
      await broker.close();
    }
  });

  it('exits 1 and names the status when the broker refuses the query', async () => {
    const broker = await startStubBroker({}, { refuseWith: 401 });
    try {
      const output = captureIo({ cwd: space.dir, env: { PACT_BROKER_TOKEN: TOKEN } });
      const status = await runCanIDeploy(
        ['--broker-base-url', broker.url, '--version', '1', '--retries', '0'],
        output.io,
      );
      expect(status).toBe(BROKER_EXIT_CODES.failed);
      expect(output.stderr()).toContain(
        `can-i-deploy: the Pact Broker at ${broker.url} answered 401 Unauthorized`,
      );
    } finally {
      await broker.close();
    }
  });

  it('prints no broker credential the broker echoes in its refusal, a short password in its Basic header included', async () => {
    const broker = await startStubBroker({}, { refuseWith: 401 });
    try {
      // A password too short for its bytes alone to show in base64 beside the user name.
      const env = { PACT_BROKER_USERNAME: 'ops', PACT_BROKER_PASSWORD: 'Hunt3r' };
      const output = captureIo({ cwd: space.dir, env });
      const status = await runCanIDeploy(['--broker-base-url', broker.url, '--version', '1'], output.io);
      expect(status).toBe(BROKER_EXIT_CODES.failed);
      const basic = Buffer.from('ops:Hunt3r').toString('base64');
      expect(broker.requests[0]?.authorization).toBe(`Basic ${basic}`);
      const printed = output.stdout() + output.stderr();
      expect(printed).toContain('refused by the stub');
      expect(printed).not.toContain(basic.replace(/=+$/, ''));
      expect(printed).not.toContain('Hunt3r');
    } finally {
      await broker.close();
    }
  });

  it.each([
    { given: ['--version'], want: /^@print-contracts\/broker \d+\.\d+\.\d+\n$/ },
    { given: ['--help'], want: /^Usage: pnpm can-i-deploy/ },
  ])('prints what a bare $given asks for and exits 0 without asking a broker', async ({ given, want }) => {
    const output = captureIo({ cwd: space.dir });
    expect(await runCanIDeploy(given, output.io)).toBe(BROKER_EXIT_CODES.ok);
    expect(output.stderr()).toBe('');
    expect(output.stdout()).toMatch(want);
  });

  it('prints its help and exits 0 for --help, and exits 2 with one line for a refused argument', async () => {
    const help = captureIo({ cwd: space.dir });
    expect(await runCanIDeploy(['--help'], help.io)).toBe(BROKER_EXIT_CODES.ok);
    expect(help.stdout()).toContain('Usage: pnpm can-i-deploy');
    const bad = captureIo({ cwd: space.dir, env: { PACT_BROKER_BASE_URL: BROKER } });
    expect(await runCanIDeploy(['--broker-token', TOKEN], bad.io)).toBe(BROKER_EXIT_CODES.notStarted);
    expect(bad.stderr().trimEnd().split('\n')).toEqual([
      'can-i-deploy: broker credentials are not accepted as arguments (--broker-token); set PACT_BROKER_TOKEN, or PACT_BROKER_USERNAME and PACT_BROKER_PASSWORD (see pnpm can-i-deploy --help)',
    ]);
  });

  it.each([
    [['--custom-header', `Authorization: Bearer ${TOKEN}`]],
    [[`--custom-header=cookie: session=${TOKEN}`]],
    [['--custom-header', `X-Api-Token: ${TOKEN}`]],
  ])(
    'refuses a credential in a custom header %j, which the process list and Pact debug output show',
    async (args) => {
      // Found by an audit: the header went to the Pact CLI, and --log-level debug printed it.
      const bad = captureIo({ cwd: space.dir, env: { PACT_BROKER_BASE_URL: BROKER } });
      expect(await runCanIDeploy(['--pacticipant', 'x', '--version', '1', ...args], bad.io)).toBe(
        BROKER_EXIT_CODES.notStarted,
      );
      expect(bad.stderr()).toMatch(
        /^can-i-deploy: broker credentials are not accepted as arguments \(--custom-header\)/,
      );
      expect(bad.stderr()).not.toContain(TOKEN);
    },
  );
});

describe('pnpm can-i-deploy with an argument pact broker can-i-deploy refuses', () => {
  let space: Awaited<ReturnType<typeof workspace>>;
  beforeAll(async () => {
    space = await workspace();
  });
  afterAll(() => space.remove());

  it.each([
    { given: ['--bogus'], want: "Unknown option '--bogus'" },
    {
      given: ['--to-enviroment', 'production'],
      want: "Unknown option '--to-enviroment'; did you mean --to-environment?",
    },
    { given: ['--output', 'xml'], want: '--output must be json or table, got "xml"' },
    { given: ['--output=xml'], want: '--output must be json or table, got "xml"' },
    {
      given: ['--log-level', 'loud'],
      want: '--log-level must be off, none, error, warn, info, debug or trace, got "loud"',
    },
    { given: ['--ssl-trust-store', 'yes'], want: '--ssl-trust-store must be true or false, got "yes"' },
    { given: ['--retries', 'many'], want: '--retries must be a whole number, got "many"' },
    { given: ['--to', 'prod', '--to', 'test'], want: "Option '--to' is given more than once; give it once" },
    { given: ['--pacticipant', 'shop', 'abc123'], want: "Unexpected argument 'abc123'" },
  ])(
    'exits 2 with one line naming the flag for $given, before contacting a broker',
    async ({ given, want }) => {
      const line = `can-i-deploy: ${want} (see pnpm can-i-deploy --help)\n`;
      const closed = captureIo({ cwd: space.dir });
      const args = ['--version', '1', ...given];
      expect(await runCanIDeploy(['--broker-base-url', await closedPortUrl(), ...args], closed.io)).toBe(
        BROKER_EXIT_CODES.notStarted,
      );
      expect(closed.stderr()).toBe(line);
      const broker = await startStubBroker({});
      try {
        const answering = captureIo({ cwd: space.dir });
        expect(await runCanIDeploy(['--broker-base-url', broker.url, ...args], answering.io)).toBe(
          BROKER_EXIT_CODES.notStarted,
        );
        expect(answering.stderr()).toBe(line);
        expect(answering.stdout()).toBe('');
        expect(broker.requests).toEqual([]);
      } finally {
        await broker.close();
      }
    },
  );
});

describe('pnpm can-i-deploy against an unreachable Pact Broker', () => {
  let space: Awaited<ReturnType<typeof workspace>>;
  let silent: Awaited<ReturnType<typeof startSilentBroker>>;
  beforeAll(async () => {
    space = await workspace();
  });
  afterEach(() => silent?.close());
  afterAll(() => space.remove());

  it('answers a refused connection with one line and exit 3 at once, without waiting out its bound', async () => {
    const url = await closedPortUrl();
    const output = captureIo({ cwd: space.dir, env: { PACT_BROKER_TOKEN: TOKEN } });
    // The default bound (60 s) outlasts this test's timeout: only an answer that does not wait passes.
    const status = await runCanIDeploy(['--broker-base-url', url, '--version', '1'], output.io);
    expect(status).toBe(BROKER_EXIT_CODES.noAnswer);
    const lines = output.stderr().trimEnd().split('\n');
    expect(lines).toHaveLength(2);
    expect(lines[1]).toBe(
      `can-i-deploy: could not reach the Pact Broker at ${url}: it refused the connection`,
    );
    expect(output.stdout() + output.stderr()).not.toContain(TOKEN);
  }, 30_000);

  it('says the broker could not be reached when the Pact CLI finds it gone after the connection check', async () => {
    // Accepts each connection and drops it at once: the check passes, the Pact CLI's request fails.
    const dropping = createNetServer((socket) => socket.destroy());
    await new Promise<void>((resolve) => dropping.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(dropping.address() as AddressInfo).port}`;
    try {
      const output = captureIo({ cwd: space.dir });
      const status = await runCanIDeploy(
        ['--broker-base-url', url, '--version', '1', '--retries', '0'],
        output.io,
      );
      expect(status).toBe(BROKER_EXIT_CODES.noAnswer);
      expect(output.stderr()).toContain(
        `can-i-deploy: could not reach the Pact Broker at ${url} (the Pact CLI's reason is above)`,
      );
    } finally {
      await new Promise<void>((resolve) => dropping.close(() => resolve()));
    }
  });

  it('gives up with exit 3 on a broker that accepts the connection and never answers, and stops the Pact CLI', async () => {
    silent = await startSilentBroker();
    const output = captureIo({ cwd: space.dir });
    const status = await runCanIDeploy(
      ['--broker-base-url', silent.url, '--version', '1', ...SHORT_BOUND],
      output.io,
    );
    expect(status).toBe(BROKER_EXIT_CODES.noAnswer);
    expect(output.stderr()).toContain(`can-i-deploy: still waiting for the Pact Broker at ${silent.url}`);
    expect(output.stderr()).toContain(
      `can-i-deploy: gave up after 3 s: no answer from the Pact Broker at ${silent.url}`,
    );
    expect(silent.requests[0]).toMatch(/^GET \/matrix\?/);
    // The Pact CLI is gone: the connection it held is closed from its side.
    await expect.poll(() => silent.open(), { timeout: 10_000 }).toBe(0);
    expect(silent.closedByClient()).toBeGreaterThan(0);
  });

  it('the built command killed with SIGKILL leaves no Pact CLI waiting on a silent broker', async () => {
    silent = await startSilentBroker();
    const child = spawn(
      process.execPath,
      [CAN_I_DEPLOY_CLI, '--broker-base-url', silent.url, '--version', '1'],
      { cwd: space.dir, env: cliEnv(), stdio: ['ignore', 'ignore', 'ignore'] },
    );
    try {
      await expect.poll(() => silent.requests.length, { timeout: 20_000 }).toBeGreaterThan(0);
      child.kill('SIGKILL');
      // The default bound is 60 s, and the Pact CLI has none of its own: only the watchdog closes this.
      await expect.poll(() => silent.open(), { timeout: 10_000 }).toBe(0);
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
    }
  });

  it.each([
    ['SIGINT', BROKER_EXIT_CODES.interrupted],
    ['SIGTERM', BROKER_EXIT_CODES.terminated],
    ['SIGHUP', BROKER_EXIT_CODES.terminated],
  ] as const)('the built command stops the Pact CLI on %s and exits %i', async (signal, code) => {
    silent = await startSilentBroker();
    const child = spawn(
      process.execPath,
      [CAN_I_DEPLOY_CLI, '--broker-base-url', silent.url, '--version', '1'],
      {
        cwd: space.dir,
        env: cliEnv(),
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const exited = new Promise<number | null>((resolve) => child.on('close', (status) => resolve(status)));
    try {
      await expect.poll(() => silent.requests.length, { timeout: 20_000 }).toBeGreaterThan(0);
      child.kill(signal);
      expect(await exited).toBe(code);
      expect(stderr).toContain(`can-i-deploy: stopped on ${signal}; the Pact CLI was stopped`);
      expect(stderr).not.toMatch(/\n\s+at /);
      await expect.poll(() => silent.open(), { timeout: 10_000 }).toBe(0);
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
    }
  });
});
