import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import {
  descendants,
  inGroup,
  killLeftovers,
  signalWhileLoading,
  start,
  stopWith,
} from '@print-contracts/test-support';
import { afterEach, describe, expect, it } from 'vitest';
import { apiHeaders } from './helpers/sample-api.js';

/** The package's own launcher on its build (turbo builds it before these tests; alone, `pnpm build` first). */
const BIN = fileURLToPath(new URL('../bin/print-sample-api.js', import.meta.url));

/** The command as the README gives it, run from the repository root. */
const COMMAND = ['pnpm', 'sample-api', '--processing-delay', '0'] as const;

// pnpm and Node start slowly on a busy 2-core machine: a generous bound, never a timing check.
describe('pnpm sample-api and signals', { timeout: 60_000 }, () => {
  let tracked: number[] = [];
  afterEach(async () => {
    await killLeftovers(tracked);
    tracked = [];
  });

  async function startSampleApi() {
    const [command, ...args] = COMMAND;
    const run = start(command, args);
    tracked.push(run.pid);
    const url = await run.waitFor(/listening on (\S+)/);
    const below = await descendants(run.pid);
    tracked.push(...below);
    expect((await fetch(`${url}/orders?limit=1`, { headers: apiHeaders() })).status).toBe(200);
    return { run, port: Number(new URL(url).port), processes: [run.pid, ...below] };
  }

  it.each([
    { signal: 'SIGTERM', to: 'pnpm' },
    { signal: 'SIGINT', to: 'pnpm' },
    { signal: 'SIGTERM', to: 'the process group' },
    { signal: 'SIGINT', to: 'the process group' },
  ] as const)(
    'stops on $signal to $to, the server with status 0, closing its port and leaving no process',
    async ({ signal, to }) => {
      const { run, port, processes } = await startSampleApi();
      expect(processes.length).toBeGreaterThanOrEqual(2); // pnpm and node
      const pid = to === 'pnpm' ? run.pid : -run.pid;
      const stopped = await stopWith(run, pid, signal, processes, port);
      expect(stopped).toMatchObject({ left: [], portClosed: true });
      expect(run.output.stdout).toContain(`Stopped on ${signal}`);
      // The server always exits 0. pnpm reports that, except when the whole group got the
      // signal and the server was gone before pnpm handled its own copy: pnpm then removes its
      // handler and the signal ends it (its lifecycle code, not ours).
      const ended = [{ code: 0, signal: null }, ...(to === 'pnpm' ? [] : [{ code: null, signal }])];
      expect(ended).toContainEqual(stopped.exited);
    },
  );

  it('stops when pnpm is killed outright, since its parent has gone', async () => {
    const { run, port, processes } = await startSampleApi();
    expect(await stopWith(run, run.pid, 'SIGKILL', processes, port)).toMatchObject({
      left: [],
      portClosed: true,
    });
  });
});

describe('the built print-sample-api binary and a signal while it loads', { timeout: 60_000 }, () => {
  let tracked: number[] = [];
  afterEach(async () => {
    await killLeftovers(tracked);
    tracked = [];
  });

  it.each(['SIGTERM', 'SIGINT'] as const)(
    'stops with status 0 on %s as soon as it is up, leaving no process',
    async (signal) => {
      const run = start(process.execPath, [...signalWhileLoading(signal), BIN, '--processing-delay', '0']);
      tracked.push(run.pid);
      const closed = once(run.child, 'close'); // exited, and its output read to the end
      expect(await closed, run.output.stderr).toEqual([0, null]);
      expect(run.output.stdout).toMatch(new RegExp(`listening on \\S+[^]*Stopped on ${signal}\\.\\n$`));
      expect(run.output.stderr).toBe('');
      expect(await inGroup(run.pid)).toEqual([]);
    },
  );
  it('stops with status 0 when its parent dies while it loads, leaving no process', async () => {
    // Found by an audit: the parent was first looked at once the command had loaded, when an
    // adopted process has no parent to watch: killed pnpm left the server running for good.
    const args = [...signalWhileLoading('SIGKILL', 'its parent'), BIN, '--processing-delay', '0'];
    const parent = `require('node:child_process').spawn(process.execPath, ${JSON.stringify(args)}, { stdio: 'inherit' });
setInterval(() => {}, 1000);`;
    const run = start(process.execPath, ['-e', parent]);
    tracked.push(run.pid);
    expect(await run.exited).toEqual({ code: null, signal: 'SIGKILL' });
    for (let tries = 0; (await inGroup(run.pid)).length > 0 && tries < 600; tries++) {
      await new Promise((done) => setTimeout(done, 50));
    }
    const left = await inGroup(run.pid);
    // Its parent is gone, so the usual clean-up no longer finds the group: an orphan goes here.
    for (const pid of left) process.kill(pid, 'SIGKILL');
    expect(left).toEqual([]);
    expect(run.output.stdout).toMatch(
      /listening on \S+[\s\S]*Stopped: the process that started it exited\.\n$/,
    );
  });
});
