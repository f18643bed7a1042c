import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { createInterface } from 'node:readline';
import { API_VERSIONS, type ApiVersion } from '@print-contracts/client';
import { pactFileName } from '@print-contracts/client/kit';
import { StubServerError } from '../errors/index.js';
import { pactCliBinary } from '../pact-cli.js';
import { CONTRACTS_DIR, readPact } from '../pact-files.js';
import { CHOSEN_HEADER, STUB_STATE_HEADER, startStubFront } from './stub-front.js';
import { defaultStates, NO_STATE_SELECTOR, statesSelector, stubRoutes } from './stub-guide.js';

export interface StubServerOptions {
  /** Versions to serve; default both. */
  versions?: readonly ApiVersion[];
  /** Port of the front on 127.0.0.1; default 0: a free port chosen by the system. */
  port?: number;
  /** Folder of the pact files; default the committed `contracts/`. */
  contractsDir?: string;
}

/** Why the official stub server process ended on its own (not through `close()`). */
export interface StubExit {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
}

export type StubServer = Awaited<ReturnType<typeof startStubServer>>;

const STARTED = /Server started on port (\d+)/;
const START_TIMEOUT_MS = 15_000;
const STOP_GRACE_MS = 5_000;

/** Stub servers still running in this process: killed synchronously if the process exits first. */
const running = new Set<ChildProcess>();
const killRunning = () => {
  for (const child of running) child.kill('SIGKILL');
};

/**
 * Serves the contracts with the official Pact stub server behind a loopback front, so another
 * team can point its own code at a contract-exact fake vendor.
 *
 * The stub server chooses the interaction (method, path, query, body, then the provider state
 * named in `X-Provider-State`, then the fewest header mismatches, then file order). Without the
 * header it assumes the states of the 2xx interactions (`--provider-state`) and those without a
 * state (`--empty-provider-state`): the happy path. The front then holds the request to the
 * chosen interaction's headers and names it in `X-Pact-Interaction`.
 *
 * The stub server process never outlives this one: `close()` stops it, and an exit of the
 * Node process for any reason kills it.
 */
export async function startStubServer(options: StubServerOptions = {}) {
  const versions = options.versions ?? API_VERSIONS;
  const files = pactFilesIn(options.contractsDir ?? CONTRACTS_DIR, versions);

  let served: ReturnType<typeof writeServedPacts>;
  try {
    served = writeServedPacts(files);
  } catch (error) {
    throw new StubServerError(error instanceof Error ? error.message : String(error));
  }
  const assumed = defaultStates(served.pacts);
  const args = [
    'stub',
    ...served.files.flatMap((file) => ['--file', file]),
    ...['--port', '0', '--provider-state-header-name', STUB_STATE_HEADER, '--empty-provider-state'],
    ...['--provider-state', assumed.length > 0 ? statesSelector(assumed) : NO_STATE_SELECTOR],
  ];
  const child = spawnWithWatchdog(served.dir, pactCliBinary(), args);
  let spawnError: Error | undefined;
  child.once('error', (error) => {
    spawnError = error;
    running.delete(child);
    if (running.size === 0) process.off('exit', killRunning);
  });
  if (running.size === 0) process.on('exit', killRunning);
  running.add(child);
  let closing = false;
  const exited = new Promise<StubExit>((resolve) => {
    child.once('exit', (code, signal) => {
      running.delete(child);
      if (running.size === 0) process.off('exit', killRunning);
      child.stdin?.destroy(); // the watchdog has nothing left to guard
      if (!closing) resolve({ code, signal });
    });
  });
  let front: Awaited<ReturnType<typeof startStubFront>> | undefined;
  const close = async () => {
    closing = true;
    await front?.close();
    await stop(child);
    rmSync(served.dir, { recursive: true, force: true });
  };
  try {
    const upstreamPort = await startedPort(child).catch((error: unknown) => {
      throw spawnError
        ? new StubServerError(`the Pact stub server could not start: ${spawnError.message}`)
        : error;
    });
    front = await startStubFront(upstreamPort, served.routes, options.port ?? 0);
  } catch (error) {
    await close();
    if (error instanceof StubServerError) throw error;
    const reason = error instanceof Error ? error.message : String(error);
    throw new StubServerError(`the stub's front could not listen on port ${options.port ?? 0}: ${reason}`, {
      cause: error,
    });
  }
  let closed: Promise<void> | undefined;
  return {
    /** Base URL ending in `/api`, as the client takes it. */
    url: `http://127.0.0.1:${front.port}/api`,
    port: front.port,
    versions,
    /** Process id of the official stub server (a native binary), so callers can check it is gone. */
    pid: child.pid as number,
    /** The provider states assumed when a request names none (the happy path). */
    defaultStates: assumed,
    /** Resolves if the official stub server ends before `close()` was called. */
    exited,
    /** Stops the front and the stub server and removes the served copies. Idempotent. */
    close: (): Promise<void> => {
      closed ??= close();
      return closed;
    },
  };
}

/**
 * Copies the pact files into a fresh temporary folder, each HTTP interaction's response carrying
 * one more header: its index among the routes. Requests, matching rules and every other part of
 * the response stay as the contracts have them, so the official stub server chooses exactly as
 * it would on the originals, and the front can then check the request against the very
 * interaction it chose.
 */
