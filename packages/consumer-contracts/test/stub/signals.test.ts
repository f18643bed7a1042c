import { execFile } from 'node:child_process';
import { once } from 'node:events';
import { existsSync } from 'node:fs';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import {
  descendants,
  findByCommand,
  inGroup,
  killLeftovers,
  type Started,
  signalWhileLoading,
  start,
  stopWith,
} from '@print-contracts/test-support';
import { afterEach, describe, expect, it } from 'vitest';
import { STUB_COMMAND } from './support/stub-command.js';

/** The official stub server: the `pact` binary of @pact-foundation/pact-cli, running `stub`. */
const STUB_SERVER = /[/\\]pact(\.exe)? stub /;
/** The folder of the pact copies the stub server serves, from its command line. */
async function servedFolder(processes: readonly number[]): Promise<string> {
  const pid = await findByCommand(processes, STUB_SERVER);
  const { stdout } = await promisify(execFile)('ps', ['-o', 'args=', '-p', String(pid)]);
  const file = /--file (\S+)/.exec(stdout)?.[1];
  if (!file) throw new Error(`the stub server names no --file: ${stdout}`);
  return dirname(file);
}

/** The package's own launcher on its build (turbo builds it before these tests; alone, `pnpm build` first). */
const BIN = fileURLToPath(new URL('../../bin/print-contracts-stub.js', import.meta.url));

/** The command's own Node process. */
const STUB_CLI = /\bnode\b.*dist[/\\]stub[/\\]cli\.js/;

// pnpm, Node and the stub server start slowly on a busy 2-core machine: a generous bound.
describe(`${STUB_COMMAND} and signals`, { timeout: 60_000 }, () => {
  let tracked: number[] = [];
  afterEach(async () => {
    await killLeftovers(tracked);
    tracked = [];
  });

  /** Starts `pnpm stub` and knows every process it started: pnpm, node and the stub server. */
  async function startStub(): Promise<{ stub: Started; port: number; processes: number[] }> {
    const [command, ...args] = STUB_COMMAND.split(' ') as [string, ...string[]];
    const stub = start(command, args);
    tracked.push(stub.pid);
    const url = await stub.waitFor(/listening at (\S+)/);
    const below = await descendants(stub.pid);
    tracked.push(...below);
    return { stub, port: Number(new URL(url).port), processes: [stub.pid, ...below] };
  }

  it.each([
    { signal: 'SIGINT', to: 'pnpm' },
    { signal: 'SIGTERM', to: 'the process group' },
    { signal: 'SIGINT', to: 'the process group' },
  ] as const)(
    'stops on $signal to $to, the command with status 0, closing its port and leaving no process',
    async ({ signal, to }) => {
      const { stub, port, processes } = await startStub();
      expect(processes.length).toBeGreaterThanOrEqual(3);
      const pid = to === 'pnpm' ? stub.pid : -stub.pid;
      const stopped = await stopWith(stub, pid, signal, processes, port);
      expect(stopped).toMatchObject({ left: [], portClosed: true });
      // The command always exits 0. pnpm reports that, except when the whole group got the
      // signal and the command was gone before pnpm handled its own copy: pnpm then removes
      // its handler and the signal ends it (its lifecycle code, not ours).
      const ended = [{ code: 0, signal: null }, ...(to === 'pnpm' ? [] : [{ code: null, signal }])];
      expect(ended).toContainEqual(stopped.exited);
    },
  );

  it('stops when pnpm is killed outright, and its stub server goes with it', async () => {
    const { stub, port, processes } = await startStub();
    expect(await stopWith(stub, stub.pid, 'SIGKILL', processes, port)).toMatchObject({
      left: [],
      portClosed: true,
    });
  });

  it('takes its stub server and its copies of the pacts down with it even when it is killed outright itself', async () => {
    const { stub, port, processes } = await startStub();
    const cli = await findByCommand(processes, STUB_CLI);
    const served = await servedFolder(processes);
    expect(cli).toBeDefined();
    expect(existsSync(served)).toBe(true);
    expect(await stopWith(stub, cli as number, 'SIGKILL', processes, port)).toMatchObject({
      left: [],
      portClosed: true,
    });
    await expect.poll(() => existsSync(served), { timeout: 10_000 }).toBe(false);
  });

  it('exits 1, naming the cause, when the stub server ends by itself', async () => {
    const { stub, port, processes } = await startStub();
    const stubServer = await findByCommand(processes, STUB_SERVER);
    expect(stubServer).toBeDefined();
    expect(await stopWith(stub, stubServer as number, 'SIGKILL', processes, port)).toEqual({
      exited: { code: 1, signal: null },
      left: [],
      portClosed: true,
    });
    expect(stub.output.stderr).toContain('the Pact stub server ended by itself (signal SIGKILL)');
  });

  it.each(['SIGTERM', 'SIGINT'] as const)(
    'the built binary stops with status 0 on %s while it loads, as soon as it is up, its stub server gone',
    async (signal) => {
      const stub = start(process.execPath, [...signalWhileLoading(signal), BIN, '--api-version', 'v2']);
      tracked.push(stub.pid);
      const closed = once(stub.child, 'close'); // exited, and its output read to the end
      expect(await closed, stub.output.stderr).toEqual([0, null]);
      expect(stub.output.stdout).toMatch(new RegExp(`listening at \\S+[^]*Stopped on ${signal}\\.\\n$`));
      expect(stub.output.stderr).toBe('');
      // What it started stays in its process group, even once adopted: nothing of it may remain.
      await expect.poll(() => inGroup(stub.pid), { timeout: 15_000 }).toEqual([]);
    },
  );
});
