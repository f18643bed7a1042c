import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { secretForms } from '@print-contracts/client/kit';
import type { SampleApi } from '@print-contracts/sample-api';
import { cliEnv, workspace } from '@print-contracts/test-support';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from './helpers/cli.js';
import { writeFixturePacts } from './helpers/fixture-pact.js';
import { front, sampleTarget, verifyArgs } from './helpers/targets.js';

/** A quote, a backslash and a percent sign: JSON-escaped and percent-encoded, they read differently. */
const SECRET = 'Zq7"dist\\inct%ive-main-4f1c9e';
const OTHER_SECRET = 'Wx3-distinctive-other-secret-8b2d0a';

/** A secret as servers of other stacks spell it: lower-case percent-encoding, a form, HTML. */
const spelled = (secret: string) => ({
  'x-echo-percent-lower': encodeURIComponent(secret).replace(/%[0-9A-F]{2}/g, (hex) => hex.toLowerCase()),
  'x-echo-form': new URLSearchParams({ s: secret }).toString().slice(2),
  'x-echo-html': secret.replaceAll('"', '&quot;'),
});

/** Every form either secret can take in what the kit writes: raw, JSON-escaped, percent-encoded, base64, HTML. */
const FORMS = [
  ...secretForms(SECRET, ['scan-user']),
  ...secretForms(OTHER_SECRET, ['scan-other-user']),
  ...Object.values(spelled(SECRET)),
];
const leaks = (text: string) => FORMS.filter((form) => text.includes(form));

/** The secret as a server's debug output might echo it: as it is, in hex, base64url, inside a longer base64 value, spelled. */
const echoes = (secret: string) => {
  const bytes = Buffer.from(secret);
  return {
    'x-echo-secret': secret,
    'x-echo-hex': bytes.toString('hex'),
    'x-echo-base64url': bytes.toString('base64url'),
    'x-echo-token': Buffer.from(`tok:${secret};exp=1`).toString('base64'),
    ...spelled(secret),
  };
};

/**
 * A target that leaks: it forwards to the sample API, except that it answers the list of
 * orders with a 500 echoing every request header, the secret included. Pact's mismatch
 * output would show that body, were the proxy not to scrub it.
 */
const leakyFront = (api: SampleApi) =>
  front(api.origin, {
    answer: (seen) =>
      seen.method === 'GET' && seen.path === '/api/orders'
        ? {
            status: 500,
            headers: echoes(String(seen.headers['api-secret'])),
            body: { message: 'leak', headers: seen.headers },
          }
        : undefined,
  });

async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  return entries.filter((entry) => entry.isFile()).map((entry) => join(entry.parentPath, entry.name));
}

describe('the verify command with a distinctive secret', () => {
  let space: Awaited<ReturnType<typeof workspace>>;
  let api: SampleApi;
  let leaky: Awaited<ReturnType<typeof leakyFront>>;
  let result: Awaited<ReturnType<typeof runCli>>;

  beforeAll(async () => {
    space = await workspace();
    await writeFixturePacts(space.path('pacts'));
    api = await sampleTarget({
      credentials: [
        { userId: 'scan-user', secret: SECRET },
        { userId: 'scan-other-user', secret: OTHER_SECRET },
      ],
    });
    leaky = await leakyFront(api);
    result = await runCli(
      verifyArgs({
        baseUrl: leaky.url,
        mode: 'sample',
        control: true,
        pact: space.path('pacts'),
        reports: space.path('reports'),
      }),
      {
        cwd: space.dir,
        env: cliEnv({
          PRINT_API_USER_ID: 'scan-user',
          PRINT_API_SECRET: SECRET,
          PRINT_API_OTHER_USER_ID: 'scan-other-user',
          PRINT_API_OTHER_SECRET: OTHER_SECRET,
        }),
      },
    );
  });
  afterAll(async () => {
    await leaky.close();
    await api.close();
    await space.remove();
  });

  it('sends the real secret to the target (so the scan below can find a leak)', () => {
    expect(result.code).toBe(1);
    const sent = leaky.requests.map((seen) => seen.headers['api-secret']);
    expect(sent).toContain(SECRET);
    expect(sent).toContain(OTHER_SECRET);
  });

  it('prints neither secret in any form on stdout or stderr, even when the target echoes one', () => {
    expect(result.stdout).toContain('FAILED');
    expect(leaks(result.stdout)).toEqual([]);
    expect(leaks(result.stderr)).toEqual([]);
  });

  it('writes neither secret into any report or ledger file, the HAR of the exchanges included', async () => {
    const files = await filesUnder(space.path('reports'));
    expect(files.map((file) => file.split('/').pop()).sort()).toEqual([
      'pact-verifier-output.txt',
      'verify-exchanges.har',
      'verify-junit.xml',
      'verify-report.json',
      'verify-summary.md',
    ]);
    for (const file of files) expect(leaks(await readFile(file, 'utf8')), file).toEqual([]);
    expect(await readFile(space.path('reports', 'pact-verifier-output.txt'), 'utf8')).toContain('[REDACTED]');
    // The HAR holds the leaky answers that echoed the secret, scrubbed.
    const har = await readFile(space.path('reports', 'verify-exchanges.har'), 'utf8');
    for (const header of Object.keys(echoes(SECRET))) {
      expect(har).toContain(header);
    }
    expect(har).toContain('[REDACTED]');
  });
});

describe('the verify command with a secret holding a non-ASCII character', () => {
  it('refused by the target, it exits 2 and writes the secret in no form anywhere', async () => {
    const space = await workspace();
    const api = await sampleTarget();
    const secret = 'Pä"s\\%wörd-7c1d-distinctive';
    try {
      await writeFixturePacts(space.path('pacts'));
      const result = await runCli(
        verifyArgs({
          baseUrl: api.url,
          mode: 'sample',
          pact: space.path('pacts'),
          reports: space.path('reports'),
        }),
        { cwd: space.dir, env: cliEnv({ PRINT_API_USER_ID: 'demo-user', PRINT_API_SECRET: secret }) },
      );
      expect(result.code).toBe(2);
      expect(result.stderr).toMatch(/refused the main credentials/);
      // The fix, not only the cause: where the credentials come from, and that the set may be revoked.
      expect(result.stderr).toContain(
        'check PRINT_API_USER_ID and PRINT_API_SECRET (or --user-id and --secret-file)',
      );
      expect(result.stderr).toContain('revoked or rotated');
      const forms = secretForms(secret, ['demo-user']);
      expect(forms.length).toBeGreaterThan(4);
      for (const text of [result.stdout, result.stderr])
        expect(forms.filter((form) => text.includes(form))).toEqual([]);
    } finally {
      await api.close();
      await space.remove();
    }
  });
});
