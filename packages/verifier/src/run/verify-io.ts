import type { PactWorker } from '../replay/pact-worker-process.js';
import type { TextSink } from '../report/console-reporter.js';

/** What a run talks to: the console, the environment, the working directory, and an interrupt. */
export interface VerifyIo {
  readonly stdout: TextSink;
  readonly stderr: TextSink;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly cwd: string;
  /** Aborted on an interrupt (SIGINT): the run stops replaying, tears down, and exits 130. */
  readonly signal?: AbortSignal;
  /** Pact's worker process, when the command line started it early; else the run starts one. */
  readonly pactWorker?: PactWorker;
}

/** Exit status of a run stopped by an interrupt, as shells report SIGINT. */
export const EXIT_INTERRUPTED = 130;
