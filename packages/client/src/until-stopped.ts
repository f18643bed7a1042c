/**
 * How the kit's long-running commands (`pnpm sample-api`, `pnpm stub`, `pnpm verify`, the broker
 * commands) learn they must stop. It imports nothing, so a command's entry file can load it first,
 * as `@print-contracts/client/stop`, before the rest of the command takes its few hundred ms.
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
  /** The parent's process id when the process began (`earlyStop`); default the one now. */
  readonly parent?: number;
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
  const parent = sources.parent ?? parentPid();
  // A parent id of 0 or 1 is no parent to watch: the process already belongs to init.
  const gone = () => {
    if (parentPid() !== parent) resolve('parent exited');
  };
  const timer = parent > 1 ? setInterval(gone, sources.pollMs ?? 500) : undefined;
  timer?.unref();
  // A parent gone while the command loaded is seen at once.
  if (parent > 1) gone();
  return {
    stopped,
    dispose() {
      clearInterval(timer);
      for (const [signal, listener] of listeners) signals.off(signal, listener);
    },
  };
}

/**
 * For a command's entry file, before it loads anything else (a few hundred ms, during which a
 * signal would kill the process and a parent gone would go unseen): takes SIGINT, SIGTERM and
 * SIGHUP, and notes the parent. What it answers goes to `untilStopped`: the first signal, even one
 * that came while the command loaded, stops it as soon as it listens; later ones are ignored here
 * to the end, so none can kill the process while it exits. A reader that has gone (its parent
 * killed, `| head`) fails no write.
 */
export function earlyStop(): Required<Pick<StopSources, 'signals' | 'parent'>> {
  const parent = process.ppid;
  let received: StopSignal | undefined;
  for (const signal of STOP_SIGNALS) {
    process.on(signal, () => {
      received ??= signal;
    });
  }
  for (const stream of [process.stdout, process.stderr]) {
    stream.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code !== 'EPIPE') throw error;
    });
  }
  return {
    parent,
    signals: {
      on(signal, listener) {
        process.on(signal, listener);
        if (signal === received) listener();
      },
      off: (signal, listener) => process.off(signal, listener),
    },
  };
}
