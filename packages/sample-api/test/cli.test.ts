import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { EventEmitter, once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { CREDENTIALS_ENV } from '../src/credentials.js';
import { DEMO_CREDENTIALS } from '../src/index.js';
import { runSampleApiCli } from '../src/run-cli.js';
import { apiHeaders } from './helpers/sample-api.js';

const run = promisify(execFile);
const packageDir = fileURLToPath(new URL('..', import.meta.url));

/** Captures what the command writes, and lets a test send it signals or take its parent away. */
function fakeIo(env: Record<string, string> = {}) {
  const out = { stdout: '', stderr: '' };
  const signals = new EventEmitter();
  let parent = 4242;
  const io = {
    stdout: { write: (text: string) => (out.stdout += text) },
    stderr: { write: (text: string) => (out.stderr += text) },
    env,
    stop: { signals, parentPid: () => parent, pollMs: 10 },
  };
  const leaveParent = () => {
    parent = 1;
  };
  return { io, out, signals, leaveParent };
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
    { given: ['--prot', '1'], reason: "Unknown option '--prot'; did you mean --port?" },
  ])('exits 2 with one line of reason pointing at --help for $given', async ({ given, reason }) => {
    const { io, out } = fakeIo();
    expect(await runSampleApiCli(given, io)).toBe(2);
    expect(out.stderr.split('\n')).toEqual([expect.any(String), '']);
    expect(out.stderr).toContain(reason);
    expect(out.stderr).toMatch(/^sample-api: .* \(see pnpm sample-api --help\)\n$/);
    expect(out.stderr).not.toContain('Usage:');
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

  it('prints its version and exits 0 for --version', async () => {
    const { io, out } = fakeIo();
    expect(await runSampleApiCli(['--version'], io)).toBe(0);
    expect(out.stdout).toMatch(/^@print-contracts\/sample-api \d+\.\d+\.\d+\n$/);
  });
});

describe('runSampleApiCli cannot listen where it is told', () => {
  /** A port another program holds: a plain server on an ephemeral loopback port. */
  async function takenPort(): Promise<{ port: string; release: () => Promise<void> }> {
    const other = createServer();
    await once(other.listen(0, '127.0.0.1'), 'listening');
    const release = () => new Promise<void>((resolve) => other.close(() => resolve()));
    return { port: String((other.address() as AddressInfo).port), release };
  }

  it.each([
    {
      given: 'a port another program holds',
      args: (port: string) => ['--port', port],
      want: (port: string) =>
        `--port ${port} is in use by another program; choose another port, or --port 0 for a free one`,
    },
    {
      given: 'a host no name server knows',
      args: () => ['--host', 'no-such-host.invalid'],
      want: () =>
        '--host "no-such-host.invalid" does not resolve to an address; give one of this machine, e.g. --host 127.0.0.1',
    },
  ])('exits 1 with one line naming the flag and its fix, given $given', async ({ args, want }) => {
    const { port, release } = await takenPort();
    try {
      const { io, out } = fakeIo();
      expect(await runSampleApiCli(args(port), io)).toBe(1);
      expect(out.stderr).toBe(`sample-api: ${want(port)} (see pnpm sample-api --help)\n`);
      expect(out.stdout).toBe('');
    } finally {
      await release();
    }
  });
});

