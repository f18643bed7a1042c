import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

/** The repository root, where `contracts/` and the packages live. */
export const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));

export const VERIFIER_CLI = `${REPO_ROOT}packages/verifier/dist/cli.js`;
export const SAMPLE_API_CLI = `${REPO_ROOT}packages/sample-api/dist/cli.js`;

/** Runs a command to its end; resolves to its wall seconds, or rejects with its output when it failed. */
export async function timed(
  command: string,
  args: readonly string[],
  options: { cwd?: string; env?: NodeJS.ProcessEnv; okExitCodes?: readonly number[] } = {},
): Promise<number> {
  const started = process.hrtime.bigint();
  const child = spawn(command, args, {
    cwd: options.cwd ?? REPO_ROOT,
    env: { ...process.env, PACT_DO_NOT_TRACK: 'true', ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output: Buffer[] = [];
  child.stdout.on('data', (chunk: Buffer) => output.push(chunk));
  child.stderr.on('data', (chunk: Buffer) => output.push(chunk));
  const [code] = (await once(child, 'exit')) as [number | null];
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  if (!(options.okExitCodes ?? [0]).includes(code ?? -1)) {
    const tail = Buffer.concat(output).toString().split('\n').slice(-15).join('\n');
    throw new Error(`${command} ${args.join(' ')} exited ${code}:\n${tail}`);
  }
  return seconds;
}

/** Starts the sample API's command line and resolves once it has printed its base URL. */
export async function startSampleApiProcess(
  args: readonly string[],
): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(process.execPath, [SAMPLE_API_CLI, ...args], { stdio: ['ignore', 'pipe', 'inherit'] });
  const lines = createInterface({ input: child.stdout });
  for await (const line of lines) {
    const url = /(http:\/\/\S+\/api)\b/.exec(line)?.[1];
    if (url) {
      child.stdout.resume();
      return { url, child };
    }
  }
  throw new Error('the sample API exited before printing its URL');
}

export async function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = once(child, 'exit');
  child.kill('SIGTERM');
  await exited;
}
