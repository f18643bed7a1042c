import { type ChildProcess, fork } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ReplayError } from '../errors/index.js';
import type { BrokerOptions } from '../options/verify-options.js';

/** One run of Pact's verifier over some pact sources, against one loopback proxy. */
export interface VerifyJob {
  readonly provider: string;
  readonly host: string;
  readonly port: number;
  readonly stateUrl: string;
  readonly timeoutMs: number;
  readonly files?: readonly string[];
  readonly urls?: readonly string[];
  readonly brokerAuth?: BrokerOptions['auth'];
  /** A CA store that trusts nothing, when the core talks to loopback only: loading the system's, per client, is slow. */
  readonly trustNothing?: { readonly file: string; readonly dir: string };
  readonly publish?: { readonly providerVersion: string; readonly branch?: string };
  readonly appVersion: string;
}

/** What Pact's verifier answered: its exit code (0 passed, 1 failed) and its JSON result. */
type VerifyOutcome = { readonly code: number; readonly json: string };

type WorkerMessage =
  | { type: 'ready' }
  | { type: 'done'; id: number; code: number; json: string }
  | { type: 'failed'; id: number; message: string };

/**
 * The one certificate of a CA store that trusts nothing: self-signed, its key thrown away when it
 * was made, so nothing chains to it. pact-core 20 refuses a store without any ("builder error").
 */
const TRUST_NOTHING_CERTIFICATE = `-----BEGIN CERTIFICATE-----
MIIBljCCAT2gAwIBAgIUQ/KjxuOOc0POxpYqcfoue7Wq9xowCgYIKoZIzj0EAwIw
IDEeMBwGA1UEAwwVcHJpbnQtY29udHJhY3RzIG5vIENBMCAXDTI2MTEyODIwMDE1
MFoYDzIxMjYxMTA0MjAwMTUwWjAgMR4wHAYDVQQDDBVwcmludC1jb250cmFjdHMg
bm8gQ0EwWTATBgcqhkjOPQIBBggqhkjOPQMBBwNCAASbZBAfixV/MbWlVFDe1Tt4
gRHgb9H4S6BEadlN4VWfOi9UMsE832QNYjjhWg0NSAHghFB1AcNcv8Q3usmmoz4w
o1MwUTAdBgNVHQ4EFgQUEPAS4wgqRDp/QyCk2b++kzkIT2YwHwYDVR0jBBgwFoAU
EPAS4wgqRDp/QyCk2b++kzkIT2YwDwYDVR0TAQH/BAUwAwEB/zAKBggqhkjOPQQD
AgNHADBEAiBuZU6AVgsUuDnsLfvB57Eig5Moa1Qedas0gy/YTQ6iewIgTJuubj8b
78uvnAOJ51+LCRI1mG75y0mM6LxscBSC26U=
-----END CERTIFICATE-----
`;

const WORKER = fileURLToPath(new URL('./pact-worker.cjs', import.meta.url));
const STDERR_TAIL = 4_000;

/** What Pact's process may see of the environment to run and reach a broker: no credential. */
const PASS_THROUGH = [
  ...['PATH', 'HOME', 'TMPDIR', 'TEMP', 'TMP', 'SYSTEMROOT', 'LANG', 'LC_ALL'],
  ...['SSL_CERT_FILE', 'SSL_CERT_DIR', 'NODE_EXTRA_CA_CERTS'],
  ...['HTTP_PROXY', 'HTTPS_PROXY', 'NO_PROXY', 'http_proxy', 'https_proxy', 'no_proxy'],
];

/**
 * Runs Pact's native verifier (pact-core's FFI) in a child process (`pact-worker.cjs`), jobs
 * concurrently. The child never sees a credential: the proxy holds them.
 */
export class PactRunner {
  readonly #child: ChildProcess;
  readonly #ready: Promise<void>;
  /** Each job sent, by id, until it is settled. */
  readonly #pending = new Map<
    number,
    { resolve: (outcome: VerifyOutcome) => void; reject: (error: Error) => void }
  >();
  #next = 0;
  #stderr = '';
  #exited: ReplayError | undefined;

  constructor(env: Readonly<Record<string, string | undefined>> = process.env) {
    const passed = PASS_THROUGH.filter((name) => env[name] !== undefined).map((name) => [name, env[name]]);
    this.#child = fork(WORKER, [], {
      stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
      env: { PACT_DO_NOT_TRACK: 'true', LOG_LEVEL: 'error', ...Object.fromEntries(passed) },
      execArgv: [],
    });
    // A failed send is reported to its job; nothing else of the channel may crash the run.
    this.#child.on('error', () => undefined);
    // Pact prints its own report to stdout; the run reports from the JSON result instead.
    this.#child.stdout?.resume();
    this.#child.stderr?.setEncoding('utf8');
    this.#child.stderr?.on('data', (chunk: string) => {
      this.#stderr = (this.#stderr + chunk).slice(-STDERR_TAIL);
    });
    this.#ready = new Promise<void>((resolve, reject) => {
      this.#child.on('message', (message: WorkerMessage) => {
        if (message.type === 'ready') return resolve();
        const job = this.#pending.get(message.id);
        this.#pending.delete(message.id);
        if (message.type === 'done') job?.resolve(message);
        else job?.reject(new ReplayError(`Pact's verifier could not run: ${message.message}`));
      });
      this.#child.once('exit', (code, signal) => {
        const how = signal ?? `exit code ${code}`;
        reject(new ReplayError(`Pact's verifier could not start: it ended before it was ready (${how})`));
        const tail = this.#stderr.trim().split('\n').slice(-3).join(' | ');
        const exited = new ReplayError(
          `Pact's verifier process ended unexpectedly (${how})${tail ? `: ${tail}` : ''}`,
        );
        this.#exited = exited;
        for (const job of this.#pending.values()) job.reject(exited);
        this.#pending.clear();
      });
    });
    this.#ready.catch(() => undefined);
  }

  /** Runs one job; rejects with `ReplayError` when the verifier could not run at all. */
  async verify(job: VerifyJob): Promise<VerifyOutcome> {
    await this.#ready;
    if (this.#exited) throw this.#exited;
    const id = ++this.#next;
    return new Promise<VerifyOutcome>((resolve, reject) => {
      this.#pending.set(id, { resolve, reject });
      // Stopped on an interrupt, the child takes no more jobs: the send fails (EPIPE), the job ends.
      this.#child.send({ type: 'verify', id, job }, (error) => {
        if (!error) return;
        this.#pending.delete(id);
        reject(new ReplayError(`Pact's verifier took no job: ${error.message}`));
      });
    });
  }

  /** Ends the child at once (also mid-replay, on an interrupt). */
  stop(): void {
    if (this.#child.exitCode === null && this.#child.signalCode === null) this.#child.kill('SIGKILL');
  }

  /** Prepares in `dir` the CA store of `VerifyJob.trustNothing`. */
  static trustNothingCaStore(dir: string) {
    const folder = join(dir, 'trust-nothing-ca');
    mkdirSync(folder, { recursive: true });
    const file = join(dir, 'trust-nothing-ca.pem');
    writeFileSync(file, TRUST_NOTHING_CERTIFICATE);
    return { file, dir: folder };
  }
}