describe('runSampleApiCli serves until it is stopped', () => {
  it.each(['SIGINT', 'SIGTERM', 'SIGHUP'] as const)(
    'prints the URL and the demo credentials, serves, and stops with 0 on %s',
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
      signals.emit(signal); // pnpm forwards the signal the process group got: it comes twice
      expect(await exit).toBe(0);
      expect(out.stdout).toContain(`Stopped on ${signal}`);
      expect(signals.listenerCount(signal)).toBe(0);
      await expect(fetch(`${url}/orders`, { headers: apiHeaders() })).rejects.toThrow();
    },
  );

  it('stops with 0 when the process that started it goes', async () => {
    const { io, out, leaveParent } = fakeIo();
    const exit = runSampleApiCli([], io);
    await until(() => out.stdout.includes('Press Ctrl-C'), 'the banner');
    const url = listeningUrl(out.stdout);
    leaveParent();
    expect(await exit).toBe(0);
    expect(out.stdout).toContain('Stopped: the process that started it exited.');
    await expect(fetch(`${url}/orders`, { headers: apiHeaders() })).rejects.toThrow();
  });

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

  it(`takes credential sets from ${CREDENTIALS_ENV}, commas or newlines between them`, async () => {
    const { io, out, signals } = fakeIo({
      [CREDENTIALS_ENV]: 'team-a:alpha-env, team-b:beta:env\nteam-c:gamma',
    });
    const exit = runSampleApiCli([], io);
    await until(() => out.stdout.includes('Press Ctrl-C'), 'the banner');
    const url = listeningUrl(out.stdout) as string;
    for (const secret of ['alpha-env', 'beta:env', 'gamma']) expect(out.stdout).not.toContain(secret);
    const statuses = await Promise.all(
      [
        { userId: 'team-a', secret: 'alpha-env' },
        { userId: 'team-b', secret: 'beta:env' },
        { userId: 'team-c', secret: 'gamma' },
        DEMO_CREDENTIALS[0] as { userId: string; secret: string },
      ].map(async (set) => (await fetch(`${url}/orders`, { headers: apiHeaders(set) })).status),
    );
    expect(statuses).toEqual([200, 200, 200, 401]);
    signals.emit('SIGINT');
    expect(await exit).toBe(0);
  });

  it(`prefers --credentials over ${CREDENTIALS_ENV}`, async () => {
    const { io, out, signals } = fakeIo({ [CREDENTIALS_ENV]: 'team-env:from-env' });
    const exit = runSampleApiCli(['--credentials', 'team-flag:from-flag'], io);
    await until(() => out.stdout.includes('Press Ctrl-C'), 'the banner');
    expect(out.stdout).toContain('team-flag /');
    expect(out.stdout).not.toContain('team-env');
    signals.emit('SIGINT');
    expect(await exit).toBe(0);
  });

  it.each([
    { value: 'no-colon-secret', reason: `${CREDENTIALS_ENV} entry 1 must look like id:secret` },
    { value: 'a:b,also-no-colon-secret', reason: `${CREDENTIALS_ENV} entry 2 must look like id:secret` },
    { value: 'same:one-secret,same:two-secret', reason: 'credentials name user "same" twice' },
  ])('exits 2 for $value in the environment without echoing a secret', async ({ value, reason }) => {
    const { io, out } = fakeIo({ [CREDENTIALS_ENV]: value });
    expect(await runSampleApiCli([], io)).toBe(2);
    expect(out.stderr.split('\n')[0]).toContain(reason);
    expect(out.stderr).not.toContain('-secret');
  });
});

describe('the built print-sample-api binary', () => {
  const children: ChildProcess[] = [];

  // The package's own launcher on its own build, which turbo makes before this package's tests
  // (turbo.json: sample-api#test depends on build); run alone, `pnpm build` first.
  afterAll(() => {
    for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
  });

  const start = (args: string[], env: Record<string, string> = {}) => {
    const child = spawn(process.execPath, [join(packageDir, 'bin', 'print-sample-api.js'), ...args], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, ...env },
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

  it(`takes secrets from ${CREDENTIALS_ENV}, so they show neither in ps nor in its output`, async () => {
    const secret = 'env-only-secret-7351';
    const { child, out, exited } = start([], { [CREDENTIALS_ENV]: `team-env:${secret}` });
    await until(() => out.stdout.includes('Press Ctrl-C') || child.exitCode !== null, 'the banner');
    const url = listeningUrl(out.stdout) as string;
    const { stdout: args } = await run('ps', ['-o', 'args=', '-p', String(child.pid)]);
    expect(args).toContain('print-sample-api');
    expect(args).not.toContain(secret);
    expect(out.stdout).not.toContain(secret);
    const answer = await fetch(`${url}/orders?limit=1`, {
      headers: apiHeaders({ userId: 'team-env', secret }),
    });
    expect(answer.status).toBe(200);
    child.kill('SIGINT');
    expect(await exited).toBe(0);
  });

  it('exits 1 with a one-line reason naming --host for a host that does not resolve', async () => {
    const { out, exited } = start(['--host', 'not a host!']);
    expect(await exited).toBe(1);
    expect(out.stderr).toBe(
      'sample-api: --host "not a host!" does not resolve to an address; give one of this machine, e.g. --host 127.0.0.1 (see pnpm sample-api --help)\n',
    );
  });

  it('exits 2 with a one-line reason for a bad flag', async () => {
    const { out, exited } = start(['--port', 'eighty']);
    expect(await exited).toBe(2);
    expect(out.stderr).toBe(
      'sample-api: --port must be a whole number from 0 to 65535, got "eighty" (see pnpm sample-api --help)\n',
    );
  });
});
