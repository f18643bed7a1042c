import { untilStopped } from '@print-contracts/consumer-contracts/until-stopped';

/**
 * An AbortSignal for a broker command, aborted with what stopped it by the kit's one stop
 * watch (SIGINT, SIGTERM, SIGHUP, or the parent process gone), so the command stops the Pact
 * CLI it started and exits with 130 (SIGINT) or 143 instead of leaving it running.
 */
export function stopOnSignals(): AbortSignal {
  const controller = new AbortController();
  void untilStopped().stopped.then((reason) => controller.abort(reason));
  return controller.signal;
}
