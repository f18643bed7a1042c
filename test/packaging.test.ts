import { execFile } from 'node:child_process';
import { lstat, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const run = promisify(execFile);
const root = new URL('..', import.meta.url).pathname;
const PACKAGES = ['client', 'sample-api', 'consumer-contracts', 'verifier', 'broker', 'openapi'] as const;

let scratch: string;

describe('the published packages', () => {
  beforeAll(async () => {
    scratch = await mkdtemp(join(tmpdir(), 'print-contracts-pack-'));
    const tarballs = join(scratch, 'tarballs');
    await run('pnpm', ['-r', '--filter', './packages/*', 'pack', '--pack-destination', tarballs], {
      cwd: root,
    });
    const files = await readdir(tarballs);
    const app = join(scratch, 'app');
    await run('mkdir', ['-p', app]);
    const dependencies = Object.fromEntries(
      PACKAGES.map((name) => {
        const file = files.find((f) => f.startsWith(`print-contracts-${name}-`));
        if (!file) throw new Error(`pnpm pack wrote no tarball for ${name}: ${files.join(', ')}`);
        return [`@print-contracts/${name}`, `file:${join(tarballs, file)}`];
      }),
    );
    // The tarballs depend on each other by version; point those at the tarballs too.
    await writeFile(
      join(app, 'package.json'),
      JSON.stringify({
        name: 'scratch-app',
        private: true,
        type: 'module',
        dependencies,
        pnpm: { overrides: dependencies },
      }),
    );
    await run(
      'pnpm',
      ['install', '--prefer-offline', '--ignore-workspace', '--config.confirmModulesPurge=false'],
      // Bounded like the deploys below: a pnpm that cannot reach the registry waits for ever.
      { cwd: app, env: { ...process.env, CI: 'true' }, timeout: 200_000, killSignal: 'SIGKILL' },
    );
  }, 240_000);

  afterAll(async () => {
    if (scratch) await rm(scratch, { recursive: true, force: true });
  });

  it.each(PACKAGES)('@print-contracts/%s installs from its tarball and its exports resolve', async (name) => {
    const script = `const m = await import('@print-contracts/${name}'); console.log(JSON.stringify(Object.keys(m).sort()));`;
    const { stdout } = await run(process.execPath, ['--input-type=module', '-e', script], {
      cwd: join(scratch, 'app'),
    });
    const names = JSON.parse(stdout) as string[];
    expect(names.length).toBeGreaterThan(0);
  });

  it.each([
    ['@print-contracts/client/kit', 'PROVIDER_STATES', 'object'],
    ['@print-contracts/sample-api/control-surface', 'CONTROL_BASE_PATH', 'string'],
  ])('the light entry %s resolves from its tarball and exports %s', async (entry, name, type) => {
    const script = `const m = await import('${entry}'); console.log(typeof m.${name});`;
    const { stdout } = await run(process.execPath, ['--input-type=module', '-e', script], {
      cwd: join(scratch, 'app'),
    });
    expect(stdout.trim()).toBe(type);
  });

  it('ships type declarations beside the code of every package', async () => {
    for (const name of PACKAGES) {
      const dir = join(scratch, 'app', 'node_modules', '@print-contracts', name, 'dist');
      const files = await readdir(dir);
      expect(files, name).toContain('index.d.ts');
      expect(files, name).toContain('index.js');
    }
  });

  it('the client works from its tarball without the workspace', async () => {
    const script = [
      "import { OrdersClient, isRequestValidationError } from '@print-contracts/client';",
      "const client = new OrdersClient({ baseUrl: 'http://127.0.0.1:9/api', userId: 'u', secret: 's' });",
      'try { await client.createOrder({}); } catch (e) { console.log(isRequestValidationError(e)); }',
      'await client.close();',
    ].join('\n');
    const { stdout } = await run(process.execPath, ['--input-type=module', '-e', script], {
      cwd: join(scratch, 'app'),
    });
    expect(stdout.trim()).toBe('true');
  });
});

/** The names a production install holds (`node_modules/.pnpm`, one entry per name and version). */
async function installedNames(dir: string): Promise<string[]> {
  const entries = await readdir(join(dir, 'node_modules', '.pnpm'));
  return entries
    .filter((entry) => entry !== 'node_modules' && entry !== 'lock.yaml')
    .map((entry) => {
      const at = entry.indexOf('@', 1);
      return (at === -1 ? entry : entry.slice(0, at)).replace('+', '/');
    });
}

/**
 * Bytes of the files under `dir`, each counted once: links are not followed. A walk of its own, as
 * Node 26's recursive `readdir` descends into linked folders (the install links the workspace's).
 */
async function diskBytes(dir: string): Promise<number> {
  let total = 0;
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) total += await diskBytes(path);
    else if (entry.isFile()) total += (await lstat(path)).size;
  }
  return total;
}

const MB = 1024 * 1024;
/** Tools and libraries a verification never runs: Redocly, the comparator, the Pact CLI, pact-js's helpers. */
const NOT_FOR_VERIFYING = [
  /^@redocly\//,
  /^@pactflow\/openapi-pact-comparator$/,
  /^@pact-foundation\/pact-cli/,
  /^graphql$/,
  /^lodash$/,
  /^ramda$/,
  /^underscore$/,
  /^axios$/,
];

describe('the production installs', () => {
  let scratch: string;
  const deploy = async (name: string) => {
    const dir = join(scratch, name);
    // A legacy deploy resolves again: cached metadata first, as a registry it cannot reach makes
    // pnpm wait for ever (seen on Node 22 and 26); the bound stops such a pnpm with the test.
    const args = [
      '--filter',
      `@print-contracts/${name}`,
      'deploy',
      '--legacy',
      dir,
      '--prod',
      '--prefer-offline',
    ];
    await run('pnpm', args, {
      cwd: root,
      env: { ...process.env, CI: 'true' },
      timeout: 200_000,
      killSignal: 'SIGKILL',
    });
    return { names: await installedNames(dir), megabytes: (await diskBytes(dir)) / MB };
  };

  beforeAll(async () => {
    scratch = await mkdtemp(join(tmpdir(), 'print-contracts-deploy-'));
  });
  afterAll(async () => {
    if (!scratch) return;
    await rm(scratch, { recursive: true, force: true });
    // pnpm deploy links a workspace dependency's bin relative to the wrong folder when the
    // workspace sits in the temp directory, leaving packages/<scratch name>/ behind.
    await rm(join(root, 'packages', basename(scratch)), { recursive: true, force: true });
  });

  it("the verifier installs with Pact's native core, undici, zod and the kit alone: no tool, at most 45 MB and 25 packages", async () => {
    const { names, megabytes } = await deploy('verifier');
    expect(names.filter((name) => NOT_FOR_VERIFYING.some((pattern) => pattern.test(name)))).toEqual([]);
    expect(names.length + 1).toBeLessThanOrEqual(25);
    expect(megabytes).toBeLessThanOrEqual(45);
  }, 240_000);

  it('the sample API installs in at most 12 MB', async () => {
    const { megabytes } = await deploy('sample-api');
    expect(megabytes).toBeLessThanOrEqual(12);
  }, 240_000);
});
