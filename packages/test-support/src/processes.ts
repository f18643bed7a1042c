import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { connect } from 'node:net';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** The repository root, where a test runs `pnpm …` as a user runs it. */
export const REPO_ROOT = fileURLToPath(new URL('../../../', import.meta.url));

interface ProcessRow {
  readonly pid: number;
  readonly ppid: number;
  /** `ps` state letters; `Z` is a zombie: gone, waiting to be reaped. */
  readonly stat: string;
}

/** Every process on the machine, from `ps` (POSIX: Linux and macOS alike). */
async function processTable(): Promise<ProcessRow[]> {
  const { stdout } = await run('ps', ['-A', '-o', 'pid=,ppid=,stat=']);
  return stdout
    .split('\n')
    .map((line) => line.trim().split(/\s+/))
    .filter((cells) => cells.length >= 3)
    .map(([pid, ppid, stat]) => ({ pid: Number(pid), ppid: Number(ppid), stat: stat ?? '' }));
}

/** The living processes below `pid`, children first. */
export async function descendants(pid: number): Promise<number[]> {
  const rows = (await processTable()).filter((row) => !row.stat.startsWith('Z'));
  const found: number[] = [];
  const queue = [pid];
  while (queue.length > 0) {
    const parent = queue.shift() as number;
    for (const row of rows) {
      if (row.ppid === parent && !found.includes(row.pid)) {
        found.push(row.pid);
        queue.push(row.pid);
      }
    }
  }
  return found;
}

/** Those of `pids` that still run (a zombie does not). */
export async function living(pids: readonly number[]): Promise<number[]> {
  const rows = await processTable();
  return pids.filter((pid) => rows.some((row) => row.pid === pid && !row.stat.startsWith('Z')));
}

/** Waits, at most `timeoutMs`, until none of `pids` runs; resolves to those still running. */
export async function waitUntilGone(pids: readonly number[], timeoutMs = 15_000): Promise<number[]> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const left = await living(pids);
    if (left.length === 0 || Date.now() > deadline) return left;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** True when nothing accepts connections on 127.0.0.1:`port`. */
export function portClosed(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(false);
    });
    socket.once('error', () => resolve(true));
  });
}

/** The first of `pids` whose command line (`ps` args) matches `pattern`. */
export async function findByCommand(pids: readonly number[], pattern: RegExp): Promise<number | undefined> {
  const { stdout } = await run('ps', ['-o', 'pid=,args=', '-p', pids.join(',')]);
  for (const line of stdout.split('\n')) {
    const found = /^\s*(\d+)\s+(.*)$/.exec(line);
    if (found && pattern.test(found[2] ?? '')) return Number(found[1]);
  }
  return undefined;
}

/** Environment for a spawned command: only what Node needs, plus what the test gives. */
export function cliEnv(extra: Record<string, string> = {}): Record<string, string> {
  return { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', PACT_DO_NOT_TRACK: 'true', ...extra };
}

/** A command started by a test, with its output so far and its exit. */
export interface Started {
  readonly child: ChildProcess;
  readonly pid: number;
  readonly output: { stdout: string; stderr: string };
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** Waits, at most `timeoutMs`, for `pattern` on stdout; resolves to its first group. */
  waitFor(pattern: RegExp, timeoutMs?: number): Promise<string>;
}

/**
 * Starts a command in its own process group (so a test can signal the group without touching
 * the test runner), collecting its output.
 */
export function start(command: string, args: readonly string[], env: NodeJS.ProcessEnv = {}): Started {
  const child = spawn(command, args, {
    cwd: REPO_ROOT,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, PACT_DO_NOT_TRACK: 'true', TURBO_TELEMETRY_DISABLED: '1', ...env },
  });
  const output = { stdout: '', stderr: '' };
  child.stdout?.on('data', (chunk: Buffer) => {
    output.stdout += chunk.toString();
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    output.stderr += chunk.toString();
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  return {
    child,
    pid: child.pid as number,
    output,
    exited,
    async waitFor(pattern, timeoutMs = 60_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const found = pattern.exec(output.stdout);
        if (found) return found[1] ?? found[0];
        if (child.exitCode !== null || child.signalCode !== null || Date.now() > deadline) {
          throw new Error(
            `${command} ${args.join(' ')} never printed ${pattern} (exit ${child.exitCode ?? child.signalCode}): ${output.stderr.slice(-500)}`,
          );
        }
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
    },
  };
}

/** Kills whatever of `pids` still runs, with its process group: the last resort of a test's clean-up. */
export async function killLeftovers(pids: readonly number[]): Promise<void> {
  for (const pid of await living(pids)) {
    // A command `start` began leads its own process group: the whole group goes, so a shell
    // still building (`turbo run build && exec node …`) cannot start the server orphaned.
    for (const target of [-pid, pid]) {
      try {
        process.kill(target, 'SIGKILL');
      } catch {
        // Not a group leader, or gone in the meantime.
      }
    }
  }
}

/** How a command ended after a signal: its exit, what of its processes still runs, and whether its port closed. */
export interface Stopped {
  readonly exited: { code: number | null; signal: NodeJS.Signals | null };
  readonly left: number[];
  readonly portClosed: boolean;
}

/**
 * Sends `signal` to `pid` (as `process.kill` takes it: a negative id is a process group),
 * waits until the started command exits, then until none of `processes` runs.
 */
export async function stopWith(
  started: Started,
  pid: number,
  signal: NodeJS.Signals,
  processes: readonly number[],
  port: number,
): Promise<Stopped> {
  process.kill(pid, signal);
  const exited = await started.exited;
  return { exited, left: await waitUntilGone(processes), portClosed: await portClosed(port) };
}
