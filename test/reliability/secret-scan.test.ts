import { execFile } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { type SampleApi, startSampleApi } from '@print-contracts/sample-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const run = promisify(execFile);
const root = new URL('../../', import.meta.url).pathname;

// Distinctive, so a hit can only be a leak.
const SECRET = 'scan-Zq7-secret-4d1f9b2e8c';
const OTHER_SECRET = 'scan-Wx3-other-7a6c5e0d1b';

async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  return entries.filter((entry) => entry.isFile()).map((entry) => join(entry.parentPath, entry.name));
}

async function leaksIn(files: readonly string[]): Promise<string[]> {
  const hits: string[] = [];
  for (const file of files) {
    const text = await readFile(file, 'utf8');
    if (text.includes(SECRET) || text.includes(OTHER_SECRET)) hits.push(file);
  }
  return hits;
}

/*
 * The consumer suite proves its own half in the run that writes the pacts: its vitest config
 * runs it with a distinctive PRINT_API_SECRET, and its contract checks find it in no pact.
 */
describe('a distinctive secret through the verifier', () => {
  let api: SampleApi;
  let work: string;
  beforeAll(async () => {
    work = await mkdtemp(join(tmpdir(), 'secret-scan-'));
    api = await startSampleApi({
      control: true,
      processingDelayMs: 5,
      credentials: [
        { userId: 'scan-user', secret: SECRET },
        { userId: 'scan-other', secret: OTHER_SECRET },
      ],
    });
  });
  afterAll(async () => {
    await api.close();
    await rm(work, { recursive: true, force: true });
  });

  it('verify against a URL target with it writes it into no report, ledger or console line', async () => {
    const reports = join(work, 'reports');
    const { stdout, stderr } = await run(
      process.execPath,
      [
        'packages/verifier/dist/cli.js',
        '--base-url',
        api.url,
        '--mode',
        'sample',
        '--control',
        '--report-dir',
        reports,
      ],
      {
        cwd: root,
        env: {
          ...process.env,
          PRINT_API_USER_ID: 'scan-user',
          PRINT_API_SECRET: SECRET,
          PRINT_API_OTHER_USER_ID: 'scan-other',
          PRINT_API_OTHER_SECRET: OTHER_SECRET,
        },
      },
    );
    // The run really used the secret: with a wrong one the target would have refused it.
    expect(stdout).toMatch(/\b0 failed\b/);
    const written = await filesUnder(reports);
    expect(written.length).toBeGreaterThan(0);
    // The HAR of every exchange with the target is scanned like every other report.
    expect(written.map((file) => file.split('/').pop())).toContain('verify-exchanges.har');
    expect(await leaksIn(written)).toEqual([]);
    expect(`${stdout}${stderr}`).not.toContain(SECRET);
    expect(`${stdout}${stderr}`).not.toContain(OTHER_SECRET);
  }, 60_000);
});
