import { connect } from 'node:net';
import { describeTransportFailure } from '@print-contracts/client';

/**
 * Opens (and closes) a connection to the broker's host and port before the Pact CLI starts,
 * which takes seconds to boot and then retries a refused connection until the bound. Resolves
 * with why the broker cannot be reached (refused, no such host), or `undefined` once it
 * accepts a connection or when `timeoutMs` or `signal` ends the wait (the caller says which).
 */
export function brokerUnreachable(
  brokerUrl: string,
  timeoutMs: number,
  signal?: AbortSignal,
): Promise<string | undefined> {
  const url = new URL(brokerUrl);
  const port = Number(url.port) || (url.protocol === 'https:' ? 443 : 80);
  const host = url.hostname.replace(/^\[|\]$/g, '');
  return new Promise((resolve) => {
    const socket = connect({ host, port });
    const done = (reason: string | undefined) => {
      clearTimeout(bound);
      signal?.removeEventListener('abort', onAbort);
      socket.destroy();
      resolve(reason);
    };
    const onAbort = () => done(undefined);
    const bound = setTimeout(() => done(undefined), timeoutMs);
    signal?.addEventListener('abort', onAbort, { once: true });
    socket.once('connect', () => done(undefined));
    socket.once('error', (error) => done(describeTransportFailure(error).replace('the target', 'it')));
  });
}
