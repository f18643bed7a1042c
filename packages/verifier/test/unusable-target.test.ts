import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { WRONG_SECRET } from '@print-contracts/client/kit';
import type { SampleApi } from '@print-contracts/sample-api';
import {
  type Alteration,
  type AlteringProxy,
  captureIo,
  closedPortUrl,
  startAlteringProxy,
  startSilentBroker,
  workspace,
} from '@print-contracts/test-support';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runVerify } from '../src/index.js';
import { writeFixturePacts } from './helpers/fixture-pact.js';
import { credentialEnv, front, sampleTarget, verifyArgs } from './helpers/targets.js';

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

describe('the verifier at a vendor that refuses credentials with 400, as it refuses a wrong secret', () => {
  let space: Awaited<ReturnType<typeof workspace>>;
  let api: SampleApi;
  let vendor: AlteringProxy;
  let v1Gone: AlteringProxy;
  const TYPO = 'demo-secret-typo-5b7e';

  beforeAll(async () => {
    space = await workspace();
    await writeFixturePacts(space.path('pacts'));
    api = await sampleTarget();
    // The vendor documents no status for credentials it does not take: this one answers 400
    // where the sample API answers 401 or 403.
    const refuses400: Alteration = {
      response: (answer) =>
        answer.status === 401 || answer.status === 403 ? { ...answer, status: 400 } : undefined,
    };
    vendor = await startAlteringProxy(api.origin, refuses400);
    // The same, and every v1 request (one without a version header too) refused with 400 for
    // everyone, before any credentials are read: the list alone cannot tell.
    const gone = Buffer.from('{"message":"v1 is no longer supported"}');
    v1Gone = await startAlteringProxy(api.origin, {
      ...refuses400,
      request: (request) =>
        String(request.headers.accept ?? '').endsWith('.v2')
          ? undefined
          : { reply: { status: 400, headers: { 'content-type': 'application/json' }, body: gone } },
    });
  });
  afterAll(async () => {
    await v1Gone.close();
    await vendor.close();
    await api.close();
    await space.remove();
  });

  const run = async (name: string, baseUrl: string, env: Record<string, string>) => {
    const output = captureIo({ cwd: space.dir, env });
    const ledger = space.path(name, 'ledger.jsonl');
    const code = await runVerify(
      verifyArgs({
        baseUrl,
        mode: 'sample',
        pact: space.path('pacts'),
        reports: space.path(name),
        extra: ['--ledger', ledger],
      }),
      output.io,
    );
    return { code, stdout: output.stdout(), stderr: output.stderr(), ledger };
  };

  it.each<{ which: string; env: Record<string, string>; user: string; where: string }>([
    {
      which: 'main',
      env: { PRINT_API_SECRET: TYPO },
      user: 'demo-user',
      where: 'PRINT_API_USER_ID and PRINT_API_SECRET (or --user-id and --secret-file)',
    },
    {
      which: 'second',
      env: { PRINT_API_OTHER_SECRET: TYPO },
      user: 'other-user',
      where:
        'PRINT_API_OTHER_USER_ID and PRINT_API_OTHER_SECRET (or --other-user-id and --other-secret-file)',
    },
  ])(
    'exits 2 with one line naming the $which set and its variables for a mistyped secret, having sent only reads',
    async ({ which, env, user, where }) => {
      const before = vendor.seen.length;
      const result = await run(`typo-${which}`, `${vendor.origin}/api`, { ...credentialEnv(api), ...env });
      expect(result.code).toBe(2);
      expect(result.stderr.trim().split('\n')).toEqual([
        `verify: the target refused the ${which} credentials (user "${user}", status 400, as a wrong secret gets) on GET /api/orders and GET /api/orders/999999999; check ${where}: the secret may be mistyped, or the set revoked or rotated at the vendor`,
      ]);
      for (const text of [result.stdout, result.stderr]) expect(text).not.toContain(TYPO);
      const sent = vendor.seen.slice(before);
      expect(sent.filter((request) => request.method !== 'GET')).toEqual([]);
      // The wrong secret is the contracts' own, sent with the set's user id.
      expect(sent.map((request) => request.headers['api-secret'])).toContain(WRONG_SECRET);
      expect(existsSync(result.ledger)).toBe(false);
    },
  );

  it('exits 2 the same at a vendor that refuses v1 with 400 for everyone, and goes on there with the right secret', async () => {
    const typo = await run('v1-gone-typo', `${v1Gone.origin}/api`, {
      ...credentialEnv(api),
      PRINT_API_SECRET: TYPO,
    });
    expect(typo.code).toBe(2);
    expect(typo.stderr).toMatch(
      /^verify: the target refused the main credentials \(user "demo-user", status 400, as a wrong secret gets\)/,
    );
    // With the right secrets, v1 refused is a finding about v1, not refused credentials.
    const right = await run('v1-gone', `${v1Gone.origin}/api`, credentialEnv(api));
    expect(right.stderr).toBe('');
    expect(right.stdout).toMatch(/Finding: v1 is no longer served here/);
    expect(right.code).toBe(1);
  });

  it('goes on with the right secrets, not waiting for the answer to the wrong one', async () => {
    const arrived: { at: number; path: string }[] = [];
    // A vendor that answers a wrong secret 3 s late (to slow down guessing).
    const slow = await front(api.origin, {
      answer: ({ path }) => void arrived.push({ at: Date.now(), path }),
      holdMs: ({ headers }) => (headers['api-secret'] === WRONG_SECRET ? 3_000 : 0),
    });
    try {
      const result = await run('slow-refusal', slow.url, credentialEnv(api));
      expect(result.stderr).toBe('');
      expect(result.code).toBe(0);
      const [first] = arrived;
      const arranging = arrived.find(({ path }) => !path.endsWith('?limit=1'));
      expect(arranging && first && arranging.at - first.at).toBeLessThan(2_000);
    } finally {
      await slow.close();
    }
  });
});
