import { readFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { type SampleApi, startSampleApi } from '@print-contracts/sample-api';
import {
  type AlteringProxy,
  captureIo,
  editJson,
  type ProxiedRequest,
  startAlteringProxy,
  workspace,
} from '@print-contracts/test-support';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXIT_CODES } from '../src/exit-codes.js';
import { REPORT_FILES, type RunReport, runVerify } from '../src/index.js';
import { writeFixturePacts } from './helpers/fixture-pact.js';
import { credentialEnv } from './helpers/targets.js';

/** The committed contracts: what the nightly job replays against the vendor. */
const CONTRACTS = fileURLToPath(new URL('../../../contracts', import.meta.url));

/** A vendor request that asks for v1: it names v1, or no version at all (the vendor's v1 default). */
const asksForV1 = (request: ProxiedRequest) =>
  request.path.startsWith('/api/') && !String(request.headers.accept ?? '').endsWith('.v2');

const json = (status: number, body: unknown) => ({
  status,
  headers: { 'content-type': 'application/json' },
  body: Buffer.from(JSON.stringify(body)),
});

describe('the verifier compared with the last night and the known findings', () => {
  let space: Awaited<ReturnType<typeof workspace>>;

  beforeAll(async () => {
    space = await workspace();
    await writeFixturePacts(space.path('fixture-pacts'));
  });
  afterAll(() => space.remove());

  /** One run against `baseUrl` in sample mode, read back from its reports. */
  const verify = async (api: SampleApi, name: string, baseUrl: string, extra: readonly string[]) => {
    const output = captureIo({ cwd: space.dir, env: credentialEnv(api) });
    const reports = space.path(name);
    const args = ['--base-url', baseUrl, '--mode', 'sample', '--report-dir', reports, ...extra];
    const code = await runVerify(args, output.io);
    const read = (file: string) => readFileSync(`${reports}/${file}`, 'utf8');
    const report = JSON.parse(read(REPORT_FILES.json)) as RunReport;
    return { code, report, reports, stdout: output.stdout(), stderr: output.stderr(), read };
  };

  describe('a vendor that refuses every v1 request, as the real one has since 2020-09-11', () => {
    let api: SampleApi;
    let proxy: AlteringProxy;
    const acknowledge = async (file: string, expires: string) => {
      const finding = {
        version: 'v1',
        interactionPattern: '.',
        reason: 'v1 was shut down on 2020-09-11',
        expires,
      };
      await writeFile(space.path(file), JSON.stringify({ findings: [finding] }));
      return space.path(file);
    };
    const run = (name: string, extra: readonly string[] = []) =>
      verify(api, name, `${proxy.origin}/api`, [
        '--pact',
        space.path('fixture-pacts'),
        '--control',
        ...extra,
      ]);

    beforeAll(async () => {
      api = await startSampleApi({ control: true, processingDelayMs: 20 });
      proxy = await startAlteringProxy(api.origin, {
        request: (request) =>
          asksForV1(request) ? { reply: json(410, { message: 'v1 was shut down' }) } : undefined,
      });
    });
    afterAll(async () => {
      await proxy.close();
      await api.close();
    });

    it('exits 1 without an acknowledgement', async () => {
      const plain = await run('v1-plain');
      expect(plain.stderr).toBe('');
      expect(plain.report.byVersion.v1?.failed).toBeGreaterThan(0);
      expect(plain.report.comparison).toBeUndefined();
      expect(plain.code).toBe(EXIT_CODES.failed);
    });

    it('exits 0 with an acknowledgement in force, reporting each v1 finding as known', async () => {
      const file = await acknowledge('known-in-force.json', '2999-12-31');
      const known = await run('v1-known', ['--known-findings', file]);
      expect(known.stderr).toBe('');
      expect(known.report.byVersion.v1?.failed).toBeGreaterThan(0);
      expect(known.report.byVersion.v2).toMatchObject({ failed: 0, notVerifiable: 0 });
      const v1NotVerified = known.report.interactions.filter(
        (item) => item.version === 'v1' && item.verdict !== 'verified',
      );
      const failing = v1NotVerified.filter((item) => item.verdict === 'failed');
      expect(known.report.comparison?.counts.known).toBe(failing.length);
      expect(known.report.comparison?.acknowledgements).toEqual([
        expect.objectContaining({ status: 'in-force', matched: failing.length }),
      ]);
      expect(known.code).toBe(EXIT_CODES.passed);
      // Every report leads with it: the console before the matrix, Markdown and JUnit first.
      expect(known.stdout.indexOf('Known findings (acknowledged):')).toBeGreaterThan(-1);
      expect(known.stdout.indexOf('Known findings (acknowledged):')).toBeLessThan(
        known.stdout.indexOf('Interaction '),
      );
      const markdown = known.read(REPORT_FILES.markdown);
      expect(markdown.indexOf('## Changes since the last run')).toBeLessThan(
        markdown.indexOf('| Interaction |'),
      );
      const junit = known.read(REPORT_FILES.junit);
      expect(junit).toMatch(/<testsuites [^>]*failures="0"/);
      expect(junit.indexOf('<testsuite name="changes since the last run"')).toBeLessThan(
        junit.indexOf('<testsuite name="print-order-api-v1"'),
      );
    });

    it('exits 1 again once the acknowledgement has expired, saying so', async () => {
      const file = await acknowledge('known-expired.json', '2020-09-11');
      const expired = await run('v1-expired', ['--known-findings', file]);
      expect(expired.report.comparison?.counts).toMatchObject({ known: 0, expired: 1 });
      expect(expired.report.comparison?.acknowledgements).toEqual([
        expect.objectContaining({ status: 'expired' }),
      ]);
      expect(expired.stdout).toMatch(/Expired acknowledgements:\n {2}v1 \/\.\/ expired on 2020-09-11/);
      expect(expired.read(REPORT_FILES.junit)).toContain('<failure type="Expired acknowledgements"');
      expect(expired.code).toBe(EXIT_CODES.failed);
    });
  });

  describe('a vendor whose sample data no longer holds a shipped order', () => {
    let api: SampleApi;
    let proxy: AlteringProxy;
    let hideShipped = false;
    const SHIPPED = 'a request for an order with a shipped line';

    beforeAll(async () => {
      api = await startSampleApi({ processingDelayMs: 20 });
      proxy = await startAlteringProxy(api.origin, {
        // From the night it changes: every order's shipped lines are gone from its detail.
        response: (answer, request) =>
          hideShipped && request.method === 'GET' && /^\/api\/orders\/[^/?]+$/.test(request.path)
            ? editJson(answer, (order) => {
                const lines = (order as { lines?: { status?: string }[] }).lines;
                return Array.isArray(lines)
                  ? { ...(order as object), lines: lines.filter((line) => line.status !== 'shipped') }
                  : order;
              })
            : undefined,
      });
    });
    afterAll(async () => {
      await proxy.close();
      await api.close();
    });

    it('exits 1 the night after the baseline, naming the regression', async () => {
      const run = (name: string, extra: readonly string[] = []) =>
        verify(api, name, `${proxy.origin}/api`, ['--pact', CONTRACTS, '--api-version', 'v2', ...extra]);
      const before = await run('night-1');
      expect(before.stderr).toBe('');
      expect(before.code).toBe(EXIT_CODES.passed);
      expect(before.report.interactions.find((item) => item.description === SHIPPED)).toMatchObject({
        key: expect.stringContaining(SHIPPED),
        verdict: 'verified',
      });

      hideShipped = true;
      const after = await run('night-2', ['--baseline', `${before.reports}/${REPORT_FILES.json}`]);
      expect(after.stderr).toBe('');
      expect(after.report.interactions.find((item) => item.description === SHIPPED)?.verdict).not.toBe(
        'verified',
      );
      expect(after.report.comparison?.changes).toEqual([
        expect.objectContaining({
          description: SHIPPED,
          kind: 'regression',
          before: 'verified',
          fails: true,
        }),
      ]);
      expect(after.stdout).toMatch(new RegExp(`Regressions:\\n {2}v2 ${SHIPPED}: verified before, `));
      expect(after.read(REPORT_FILES.markdown)).toContain(`- v2 ${SHIPPED}: verified before,`);
      // No interaction FAILED: the summary's headline says what made the night red.
      expect(after.read(REPORT_FILES.markdown)).toContain(
        '**❌ no contract broke, but interactions regressed since the baseline (below)**',
      );
      expect(after.code).toBe(EXIT_CODES.failed);
    });
  });
});
