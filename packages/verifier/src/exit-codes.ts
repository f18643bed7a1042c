/**
 * Exit statuses of `pnpm verify` (and `--cleanup`). When several apply, the first in this
 * order wins: a signal, a run that could not start, a broken contract, an unavailable target.
 */
export const EXIT_CODES = {
  /** Every verifiable interaction passed (for `--cleanup`: nothing is left open). */
  passed: 0,
  /**
   * A contract broke; against a baseline, an interaction regressed (an unavailable target too); with
   * `--strict`, one was not verifiable; with `--fail-on-drift`, drift was found. For `--cleanup`: orders remain.
   */
  failed: 1,
  /** Bad flags or files, an unreadable pact, an unreachable or untrusted target; or the verifier broke mid-run. */
  notStarted: 2,
  /** The target stopped answering mid-run (429, 503, a gateway's 502 or 504, the network, after retries); no contract broke. */
  targetUnavailable: 3,
  /** Stopped by SIGINT (Ctrl-C) or SIGTERM (a cancelled CI job), after tearing down what it created. */
  interrupted: 130,
  terminated: 143,
} as const;

export type ExitCode = (typeof EXIT_CODES)[keyof typeof EXIT_CODES];

/** The signals a run stops on, and the status each one ends it with. */
export const SIGNAL_EXIT_CODES = { SIGINT: EXIT_CODES.interrupted, SIGTERM: EXIT_CODES.terminated } as const;
export type StopSignal = keyof typeof SIGNAL_EXIT_CODES;

/** What a stop counts as: SIGINT is Ctrl-C; SIGTERM, SIGHUP and the end of the parent end it as SIGTERM. */
export const stopSignalOf = (reason: unknown): StopSignal => (reason === 'SIGINT' ? 'SIGINT' : 'SIGTERM');
