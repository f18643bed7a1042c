import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { stripVTControlCharacters } from 'node:util';

/** The repository root, where `contracts/` and the packages live. */
export const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));

export const VERIFIER_CLI = `${REPO_ROOT}packages/verifier/dist/cli.js`;
const SAMPLE_API_CLI = `${REPO_ROOT}packages/sample-api/dist/cli.js`;

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
  const child = spawn(command, args, {
    cwd: options.cwd ?? REPO_ROOT,
    env: options.cleanEnv ?? { ...process.env, PACT_DO_NOT_TRACK: 'true', ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines: { at: number; text: string }[] = [];
  const closed = [child.stdout, child.stderr].map((stream) => {
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
  const child = spawn(process.execPath, [SAMPLE_API_CLI, ...args], { stdio: ['ignore', 'pipe', 'inherit'] });
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

export async function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = once(child, 'exit');
  child.kill('SIGTERM');
  await exited;
}
