import { setMaxListeners } from 'node:events';

/**
 * A signal that follows `parent` (if any) and may have any number of listeners: every
 * pending request and poll of a run listens on one signal, which Node would otherwise warn
 * about past ten.
 */
export function manySignal(parent?: AbortSignal): AbortSignal {
  const controller = new AbortController();
  setMaxListeners(0, controller.signal);
  if (parent) {
    if (parent.aborted) controller.abort(parent.reason);
    else parent.addEventListener('abort', () => controller.abort(parent.reason), { once: true });
  }
  return controller.signal;
}
