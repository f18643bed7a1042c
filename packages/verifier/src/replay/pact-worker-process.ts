import { type ChildProcess, fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const WORKER = fileURLToPath(new URL('./pact-worker.cjs', import.meta.url));

/**
 * Environment variables Pact's process may see: what a process needs to run and to reach a
 * broker through a proxy, nothing else. An allowlist, so no credential of any kind (the
 * target's secrets, a broker token) reaches Pact's native core through its environment.
 */
const PASS_THROUGH = [
  'PATH',
  'HOME',
  'TMPDIR',
  'TEMP',
  'TMP',
  'SYSTEMROOT',
  'LANG',
  'LC_ALL',
  'SSL_CERT_FILE',
  'SSL_CERT_DIR',
  'NODE_EXTRA_CA_CERTS',
  'HTTP_PROXY',
  'HTTPS_PROXY',
  'NO_PROXY',
  'http_proxy',
  'https_proxy',
  'no_proxy',
];

/**
 * Forks the process that runs Pact's verifier. Light on purpose (Node built-ins only), so
 * the command line can start it before loading anything else: its start-up (Node plus
 * Pact's native library, about 120 ms) then overlaps the parent's own.
 */
export interface PactWorker {
  readonly child: ChildProcess;
  /** Resolves when Pact's library is loaded; rejects if the process ends first. */
  readonly ready: Promise<void>;
  /** Resolves when the process has ended, with how. */
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

export function startPactWorker(env: Readonly<Record<string, string | undefined>> = process.env): PactWorker {
  const childEnv: Record<string, string> = { PACT_DO_NOT_TRACK: 'true', LOG_LEVEL: 'error' };
  for (const name of PASS_THROUGH) {
    const value = env[name];
    if (value !== undefined) childEnv[name] = value;
  }
  const child = fork(WORKER, [], { stdio: ['ignore', 'pipe', 'pipe', 'ipc'], env: childEnv, execArgv: [] });
  // Pact prints its own report to stdout; the run reports from the JSON result instead.
  child.stdout?.resume();
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    child.once('exit', (code, signal) => resolve({ code, signal }));
  });
  const ready = new Promise<void>((resolve, reject) => {
    const onMessage = (message: { type?: unknown }) => {
      if (message?.type !== 'ready') return;
      child.off('message', onMessage);
      resolve();
    };
    child.on('message', onMessage);
    void exited.then(({ code, signal }) =>
      reject(new Error(`it ended before it was ready (${signal ?? `exit code ${code}`})`)),
    );
  });
  ready.catch(() => undefined);
  // Until a run takes it over, the worker must not keep the process alive on its own.
  child.unref();
  child.channel?.unref();
  return { child, ready, exited };
}
