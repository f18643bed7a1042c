import { createServer, request as forward, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SECRET_HEADER, USER_ID_HEADER } from '@print-contracts/client';

/** A loopback proxy that is listening, and how to stop it. */
export interface RunningProxy {
  /** `http://127.0.0.1:{port}`, no trailing slash. */
  readonly url: string;
  close(): Promise<void>;
}

const CREDENTIAL_HEADERS = new Set([USER_ID_HEADER.toLowerCase(), SECRET_HEADER.toLowerCase()]);

function withoutCredentials(headers: IncomingHttpHeaders): IncomingHttpHeaders {
  return Object.fromEntries(Object.entries(headers).filter(([name]) => !CREDENTIAL_HEADERS.has(name)));
}

/**
 * Forwards every request to `target` without its credential headers. The client always sends
 * its credentials (it refuses to start without them), so the "no credentials" interactions
 * let a real request lose them on the way, as a misconfigured gateway would, instead of
 * faking the client.
 */
export async function startCredentialStrippingProxy(target: string): Promise<RunningProxy> {
  const upstream = new URL(target);
  const server = createServer((incoming, outgoing) => {
    const headers = { ...withoutCredentials(incoming.headers), host: upstream.host };
    const proxied = forward(
      {
        host: upstream.hostname,
        port: upstream.port,
        method: incoming.method,
        path: incoming.url,
        headers,
      },
      (answer) => {
        outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(outgoing);
      },
    );
    proxied.on('error', () => {
      outgoing.writeHead(502).end();
    });
    incoming.pipe(proxied);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}
