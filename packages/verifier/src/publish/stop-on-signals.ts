/**
 * An AbortSignal for a broker command: aborted by SIGINT or SIGTERM, with the signal's name
 * as its reason, so the command stops the Pact CLI and exits with that signal's status
 * instead of leaving the Pact CLI running.
 */
export function stopOnSignals(): AbortSignal {
  const controller = new AbortController();
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.on(signal, () => controller.abort(signal));
  }
  return controller.signal;
}
