import { type ChildProcess, type ChildProcessByStdio, type SpawnOptions, spawn } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import type { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { stripVTControlCharacters } from 'node:util';

/** The repository root, where `contracts/` and the packages live. */
export const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));

export const VERIFIER_CLI = `${REPO_ROOT}packages/verifier/dist/cli.js`;
const SAMPLE_API_CLI = `${REPO_ROOT}packages/sample-api/dist/cli.js`;

/** Every process the bench started and that still runs, each the leader of its own process group. */
const running = new Set<ChildProcess>();

/**
 * Spawns a command, its stdout piped, as the leader of a process group the bench can stop
 * whole (`stopAll`).
 */
export function spawnTracked(
  command: string,
  args: readonly string[],
  options: Omit<SpawnOptions, 'detached' | 'stdio'> & { stderr: 'pipe' | 'inherit' },
): ChildProcessByStdio<null, Readable, Readable | null> {
  const { stderr, ...rest } = options;
  const child = spawn(command, args, {
    ...rest,
    stdio: ['ignore', 'pipe', stderr],
    detached: true,
  }) as ChildProcessByStdio<null, Readable, Readable | null>;
  running.add(child);
  child.once('exit', () => running.delete(child));
  return child;
}

/** Stops every process group the bench started (SIGTERM, then SIGKILL after 5 s): on a stop of the bench. */
export async function stopAll(): Promise<void> {
  await Promise.all([...running].map((child) => stopProcess(child, true)));
}

/** A finished command: its wall seconds, exit code, and each line it printed (stdout and stderr, colours stripped) with the second it came. */
export interface Finished {
  readonly seconds: number;
  readonly code: number | null;
  readonly lines: readonly { readonly at: number; readonly text: string }[];
}

export interface RunOptions {
  readonly cwd?: string;
  /** Added to the bench's environment (PACT_DO_NOT_TRACK=true is always set). */
  readonly env?: NodeJS.ProcessEnv;
  /** The whole environment instead, for a run as another team would make it. */
  readonly cleanEnv?: NodeJS.ProcessEnv;
  /** Default true: reject when the command exits non-zero. */
  readonly check?: boolean;
}

/** Runs a command to its end; resolves to its wall time and output, or (unless `check` is false) rejects with its last lines when it exits non-zero. */
export async function run(
  command: string,
  args: readonly string[],
  options: RunOptions = {},
): Promise<Finished> {
  const started = process.hrtime.bigint();
  const since = () => Number(process.hrtime.bigint() - started) / 1e9;
  const child = spawnTracked(command, args, {
    cwd: options.cwd ?? REPO_ROOT,
    env: options.cleanEnv ?? { ...process.env, PACT_DO_NOT_TRACK: 'true', ...options.env },
    stderr: 'pipe',
  });
  const lines: { at: number; text: string }[] = [];
  const closed = [child.stdout, child.stderr as Readable].map((stream) => {
    const reader = createInterface({ input: stream, crlfDelay: Number.POSITIVE_INFINITY });
    reader.on('line', (text) => lines.push({ at: since(), text: stripVTControlCharacters(text) }));
    return once(reader, 'close');
  });
  const [code] = (await once(child, 'exit')) as [number | null];
  const seconds = since();
  await Promise.all(closed);
  if (code !== 0 && options.check !== false) {
    const tail = lines
      .slice(-15)
      .map((line) => line.text)
      .join('\n');
    throw new Error(`${command} ${args.join(' ')} exited ${code}:\n${tail}`);
  }
  return { seconds, code, lines };
}

/**
 * Starts the sample API's command line as a user would (`pnpm sample-api …` runs exactly this)
 * and resolves once it says it is ready, with its base URL and the seconds that took.
 */
export async function startSampleApiProcess(
  args: readonly string[],
): Promise<{ url: string; child: ChildProcess; seconds: number }> {
  const started = process.hrtime.bigint();
  const child = spawnTracked(process.execPath, [SAMPLE_API_CLI, ...args], { stderr: 'inherit' });
  let url: string | undefined;
  for await (const line of createInterface({ input: child.stdout })) {
    url ??= /listening on (http:\/\/\S+\/api)\b/.exec(line)?.[1];
    if (url && line.startsWith('Press Ctrl-C')) {
      child.stdout.resume();
      return { url, child, seconds: Number(process.hrtime.bigint() - started) / 1e9 };
    }
  }
  throw new Error(`the sample API (${args.join(' ')}) exited before it was ready`);
}

export async function stopProcess(child: ChildProcess, group = false): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = once(child, 'exit');
  const kill = (signal: NodeJS.Signals) => {
    try {
      if (group && child.pid !== undefined) process.kill(-child.pid, signal);
      else child.kill(signal);
    } catch {
      // Gone in the meantime.
    }
  };
  kill('SIGTERM');
  const late = setTimeout(() => kill('SIGKILL'), 5_000);
  await exited;
  clearTimeout(late);
}
