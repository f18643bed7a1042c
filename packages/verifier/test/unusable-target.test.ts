import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import type { SampleApi } from '@print-contracts/sample-api';
import { captureIo, closedPortUrl, startSilentBroker, workspace } from '@print-contracts/test-support';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runVerify } from '../src/index.js';
import { writeFixturePacts } from './helpers/fixture-pact.js';
import { front, sampleTarget, verifyArgs } from './helpers/targets.js';

/** A loopback port nothing listens on. */
const CREDENTIALS = { PRINT_API_USER_ID: 'demo-user', PRINT_API_SECRET: 'demo-secret' };

describe('the verifier with a target it cannot reach or trust', () => {
  let space: Awaited<ReturnType<typeof workspace>>;
  let api: SampleApi;
  let counted: Awaited<ReturnType<typeof front>>;
  let tls: Awaited<ReturnType<typeof front>>;

  beforeAll(async () => {
    space = await workspace();
    await writeFixturePacts(space.path('pacts'));
    api = await sampleTarget();
    counted = await front(api.origin);
    tls = await front(api.origin, {}, { tls: true });
  });
  afterAll(async () => {
    await tls.close();
    await counted.close();
    await api.close();
    await space.remove();
  });

  const run = async (
    baseUrl: string,
    mode: 'sample' | 'live',
    reports = space.path('reports'),
    extra: readonly string[] = [],
  ) => {
    const output = captureIo({ cwd: space.dir, env: CREDENTIALS });
    const code = await runVerify(
      verifyArgs({
        baseUrl,
        mode,
        pact: space.path('pacts'),
        reports,
        extra: ['--ledger', space.path('ledger.jsonl'), ...extra],
      }),
      output.io,
    );
    return { code, stdout: output.stdout(), stderr: output.stderr() };
  };

  it.each([
    [
      'a refused connection',
      async (): Promise<string> => `${await closedPortUrl()}/api`,
      'sample',
      /refused the connection/,
    ],
    [
      'a host that does not resolve',
      async (): Promise<string> => 'http://no-such-host.invalid/api',
      'sample',
      /could not be found \(DNS\)/,
    ],
    [
      'an https URL to a server that speaks plain HTTP',
      async (): Promise<string> => counted.url.replace('http://', 'https://'),
      'live',
      /does not speak TLS on that port; if it serves plain HTTP, use an http:\/\/ URL/,
    ],
    [
      'a certificate no CA vouches for',
      async (): Promise<string> => tls.url,
      'live',
      /TLS certificate is not trusted \([A-Z_]+\)/,
    ],
  ] as const)('exits 2 with one line for %s, and ledgers nothing', async (_what, url, mode, reason) => {
    const result = await run(await url(), mode);
    expect(result.code).toBe(2);
    expect(result.stderr.trim().split('\n')).toEqual([
      expect.stringMatching(/^verify: cannot use the target at /),
    ]);
    expect(result.stderr).toMatch(reason);
    expect(result.stdout).not.toContain('state ');
    expect(existsSync(space.path('ledger.jsonl'))).toBe(false);
    expect(tls.requests).toEqual([]);
  });

  it('exits 2 with one line for a server that takes connections and never answers, and creates nothing', async () => {
    const silent = await startSilentBroker();
    try {
      const result = await run(`${silent.url}/api`, 'sample', space.path('reports'), [
        '--request-timeout',
        '1000',
        '--retries',
        '1',
      ]);
      expect(result.code).toBe(2);
      expect(result.stderr.trim().split('\n')).toEqual([
        expect.stringMatching(
          /^verify: cannot use the target at .*: it gave no complete answer to GET \/api\/orders \(the target timed out waiting for the answer\) nor to GET \/api\/orders\/\d+ /,
        ),
      ]);
      expect(silent.requests.filter((request) => !request.startsWith('GET '))).toEqual([]);
      expect(existsSync(space.path('ledger.jsonl'))).toBe(false);
    } finally {
      await silent.close();
    }
  });

  it('exits 2 for a report folder it cannot write, before any request reaches the target', async () => {
    const file = space.path('not-a-folder');
    await writeFile(file, 'a file where the reports should go');
    const result = await run(counted.url, 'sample', `${file}/reports`);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(
      /^verify: --report-dir: cannot write into .*not-a-folder\/reports \(ENOTDIR\)/,
    );
    expect(counted.requests).toEqual([]);
    expect(existsSync(space.path('ledger.jsonl'))).toBe(false);
  });
});
