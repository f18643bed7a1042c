import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { cliEnv } from '@print-contracts/test-support';

/** The built command line, as `pnpm verify` runs it. */
export const CLI = fileURLToPath(new URL('../../dist/cli.js', import.meta.url));

export interface CliRun {
  readonly child: ChildProcess;
  /** Everything printed so far. */
  stdout(): string;
  stderr(): string;
  /** Resolves with the exit status (or 128 + signal number's convention via `signal`). */
  readonly done: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** Resolves once stdout contains `text`. */
  waitFor(text: string, timeoutMs?: number): Promise<void>;
}

/** Spawns the built command line. */
export function spawnCli(
  args: readonly string[],
  options: { env?: Record<string, string>; cwd: string },
): CliRun {
  const child = spawn(process.execPath, [CLI, ...args], {
    cwd: options.cwd,
    env: options.env ?? cliEnv(),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  const waiters: { text: string; resolve: () => void }[] = [];
  child.stdout?.setEncoding('utf8');
  child.stderr?.setEncoding('utf8');
  child.stdout?.on('data', (chunk: string) => {
    stdout += chunk;
    for (const waiter of [...waiters]) {
      if (stdout.includes(waiter.text)) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve();
      }
    }
  });
  child.stderr?.on('data', (chunk: string) => {
    stderr += chunk;
  });
  const done = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    child.on('close', (code, signal) => resolve({ code, signal }));
  });
  return {
    child,
    stdout: () => stdout,
    stderr: () => stderr,
    done,
    waitFor: (text, timeoutMs = 10_000) =>
      new Promise<void>((resolve, reject) => {
        if (stdout.includes(text)) return resolve();
        const timer = setTimeout(
          () => reject(new Error(`no "${text}" in output: ${stdout}${stderr}`)),
          timeoutMs,
        );
        waiters.push({
          text,
          resolve: () => {
            clearTimeout(timer);
            resolve();
          },
        });
      }),
  };
}

/** Runs the built command line to its end. */
export async function runCli(
  args: readonly string[],
  options: { env?: Record<string, string>; cwd: string },
) {
  const run = spawnCli(args, options);
  const { code } = await run.done;
  return { code, stdout: run.stdout(), stderr: run.stderr() };
}
