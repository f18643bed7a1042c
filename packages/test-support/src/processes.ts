import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { once } from 'node:events';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { portClosed } from './loopback.js';

const run = promisify(execFile);

/** The repository root, where a test runs `pnpm …` as a user runs it. */
export const REPO_ROOT = fileURLToPath(new URL('../../../', import.meta.url));

interface ProcessRow {
  readonly pid: number;
  readonly ppid: number;
  readonly pgid: number;
  readonly args: string;
}

/** Every living process on the machine, from `ps` (POSIX: Linux and macOS alike); a zombie (`Z`) is gone. */
async function processTable(): Promise<ProcessRow[]> {
  const { stdout } = await run('ps', ['-A', '-o', 'pid=,ppid=,pgid=,stat=,args=']);
  return stdout.split('\n').flatMap((line) => {
    const found = /^\s*(\d+)\s+(\d+)\s+(\d+)\s+(\S+)\s?(.*)$/.exec(line);
    if (!found || found[4]?.startsWith('Z')) return [];
    return [{ pid: Number(found[1]), ppid: Number(found[2]), pgid: Number(found[3]), args: found[5] ?? '' }];
  });
}

/** The living processes below `pid`, children first. */
export async function descendants(pid: number): Promise<number[]> {
  const rows = await processTable();
  const tree = [pid];
  // `for…of` over an array visits what is pushed meanwhile: each child's children in turn.
  for (const parent of tree) {
    for (const row of rows) {
      if (row.ppid === parent && !tree.includes(row.pid)) tree.push(row.pid);
    }
  }
  return tree.slice(1);
}

/**
 * The living processes of process group `pgid`. A command `start` began leads its own group, and
 * what it starts stays in it, even once adopted by init: after the command, this finds what it left.
 */
export async function inGroup(pgid: number): Promise<number[]> {
  return (await processTable()).filter((row) => row.pgid === pgid).map((row) => row.pid);
}

/** Those of `pids` that still run (a zombie does not). */
export async function living(pids: readonly number[]): Promise<number[]> {
  const rows = await processTable();
  return pids.filter((pid) => rows.some((row) => row.pid === pid));
}

/** Waits, at most `timeoutMs`, until none of `pids` runs; resolves to those still running. */
export async function waitUntilGone(pids: readonly number[], timeoutMs = 15_000): Promise<number[]> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const left = await living(pids);
    if (left.length === 0 || Date.now() > deadline) return left;
    await sleep(50);
  }
}

/** The first of `pids` whose command line (`ps` args) matches `pattern`. */
export async function findByCommand(pids: readonly number[], pattern: RegExp): Promise<number | undefined> {
  const rows = await processTable();
  return rows.find((row) => pids.includes(row.pid) && pattern.test(row.args))?.pid;
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
  const exited = once(child, 'exit').then(([code, signal]) => ({ code, signal }));
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
        await sleep(25);
      }
    },
  };
}

const dataUrl = (source: string) => `data:text/javascript,${encodeURIComponent(source)}`;

/**
 * Node options under which a command (or, `to` its parent, the parent) gets `signal` while it loads: the moment it first resolves
 * one of the kit's packages (`@print-contracts/…`) past the stop watch its entry file loads first
 * (`@print-contracts/client/stop`), through a module resolve hook. Sent any earlier, while Node
 * itself starts, a signal kills every Node program; by a timer, it would depend on the machine's speed.
 */
export function signalWhileLoading(signal: NodeJS.Signals, to: 'itself' | 'its parent' = 'itself'): string[] {
  const target = to === 'itself' ? 'process.pid' : 'process.ppid';
  const resolve = `let sent = false;
function resolve(specifier, context, next) {
  if (!sent && specifier.startsWith('@print-contracts/') && specifier !== '@print-contracts/client/stop') {
    sent = true;
    process.kill(${target}, ${JSON.stringify(signal)});
  }
  return next(specifier, context);
}`;
  // In-thread hooks where Node has them (22.15 and later; 26 deprecates `register`), else a hooks thread.
  const setup = `import * as module from 'node:module';
${resolve}
if (module.registerHooks) module.registerHooks({ resolve });
else module.register(${JSON.stringify(dataUrl(`${resolve}\nexport { resolve };`))});`;
  return ['--import', dataUrl(setup)];
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
