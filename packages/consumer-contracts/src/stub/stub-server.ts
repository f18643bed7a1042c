import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { API_VERSIONS, type ApiVersion } from '@print-contracts/client';
import { CONTRACTS_DIR } from '../contracts-output.js';
import { StubServerError } from '../errors/stub-server-error.js';
import { pactCliBinary } from '../pact-cli.js';
import { pactFileName } from '../participants.js';

export interface StubServerOptions {
  /** Versions to serve; default both. */
  versions?: readonly ApiVersion[];
  /** Default 0: a free port chosen by the system. */
  port?: number;
  /** Folder of the pact files; default the committed `contracts/`. */
  contractsDir?: string;
}

export interface StubServer {
  /** Base URL ending in `/api`, as the client takes it. */
  url: string;
  port: number;
  versions: readonly ApiVersion[];
  close(): Promise<void>;
}

/**
 * Where several interactions match one request (an order that exists, or one in production,
 * on the same path), the request picks one by naming its provider state in this header; the
 * value is a regular expression over state names.
 */
export const STUB_STATE_HEADER = 'X-Provider-State';

const STARTED = /Server started on port (\d+)/;
const START_TIMEOUT_MS = 15_000;

/**
 * Serves the contracts with the official Pact stub server: every interaction answers its
 * example response to a request that matches it, so another team can point its own code at
 * a contract-exact fake vendor. Loopback only.
 */
export async function startStubServer(options: StubServerOptions = {}): Promise<StubServer> {
  const versions = options.versions ?? API_VERSIONS;
  const dir = options.contractsDir ?? CONTRACTS_DIR;
  const files = versions.map((version) => join(dir, pactFileName(version)));
  const missing = files.find((file) => !existsSync(file));
  if (missing)
    throw new StubServerError(`no pact file at ${missing}; run \`pnpm contracts\` or pass --contracts-dir`);

  const args = [
    'stub',
    ...files.flatMap((file) => ['--file', file]),
    ...['--port', String(options.port ?? 0), '--provider-state-header-name', STUB_STATE_HEADER],
  ];
  const child = spawn(pactCliBinary(), args, {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, PACT_DO_NOT_TRACK: 'true' },
  });
  try {
    const port = await startedPort(child);
    return {
      url: `http://127.0.0.1:${port}/api`,
      port,
      versions,
      close: () => stop(child),
    };
  } catch (error) {
    await stop(child);
    throw error;
  }
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
  const said = output.join('\n').trim().split('\n').slice(-3).join(' | ');
  throw new StubServerError(
    `the Pact stub server did not start (exit ${child.exitCode ?? 'signal'}): ${said}`,
  );
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = once(child, 'exit');
  child.kill('SIGTERM');
  await exited;
}
