import { readFileSync } from 'node:fs';
import { captureIo, startStubBroker, workspace } from '@print-contracts/test-support';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunReport, runVerify } from '../src/index.js';
import { fixtureInteractions, fixturePact } from './helpers/fixture-pact.js';

const TOKEN = 'broker-token-3c9e1f';

/** A stub broker holding the fixture pacts of both versions, as `options` make it behave. */
const brokerWithPacts = (options?: Parameters<typeof startStubBroker>[1]) =>
  startStubBroker(
    { 'print-order-api-v1': fixturePact('v1'), 'print-order-api-v2': fixturePact('v2') },
    options,
  );

describe('the verifier with a Pact Broker', () => {
  let space: Awaited<ReturnType<typeof workspace>>;
  let broker: Awaited<ReturnType<typeof startStubBroker>>;

  beforeAll(async () => {
    space = await workspace();
    broker = await brokerWithPacts();
  });
  afterAll(async () => {
    await broker.close();
    await space.remove();
  });

  /** A run fetching its pacts from `url` by a selector and publishing the results: green, all 20 verified; its output. */
  async function verifyFromBroker(
    url: string,
    reports: string,
    env: Record<string, string>,
    extra: string[],
  ) {
    const output = captureIo({ cwd: space.dir, env: { PACT_BROKER_BASE_URL: url, ...env } });
    const selector = ['--consumer-version-selector', '{"branch":"main"}'];
    const code = await runVerify(
      [...selector, ...extra, '--publish', '--report-dir', space.path(reports)],
      output.io,
    );
    expect(output.stderr()).toBe('');
    expect(code).toBe(0);
    const report = JSON.parse(readFileSync(space.path(reports, 'verify-report.json'), 'utf8')) as RunReport;
    expect(report.totals).toMatchObject({ verified: 20, failed: 0 });
    return output;
  }

  it('fetches pacts by consumer-version selectors and publishes the results with the provider version', async () => {
    const output = await verifyFromBroker(broker.url, 'reports', { PACT_BROKER_TOKEN: TOKEN }, [
      '--provider-version',
      '2.4.0',
      '--provider-branch',
      'release',
    ]);

    const selection = broker.requests.find(
      (request) => request.path === '/pacts/provider/print-order-api-v1/for-verification',
    );
    expect(selection?.body).toEqual({
      consumerVersionSelectors: [{ branch: 'main' }],
      includePendingStatus: true,
      providerVersionBranch: 'release',
    });
    const published = broker.requests.filter((request) => request.path.endsWith('/verification-results'));
    expect(published.map((request) => request.path).sort()).toEqual([
      '/pacts/provider/print-order-api-v1/consumer/print-order-client/version/1.0.0/verification-results',
      '/pacts/provider/print-order-api-v2/consumer/print-order-client/version/1.0.0/verification-results',
    ]);
    expect(published[0]?.body).toMatchObject({ success: true, providerApplicationVersion: '2.4.0' });
    expect(broker.requests.map((request) => `${request.method} ${request.path}`)).toContain(
      'PUT /pacticipants/print-order-api-v1/branches/release/versions/2.4.0',
    );
    expect(broker.requests.every((request) => request.authorization === `Bearer ${TOKEN}`)).toBe(true);
    expect(output.stdout()).not.toContain(TOKEN);
  });

  it('takes a --broker-url with spaces around it, as pasted, for the URL it is', async () => {
    const earlier = broker.requests.length;
    const output = captureIo({ cwd: space.dir, env: {} });
    const code = await runVerify(
      [
        ...['--broker-url', ` ${broker.url}/ `, '--consumer-version-selector', '{"branch":"main"}'],
        ...['--report-dir', space.path('spaced')],
      ],
      output.io,
    );
    expect(output.stderr()).toBe('');
    expect(code).toBe(0);
    expect(broker.requests.slice(earlier).map((request) => `${request.method} ${request.path}`)).toContain(
      'POST /pacts/provider/print-order-api-v1/for-verification',
    );
  });

  it('reads a broker that gzips its answers unasked: pacts fetched, results published', async () => {
    const gzipping = await brokerWithPacts({ gzip: true });
    try {
      await verifyFromBroker(gzipping.url, 'gzip-reports', {}, ['--provider-version', '2.4.1']);
      expect(
        gzipping.requests.filter((request) => request.path.endsWith('/verification-results')),
      ).toHaveLength(2);
    } finally {
      await gzipping.close();
    }
  });

  it('waits out a broker that answers each request 429 first, as the target is waited out: green, the 429s reported', async () => {
    const throttling = await brokerWithPacts({ throttleOnce: { retryAfter: 0 } });
    try {
      const output = captureIo({ cwd: space.dir, env: { PACT_BROKER_BASE_URL: throttling.url } });
      const code = await runVerify(
        ['--consumer-version-selector', '{"branch":"main"}', '--report-dir', space.path('throttled')],
        output.io,
      );
      expect(output.stderr()).toBe('');
      expect(code).toBe(0);
      const report = JSON.parse(
        readFileSync(space.path('throttled', 'verify-report.json'), 'utf8'),
      ) as RunReport;
      expect(report.totals).toMatchObject({ verified: 20, failed: 0 });
      // The index, two selections and two pacts: each asked twice.
      expect(report.retries?.answers429).toBe(5);
      expect(throttling.requests).toHaveLength(10);
    } finally {
      await throttling.close();
    }
  });

  it("stops on a signal while it waits out a broker that asked for 20 s, with the signal's status", async () => {
    const throttling = await brokerWithPacts({ throttleOnce: { retryAfter: 20 } });
    try {
      const stop = new AbortController();
      const output = captureIo({
        cwd: space.dir,
        env: { PACT_BROKER_BASE_URL: throttling.url },
        signal: stop.signal,
      });
      const selector = ['--consumer-version-selector', '{"branch":"main"}'];
      const run = runVerify([...selector, '--report-dir', space.path('stopped')], output.io);
      await expect
        .poll(output.stdout, { timeout: 15_000 })
        .toMatch(/Waiting 20 s, as the target asked \(429\)/);
      stop.abort('SIGINT');
      const stopped = '\nSIGINT: stopping; tearing down the orders this run created (again to quit now)…\n';
      expect({ code: await run, stderr: output.stderr() }).toEqual({ code: 130, stderr: stopped });
      expect(throttling.requests).toHaveLength(1);
    } finally {
      await throttling.close();
    }
  });

  it("sends the broker's credentials to its own origin only, and says so when its links point elsewhere", async () => {
    const elsewhere = await brokerWithPacts();
    // Another broker at an origin of its own, whose index links to the first one.
    const front = await startStubBroker({}, { linksTo: elsewhere.url });
    try {
      const output = captureIo({
        cwd: space.dir,
        env: { PACT_BROKER_BASE_URL: front.url, PACT_BROKER_TOKEN: TOKEN },
      });
      const selector = ['--consumer-version-selector', '{"branch":"main"}'];
      const code = await runVerify([...selector, '--report-dir', space.path('elsewhere')], output.io);
      expect(code).toBe(2);
      expect(output.stderr()).toContain(
        `links to ${elsewhere.url}; the verifier sends the broker's credentials`,
      );
      expect(elsewhere.requests).toEqual([]);
    } finally {
      await front.close();
      await elsewhere.close();
    }
  });
  it("reports a pending pact's failure and fails no run with it, while a pact that is not pending fails the run", async () => {
    /** The fixture pact of `version` and one interaction more, which the sample API does not honour. */
    const withBreak = (version: 'v1' | 'v2') => {
      const [first] = fixtureInteractions(version).filter(
        (item) => item.description === 'a request for the first page of orders',
      );
      const broken = {
        ...first,
        key: `${version}-teapot`,
        description: 'a request the vendor does not honour',
        response: { status: 418 },
      };
      return fixturePact(version, [...fixtureInteractions(version), broken]);
    };
    const pacts = { 'print-order-api-v1': withBreak('v1'), 'print-order-api-v2': withBreak('v2') };
    const run = async (name: string, pending: string[]) => {
      const stub = await startStubBroker(pacts, { pending });
      try {
        const output = captureIo({ cwd: space.dir, env: { PACT_BROKER_BASE_URL: stub.url } });
        const selector = ['--consumer-version-selector', '{"branch":"main"}', '--provider-branch', 'main'];
        const code = await runVerify([...selector, '--report-dir', space.path(name)], output.io);
        const report = JSON.parse(readFileSync(space.path(name, 'verify-report.json'), 'utf8')) as RunReport;
        return { code, report, stdout: output.stdout() };
      } finally {
        await stub.close();
      }
    };

    const pending = await run('pending', ['print-order-api-v1', 'print-order-api-v2']);
    expect(pending.code).toBe(0);
    expect(pending.report.totals).toMatchObject({ failed: 2, pendingFailed: 2 });
    expect(pending.report.interactions.filter((item) => item.verdict === 'failed')).toEqual([
      expect.objectContaining({
        pending: true,
        reason: expect.stringMatching(/^pending, so it fails no run: /),
      }),
      expect.objectContaining({
        pending: true,
        reason: expect.stringMatching(/^pending, so it fails no run: /),
      }),
    ]);
    expect(pending.stdout).toMatch(/2 failed \(2 pending, failing no run\)/);
    // Every report says so: no test tab red, no headline that hides them, no cell without the word.
    const written = (file: string) => readFileSync(space.path('pending', file), 'utf8');
    expect(written('verify-junit.xml')).toMatch(/<testsuites [^>]*failures="0"/);
    expect(written('verify-junit.xml')).toContain(
      '<system-out>FAILED, pending: pending, so it fails no run:',
    );
    expect(written('verify-summary.md')).toContain('✅ no contract broke but 2 pending, which fail no run');
    expect(written('verify-summary.md')).toContain('❌ **FAILED** (pending)');

    const half = await run('half-pending', ['print-order-api-v1']);
    expect(half.code).toBe(1);
    expect(half.report.totals).toMatchObject({ failed: 2, pendingFailed: 1 });
  });
  it('publishes a pact as not verified when one of its interactions was decided without a replay', async () => {
    // Found by an audit: Pact was given only the interactions replayed, and filed the pact
    // "success: true" though the kit FAILED one of its interactions before any replay.
    const [first] = fixtureInteractions('v2').filter(
      (item) => item.description === 'a request for the first page of orders',
    );
    const outside = {
      ...first,
      key: 'v2-outside',
      description: 'a request outside the API',
      request: { ...(first?.request as object), path: '/elsewhere' },
    };
    const stub = await startStubBroker({
      'print-order-api-v1': fixturePact('v1'),
      'print-order-api-v2': fixturePact('v2', [...fixtureInteractions('v2'), outside]),
    });
    try {
      const output = captureIo({ cwd: space.dir, env: { PACT_BROKER_BASE_URL: stub.url } });
      const args = [
        '--publish',
        '--provider-version',
        '3.0.0',
        '--report-dir',
        space.path('publish-decided'),
      ];
      const code = await runVerify(args, output.io);
      expect(code).toBe(1);
      const published = Object.fromEntries(
        stub.requests
          .filter((request) => request.path.endsWith('/verification-results'))
          .map((request) => [request.path.split('/')[3], (request.body as { success: boolean }).success]),
      );
      expect(published).toEqual({ 'print-order-api-v1': true, 'print-order-api-v2': false });
    } finally {
      await stub.close();
    }
  });
  it("keeps apart two pacts of one consumer (main's and the deployed one) in the matrix and against a baseline", async () => {
    // Found by an audit: the deployed pact's FAILED row showed "verified" (the first pact's), and a
    // baseline kept one row of the two, so a regression of main's went unsaid.
    const [first] = fixtureInteractions('v2').filter(
      (item) => item.description === 'a request for the first page of orders',
    );
    const teapot = { ...first, response: { status: 418 } };
    const deployedV2 = fixturePact(
      'v2',
      fixtureInteractions('v2').map((item) => (item.description === first?.description ? teapot : item)),
    );
    const run = async (name: string, baseline?: string) => {
      const stub = await startStubBroker(
        { 'print-order-api-v2': fixturePact('v2') },
        { deployed: { 'print-order-api-v2': deployedV2 } },
      );
      try {
        const output = captureIo({ cwd: space.dir, env: { PACT_BROKER_BASE_URL: stub.url } });
        const args = [
          '--api-version',
          'v2',
          '--report-dir',
          space.path(name),
          ...(baseline ? ['--baseline', baseline] : []),
        ];
        const code = await runVerify(args, output.io);
        const report = JSON.parse(readFileSync(space.path(name, 'verify-report.json'), 'utf8')) as RunReport;
        return { code, report, stdout: output.stdout() };
      } finally {
        await stub.close();
      }
    };
    const night = await run('two-pacts');
    const rows = night.report.interactions.filter((item) => item.description === first?.description);
    expect(rows.map((item) => [item.from, item.verdict])).toEqual([
      ['latest from main', 'verified'],
      ['deployed to production', 'failed'],
    ]);
    expect(new Set(night.report.interactions.map((item) => item.key)).size).toBe(
      night.report.interactions.length,
    );
    expect(night.stdout).toMatch(/a request for the first page of orders \(deployed to production\) +FAILED/);
    // The next night against it: the same rows, one to one, nothing new, nothing gone.
    const next = await run('two-pacts-again', space.path('two-pacts', 'verify-report.json'));
    expect(next.report.comparison?.counts).toMatchObject({
      newFailures: 0,
      regressions: 0,
      gone: 0,
      newInteractions: 0,
    });
  });
});
