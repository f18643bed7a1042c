import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { type SampleApi, startSampleApi } from '@print-contracts/sample-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const run = promisify(execFile);
const root = fileURLToPath(new URL('..', import.meta.url));
const README_ORIGIN = 'http://127.0.0.1:9090';

/** Every option of the client, each of which the README shows in an example. */
const OPTIONS = [
  'baseUrl',
  'userId',
  'secret',
  'apiVersion',
  'versionHeader',
  'timeoutMs',
  'retry',
  'dispatcher',
  'validateRequests',
  'headers',
];

/** The `js` code blocks of the README's "Options" section. */
async function optionExamples(): Promise<string[]> {
  const readme = await readFile(join(root, 'packages', 'client', 'README.md'), 'utf8');
  const start = readme.indexOf('\n## Options');
  const section = readme.slice(start, readme.indexOf('\n## ', start + 1));
  return [...section.matchAll(/```js\n([\s\S]*?)```/g)].map((match) => match[1] as string);
}

describe('the client README examples of each option', () => {
  let examples: string[];
  let api: SampleApi;
  let scratch: string;

  beforeAll(async () => {
    examples = await optionExamples();
    api = await startSampleApi({ processingDelayMs: 0 });
    // A folder that sees the built client and undici as a user's project would.
    scratch = await mkdtemp(join(tmpdir(), 'client-readme-'));
    await mkdir(join(scratch, 'node_modules', '@print-contracts'), { recursive: true });
    await symlink(
      join(root, 'packages', 'client'),
      join(scratch, 'node_modules', '@print-contracts', 'client'),
    );
    const undici = dirname(createRequire(import.meta.url).resolve('undici/package.json'));
    await symlink(undici, join(scratch, 'node_modules', 'undici'));
  });

  afterAll(async () => {
    await api?.close();
    if (scratch) await rm(scratch, { recursive: true, force: true });
  });

  it('show every option', () => {
    const code = examples.join('\n');
    expect(OPTIONS.filter((option) => !code.includes(`${option}:`))).toEqual([]);
  });

  it('run as written and print what their comments say', async () => {
    expect(examples.length).toBeGreaterThanOrEqual(8);
    await Promise.all(
      examples.map(async (example, index) => {
        const file = join(scratch, `example-${index}.mjs`);
        await writeFile(file, example.replaceAll(README_ORIGIN, api.origin));
        const { stdout, stderr } = await run(process.execPath, [file], { cwd: scratch, timeout: 30_000 });
        expect(stderr, example).toBe('');
        for (const [, printed] of example.matchAll(/\/\/ prints: (.+)$/gm)) {
          expect(stdout, example).toContain(printed);
        }
      }),
    );
  });
});
