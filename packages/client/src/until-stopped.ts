/**
 * How the kit's long-running commands (`pnpm sample-api`, `pnpm stub`, `pnpm verify`) learn
 * they must stop. Pact-free and dependency-free, so every package can import it as
 * `@print-contracts/client`.
 */

/** What ended a long-running command. */
export type StopReason = 'SIGINT' | 'SIGTERM' | 'SIGHUP' | 'parent exited';

type StopSignal = Exclude<StopReason, 'parent exited'>;
export const STOP_SIGNALS: readonly StopSignal[] = ['SIGINT', 'SIGTERM', 'SIGHUP'];

/** Where stop requests come from; tests pass their own. */
export interface StopSources {
  /** Emits the stop signals; default `process`. */
  readonly signals?: {
    on(event: StopSignal, listener: () => void): unknown;
    off(event: StopSignal, listener: () => void): unknown;
  };
  /** The parent's process id now; default `process.ppid`. */
  readonly parentPid?: () => number;
  /** How often the parent is looked at; default 500 ms. */
  readonly pollMs?: number;
}

export interface StopWatch {
  /** Resolves with the first stop request. */
  readonly stopped: Promise<StopReason>;
  /** Stops listening. Until then, repeated signals are swallowed so that a shutdown is never cut short. */
  dispose(): void;
}

/**
 * Waits for SIGINT, SIGTERM or SIGHUP, or for the parent process to go (the process is then
 * adopted by another, so its parent id changes: `pnpm` killed with SIGKILL, a CI step torn
 * down). Signals stay handled until `dispose()`, so one sent to the whole process group and
 * forwarded again by `pnpm` stops the command once, cleanly.
 */
export function untilStopped(sources: StopSources = {}): StopWatch {
  const signals = sources.signals ?? process;
  const parentPid = sources.parentPid ?? (() => process.ppid);
  let resolve: (reason: StopReason) => void = () => {};
  const stopped = new Promise<StopReason>((done) => {
    resolve = done;
  });
  const listeners = STOP_SIGNALS.map((signal) => {
    const listener = () => resolve(signal);
    signals.on(signal, listener);
    return [signal, listener] as const;
  });
  const parent = parentPid();
  // A parent id of 0 or 1 is no parent to watch: the process already belongs to init.
  const timer =
    parent > 1
      ? setInterval(() => {
          if (parentPid() !== parent) resolve('parent exited');
        }, sources.pollMs ?? 500)
      : undefined;
  timer?.unref();
  return {
    stopped,
    dispose() {
      clearInterval(timer);
      for (const [signal, listener] of listeners) signals.off(signal, listener);
    },
  };
}
