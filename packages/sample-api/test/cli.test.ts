import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { EventEmitter } from 'node:events';
import { cp, mkdir, mkdtemp, rm, symlink } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_CREDENTIALS, runSampleApiCli, startSampleApi } from '../src/index.js';
import { apiHeaders } from './helpers/sample-api.js';

const run = promisify(execFile);
const require = createRequire(import.meta.url);
const packageDir = fileURLToPath(new URL('..', import.meta.url));
const clientDir = fileURLToPath(new URL('../../client', import.meta.url));
const vocabularyDir = fileURLToPath(new URL('../../consumer-contracts', import.meta.url));

/** Captures what the command writes, and lets a test send it signals. */
function fakeIo() {
  const out = { stdout: '', stderr: '' };
  const signals = new EventEmitter();
  const io = {
    stdout: { write: (text: string) => (out.stdout += text) },
    stderr: { write: (text: string) => (out.stderr += text) },
    signals,
  };
  return { io, out, signals };
}

async function until(check: () => boolean, what: string): Promise<void> {
  for (let waited = 0; !check(); waited += 10) {
    if (waited > 10_000) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

const listeningUrl = (stdout: string) => /listening on (\S+)/.exec(stdout)?.[1];

describe('runSampleApiCli refuses bad input', () => {
  it.each([
    { given: ['--bogus'], reason: "Unknown option '--bogus'" },
    { given: ['--port', 'abc'], reason: '--port must be a whole number' },
    { given: ['--port', '70000'], reason: '--port must be a whole number' },
    { given: ['--processing-delay', '1.5'], reason: '--processing-delay must be a whole number' },
    { given: ['--processing-delay=-1'], reason: '--processing-delay must be a whole number' },
    { given: ['--credentials', 'no-colon-here'], reason: '--credentials must look like id:secret' },
    { given: ['--credentials', 'user:'], reason: '--credentials must look like id:secret' },
    { given: ['--credentials', 'bad\u0007id:secret'], reason: 'credentials[0].userId' },
    { given: ['--control=yes'], reason: "Option '--control' does not take an argument" },
    { given: ['serve'], reason: "Unexpected argument 'serve'" },
  ])('exits 2 with one line of reason and the usage for $given', async ({ given, reason }) => {
    const { io, out } = fakeIo();
    expect(await runSampleApiCli(given, io)).toBe(2);
    const [first, second] = out.stderr.split('\n');
    expect(first).toContain(reason);
    expect(first?.startsWith('print-sample-api: ')).toBe(true);
    expect(second).toBe('');
    expect(out.stderr).toContain('Usage: print-sample-api');
    expect(out.stderr).not.toMatch(/\n\s+at /);
    expect(out.stdout).toBe('');
  });

  it('never echoes a --credentials value it refuses', async () => {
    const { io, out } = fakeIo();
    await runSampleApiCli(['--credentials', 'secret-without-colon'], io);
    expect(out.stderr).not.toContain('secret-without-colon');
  });

  it.each([[['--help']], [['-h']], [['--', '--help']]])(
    'prints the usage and exits 0 for %j',
    async (given) => {
      const { io, out } = fakeIo();
      expect(await runSampleApiCli(given, io)).toBe(0);
      expect(out.stdout).toContain('--processing-delay <ms>');
    },
  );

  it('exits 1 with one line when the port is taken', async () => {
    const taken = await startSampleApi();
    try {
      const { io, out } = fakeIo();
      expect(await runSampleApiCli(['--port', new URL(taken.origin).port], io)).toBe(1);
      expect(out.stderr).toMatch(/^print-sample-api: .*EADDRINUSE.*\n$/);
    } finally {
      await taken.close();
    }
  });
});

describe('runSampleApiCli serves until a signal', () => {
  it.each(['SIGINT', 'SIGTERM'] as const)(
    'prints the URL and the demo credentials, serves, and stops on %s',
    async (signal) => {
      const { io, out, signals } = fakeIo();
      const exit = runSampleApiCli(['--processing-delay', '0', '--control'], io);
      await until(() => out.stdout.includes('Press Ctrl-C'), 'the banner');
      const url = listeningUrl(out.stdout);
      expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/api$/);
      for (const set of DEMO_CREDENTIALS) expect(out.stdout).toContain(`${set.userId} / ${set.secret}`);
      expect(out.stdout).toContain('/__control');
      const answer = await fetch(`${url}/orders`, { headers: apiHeaders() });
      expect(answer.status).toBe(200);
      signals.emit(signal);
      expect(await exit).toBe(0);
      expect(out.stdout).toContain(`Stopped on ${signal}`);
      await expect(fetch(`${url}/orders`, { headers: apiHeaders() })).rejects.toThrow();
    },
  );

  it('accepts the given credential sets and never prints their secrets', async () => {
    const { io, out, signals } = fakeIo();
    const exit = runSampleApiCli(
      ['--credentials', 'team-a:alpha:with:colons', '--credentials', 'team-b:beta'],
      io,
    );
    await until(() => out.stdout.includes('Press Ctrl-C'), 'the banner');
    const url = listeningUrl(out.stdout) as string;
    expect(out.stdout).not.toContain('alpha');
    expect(out.stdout).not.toContain('beta');
    expect(out.stdout).toContain('team-a / (the secret you gave)');
    const ok = await fetch(`${url}/orders`, {
      headers: apiHeaders({ userId: 'team-a', secret: 'alpha:with:colons' }),
    });
    const demo = await fetch(`${url}/orders`, { headers: apiHeaders() });
    expect([ok.status, demo.status]).toEqual([200, 401]);
    signals.emit('SIGTERM');
    expect(await exit).toBe(0);
  });
});

describe('the built print-sample-api binary', () => {
  let root: string;
  const children: ChildProcess[] = [];

  // Builds the client and this package into a scratch directory, so the test runs the real
  // launcher on fresh sources without touching any dist/ in the repository.
  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'print-sample-api-'));
    const tsc = require.resolve('typescript/bin/tsc');
    const clientOut = join(root, 'node_modules', '@print-contracts', 'client');
    const vocabularyOut = join(root, 'node_modules', '@print-contracts', 'consumer-contracts');
    await mkdir(join(root, 'node_modules', '@print-contracts'), { recursive: true });
    const build = (config: string, outDir: string) =>
      run(process.execPath, [
        tsc,
        '-p',
        config,
        '--outDir',
        outDir,
        '--declaration',
        'false',
        '--declarationMap',
        'false',
        '--sourceMap',
        'false',
      ]);
    await Promise.all([
      build(join(clientDir, 'tsconfig.build.json'), join(clientOut, 'dist')),
      // The provider-state endpoint names its states from the contracts' vocabulary entry.
      build(join(vocabularyDir, 'tsconfig.build.json'), join(vocabularyOut, 'dist')),
      build(join(packageDir, 'tsconfig.build.json'), join(root, 'dist')),
    ]);
    await cp(join(clientDir, 'package.json'), join(clientOut, 'package.json'));
    await cp(join(vocabularyDir, 'package.json'), join(vocabularyOut, 'package.json'));
    await cp(join(packageDir, 'package.json'), join(root, 'package.json'));
    await cp(join(packageDir, 'bin'), join(root, 'bin'), { recursive: true });
    for (const name of ['zod', 'undici']) {
      await symlink(
        dirname(require.resolve(`${name}/package.json`)),
        join(root, 'node_modules', name),
        'dir',
      );
    }
  }, 60_000);

  afterAll(async () => {
    for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
    await rm(root, { recursive: true, force: true });
  });

  const start = (args: string[]) => {
    const child = spawn(process.execPath, [join(root, 'bin', 'print-sample-api.js'), ...args], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    children.push(child);
    const out = { stdout: '', stderr: '' };
    child.stdout?.on('data', (chunk: Buffer) => (out.stdout += chunk.toString()));
    child.stderr?.on('data', (chunk: Buffer) => (out.stderr += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    return { child, out, exited };
  };

  it('serves the API and exits 0 on SIGTERM', async () => {
    const { child, out, exited } = start(['--port', '0', '--processing-delay', '0']);
    await until(() => out.stdout.includes('Press Ctrl-C') || child.exitCode !== null, 'the banner');
    const url = listeningUrl(out.stdout);
    expect(url, out.stderr).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/api$/);
    expect((await fetch(`${url}/orders?limit=1`, { headers: apiHeaders() })).status).toBe(200);
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
    expect(out.stdout).toContain('Stopped on SIGTERM');
    expect(out.stderr).toBe('');
  });

  it('exits 2 with a one-line reason for a bad flag', async () => {
    const { out, exited } = start(['--port', 'eighty']);
    expect(await exited).toBe(2);
    expect(out.stderr.split('\n')[0]).toBe(
      'print-sample-api: --port must be a whole number from 0 to 65535, got "eighty"',
    );
  });
});
