import { readdir, readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { secretForms } from '@print-contracts/client';
import type { SampleApi } from '@print-contracts/sample-api';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliEnv, runCli } from './helpers/cli.js';
import { writeFixturePacts } from './helpers/fixture-pact.js';
import { sampleTarget, verifyArgs } from './helpers/targets.js';
import { workspace } from './helpers/workspace.js';

/** A quote, a backslash and a percent sign: JSON-escaped and percent-encoded, they read differently. */
const SECRET = 'Zq7"dist\\inct%ive-main-4f1c9e';
const OTHER_SECRET = 'Wx3-distinctive-other-secret-8b2d0a';

/** Every form either secret can take in what the kit writes: raw, JSON-escaped, percent-encoded, base64. */
const FORMS = [...secretForms(SECRET, ['scan-user']), ...secretForms(OTHER_SECRET, ['scan-other-user'])];
const leaks = (text: string) => FORMS.filter((form) => text.includes(form));

/**
 * A target that leaks: it forwards to the sample API, except that it answers the list of
 * orders with a 500 echoing every request header, the secret included. Pact's mismatch
 * output would show that body, were the proxy not to scrub it.
 */
async function leakyFront(api: SampleApi) {
  const seen: string[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', async () => {
      seen.push(JSON.stringify(req.headers));
      if (req.method === 'GET' && req.url === '/api/orders') {
        res.writeHead(500, {
          'content-type': 'application/json',
          'x-echo-secret': String(req.headers['api-secret']),
        });
        res.end(JSON.stringify({ message: 'leak', headers: req.headers }));
        return;
      }
      const headers = { ...req.headers };
      delete headers.host;
      const body = Buffer.concat(chunks);
      const answer = await request(`${api.origin}${req.url}`, {
        method: (req.method ?? 'GET') as 'GET',
        headers,
        body: body.length > 0 ? body : undefined,
      });
      res.writeHead(answer.statusCode, { 'content-type': 'application/json' });
      res.end(await answer.body.text());
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/api`,
    seen,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  return entries.filter((entry) => entry.isFile()).map((entry) => join(entry.parentPath, entry.name));
}

describe('the verify command with a distinctive secret', () => {
  let space: Awaited<ReturnType<typeof workspace>>;
  let api: SampleApi;
  let front: Awaited<ReturnType<typeof leakyFront>>;
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
    front = await leakyFront(api);
    result = await runCli(
      verifyArgs({
        baseUrl: front.url,
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
    await front.close();
    await api.close();
    await space.remove();
  });

  it('sends the real secret to the target (so the scan below can find a leak)', () => {
    expect(result.code).toBe(1);
    // `seen` holds each request's headers as JSON, where the secret is escaped.
    expect(front.seen.some((headers) => headers.includes(JSON.stringify(SECRET).slice(1, -1)))).toBe(true);
    expect(front.seen.some((headers) => headers.includes(OTHER_SECRET))).toBe(true);
  });

  it('prints neither secret in any form on stdout or stderr, even when the target echoes one', () => {
    expect(result.stdout).toContain('FAILED');
    expect(leaks(result.stdout)).toEqual([]);
    expect(leaks(result.stderr)).toEqual([]);
  });

  it('writes neither secret into any report or ledger file', async () => {
    const files = await filesUnder(space.path('reports'));
    expect(files.map((file) => file.split('/').pop()).sort()).toEqual([
      'pact-verifier-output.txt',
      'verify-junit.xml',
      'verify-report.json',
      'verify-summary.md',
    ]);
    for (const file of files) expect(leaks(await readFile(file, 'utf8')), file).toEqual([]);
    expect(await readFile(space.path('reports', 'pact-verifier-output.txt'), 'utf8')).toContain('[REDACTED]');
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