function writeServedPacts(files: readonly string[]) {
  const pacts = files.map((file) => readPact(file));
  const routes = stubRoutes(pacts);
  const tags = new Map(routes.map((route, index) => [route.interaction, [String(index)]]));
  const dir = mkdtempSync(join(tmpdir(), 'print-contracts-stub-'));
  const served = pacts.map((pact, fileIndex) => {
    const interactions = pact.interactions.map((interaction) => {
      const headers = { ...interaction.response.headers, [CHOSEN_HEADER]: tags.get(interaction) };
      return { ...interaction, response: { ...interaction.response, headers } };
    });
    const path = join(dir, `${fileIndex}-${basename(files[fileIndex] ?? 'pact.json')}`);
    writeFileSync(path, JSON.stringify({ ...pact, interactions }));
    return path;
  });
  return { pacts, routes, dir, files: served };
}

/**
 * `sh -c WATCHDOG pact-stub <folder> <binary> <args…>`: a background subshell waits for the
 * end of the stdin pipe from this process, then sends SIGTERM to the stub server, which the
 * shell has become through `exec` (same process id), and removes the folder of served pacts.
 * The pipe ends when this process goes, however it goes (SIGKILL and crashes included) or
 * when it is done with the stub server.
 */
const WATCHDOG =
  'dir=$1; shift; exec 3<&0; (read -r _ <&3; kill -TERM $$ 2>/dev/null; rm -rf "$dir") </dev/null >/dev/null 2>&1 & exec "$@" </dev/null 3<&-';

/**
 * Spawns the stub server so that neither it nor its copies of the pacts (in `folder`) outlive
 * this process, even one killed with SIGKILL.
 */
function spawnWithWatchdog(folder: string, binary: string, args: readonly string[]): ChildProcess {
  // The stub server reads a broker from PACT_BROKER_* (its -b option), which the kit's broker
  // commands take too: it serves the contracts given, never a broker's, and telemetry stays off.
  const env = Object.fromEntries(
    Object.entries({ ...process.env, PACT_DO_NOT_TRACK: 'true' }).filter(
      ([name]) => !name.startsWith('PACT_BROKER_') && !name.startsWith('OTEL_'),
    ),
  );
  // Windows has no POSIX shell to keep the watchdog; there the exit handler is the guard.
  if (process.platform === 'win32') return spawn(binary, args, { stdio: ['ignore', 'pipe', 'pipe'], env });
  return spawn('/bin/sh', ['-c', WATCHDOG, 'pact-stub', folder, binary, ...args], {
    stdio: ['pipe', 'pipe', 'pipe'],
    env,
  });
}

/**
 * Reads the stub server's output until it says its port, then discards the rest: it logs
 * every request's headers, credentials included, and nothing of that may reach a log.
 */
async function startedPort(child: ChildProcess): Promise<number> {
  const output: string[] = [];
  const lines = createInterface({ input: child.stdout as NodeJS.ReadableStream });
  const keep = (chunk: Buffer) => output.push(chunk.toString());
  child.stderr?.on('data', keep);
  const timer = setTimeout(() => child.kill('SIGTERM'), START_TIMEOUT_MS);
  try {
    for await (const line of lines) {
      output.push(line);
      const port = STARTED.exec(line)?.[1];
      if (port) return Number(port);
    }
  } finally {
    clearTimeout(timer);
    lines.close();
    child.stdout?.resume();
    child.stderr?.off('data', keep).resume();
  }
  // Its status is known once it has exited; what it said, without the colours of its log.
  if (child.exitCode === null && child.signalCode === null) await once(child, 'exit');
  const how = child.exitCode !== null ? `exit ${child.exitCode}` : `signal ${child.signalCode}`;
  // biome-ignore lint/suspicious/noControlCharactersInRegex: the escape sequences of its coloured log are what go.
  const plain = output.join('\n').replace(/\u001b\[[0-9;]*[A-Za-z]/g, '');
  const said = plain.trim().split('\n').slice(-3).join(' | ');
  throw new StubServerError(`the Pact stub server did not start (${how}): ${said}`);
}

/** SIGTERM, then SIGKILL if it has not gone within the grace period. */
async function stop(child: ChildProcess): Promise<void> {
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
  const exited = once(child, 'exit');
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), STOP_GRACE_MS);
  await exited;
  clearTimeout(timer);
}

/** The pact file of each version in `dir`; a `StubServerError` names the first one missing. */
export function pactFilesIn(dir: string, versions: readonly ApiVersion[]): string[] {
  const files = versions.map((version) => join(dir, pactFileName(version)));
  const missing = files.find((file) => !existsSync(file));
  if (missing)
    throw new StubServerError(`no pact file at ${missing}; run \`pnpm contracts\` or pass --contracts-dir`);
  // A pipe or a device would block the read (a pipe with no writer, for good).
  const odd = files.find((file) => !statSync(file).isFile());
  if (odd)
    throw new StubServerError(`${odd} is not a regular file; give --contracts-dir a folder of pact files`);
  return files;
}
