import type { ChildProcess } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ReplayError } from '../errors/replay-error.js';
import { type PactWorker, startPactWorker } from './pact-worker-process.js';

/** One run of Pact's verifier over some pact sources, against one loopback proxy. */
export interface VerifyJob {
  readonly provider: string;
  readonly host: string;
  readonly port: number;
  readonly basePath: string;
  readonly stateUrl: string;
  readonly timeoutMs: number;
  readonly files?: readonly string[];
  readonly urls?: readonly string[];
  readonly brokerAuth?: { readonly token?: string; readonly username?: string; readonly password?: string };
  /** A regular expression on descriptions: Pact replays only the interactions it matches. */
  readonly filterDescription?: string;
  /**
   * An empty CA store (a file and a folder) for the native core, when it talks only to
   * loopback servers: it then skips loading the system's CA store for every HTTP client it
   * builds, the slowest part of a replay. Left out when it fetches from a broker.
   */
  readonly emptyCaStore?: { readonly file: string; readonly dir: string };
  readonly publish?: {
    readonly providerVersion: string;
    readonly branch?: string;
    readonly buildUrl?: string;
    readonly tags?: readonly string[];
  };
  readonly appVersion: string;
}

/** What Pact's verifier answered: its exit code (0 passed, 1 failed) and its JSON result. */
export interface VerifyOutcome {
  readonly code: number;
  readonly json: string;
}

type WorkerMessage =
  | { type: 'ready' }
  | { type: 'done'; id: number; code: number; json: string }
  | { type: 'failed'; id: number; message: string };

const STDERR_TAIL = 4_000;

/**
 * Runs Pact's native verifier (pact-core's FFI, as `@pact-foundation/pact` ships it) in a
 * child process, started as early as possible so its start-up overlaps the parent's. Jobs
 * run concurrently inside it. The child never sees a credential: the proxy holds them, and
 * its environment is an allowlist.
 */
export class PactRunner {
  readonly #child: ChildProcess;
  readonly #ready: Promise<void>;
  readonly #pending = new Map<
    number,
    { resolve: (outcome: VerifyOutcome) => void; reject: (error: Error) => void }
  >();
  #next = 0;
  #stderr = '';
  #exited: ReplayError | undefined;

  /** Takes over a worker started early (see `startPactWorker`), or starts one. */
  constructor(worker: PactWorker = startPactWorker()) {
    this.#child = worker.child;
    this.#child.ref();
    this.#child.channel?.ref();
    this.#child.stderr?.setEncoding('utf8');
    this.#child.stderr?.on('data', (chunk: string) => {
      this.#stderr = (this.#stderr + chunk).slice(-STDERR_TAIL);
    });
    this.#child.on('message', (message: WorkerMessage) => {
      if (message.type !== 'ready') this.#settle(message);
    });
    void worker.exited.then(({ code, signal }) => {
      const tail = this.#stderr.trim().split('\n').slice(-3).join(' | ');
      this.#exited = new ReplayError(
        `Pact's verifier process ended unexpectedly (${signal ?? `exit code ${code}`})${tail ? `: ${tail}` : ''}`,
      );
      for (const pending of this.#pending.values()) pending.reject(this.#exited);
      this.#pending.clear();
    });
    this.#ready = worker.ready.catch((error: Error) => {
      throw new ReplayError(`Pact's verifier could not start: ${error.message}`);
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
      this.#child.send({ type: 'verify', id, job });
    });
  }

  /** Ends the child at once (also mid-replay, on an interrupt). */
  stop(): void {
    if (this.#child.exitCode === null && this.#child.signalCode === null) this.#child.kill('SIGKILL');
  }

  /** Prepares an empty CA store in `dir` for `VerifyJob.emptyCaStore`. */
  static emptyCaStore(dir: string): { file: string; dir: string } {
    const folder = join(dir, 'no-ca-certs');
    mkdirSync(folder, { recursive: true });
    const file = join(dir, 'no-ca-certs.pem');
    writeFileSync(file, '');
    return { file, dir: folder };
  }

  #settle(message: Exclude<WorkerMessage, { type: 'ready' }>): void {
    const pending = this.#pending.get(message.id);
    if (!pending) return;
    this.#pending.delete(message.id);
    if (message.type === 'done') pending.resolve({ code: message.code, json: message.json });
    else pending.reject(new ReplayError(`Pact's verifier could not run: ${message.message}`));
  }
}
