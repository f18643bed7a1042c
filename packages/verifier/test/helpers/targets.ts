import { readFileSync } from 'node:fs';
import {
  createServer as createHttpServer,
  type Server as HttpServer,
  type IncomingMessage,
  type ServerResponse,
} from 'node:http';
import { createServer as createHttpsServer, type Server as HttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import {
  type CredentialSet,
  type FaultRule,
  type SampleApi,
  startSampleApi,
} from '@print-contracts/sample-api';
import { request } from 'undici';

export const TLS_CERT = fileURLToPath(new URL('../fixtures/tls/loopback-cert.pem', import.meta.url));
const TLS_KEY = fileURLToPath(new URL('../fixtures/tls/loopback-key.pem', import.meta.url));

/** A sample API for one test file: no seed orders, so every order in it was made by the run. */
export function sampleTarget(
  options: {
    credentials?: CredentialSet[];
    processingDelayMs?: number;
    control?: boolean;
    faults?: readonly FaultRule[];
  } = {},
) {
  return startSampleApi({ seedOrders: false, processingDelayMs: 10, control: true, ...options });
}

/** Environment naming the sample API's two demo credential sets, as a URL target needs. */
export function credentialEnv(api: SampleApi): Record<string, string> {
  const [main, other] = api.credentials;
  return {
    PRINT_API_USER_ID: main?.userId ?? '',
    PRINT_API_SECRET: main?.secret ?? '',
    ...(other ? { PRINT_API_OTHER_USER_ID: other.userId, PRINT_API_OTHER_SECRET: other.secret } : {}),
  };
}

/** A live release gate's environment: the main credential set only, the loopback TLS certificate trusted. */
export function liveEnv(api: SampleApi): Record<string, string> {
  return {
    ...credentialEnv(api),
    PRINT_API_OTHER_USER_ID: '',
    PRINT_API_OTHER_SECRET: '',
    NODE_EXTRA_CA_CERTS: TLS_CERT,
  };
}

type Server = HttpServer | HttpsServer;

async function listen(server: Server): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

const close = (server: Server) =>
  new Promise<void>((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });

/** A bare node:http target that answers every request with the same status and JSON body. */
export async function fixedTarget(status: number, body: (req: IncomingMessage) => unknown) {
  const server = createHttpServer((req, res) => {
    req.resume();
    req.on('end', () => {
      const text = JSON.stringify(body(req));
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(text);
    });
  });
  const port = await listen(server);
  return { url: `http://127.0.0.1:${port}/api`, close: () => close(server) };
}

/** One request a front saw. */
export interface Seen {
  readonly method: string;
  readonly path: string;
  readonly headers: IncomingMessage['headers'];
  readonly body: string;
}

/** What a front may do with a request instead of forwarding it: answer it itself. */
export type FrontAnswer =
  | {
      status: number;
      headers?: Record<string, string>;
      body?: unknown;
      /** Send the body's first byte, then a space every this many ms, never the end: a trickle. */
      trickleMs?: number;
    }
  | undefined;

/**
 * A front on loopback for a target (the sample API): it records every request, and either
 * answers it itself (`answer`) or forwards it, adding `headers(req)` to the answer. A stand-in
 * for a vendor that misbehaves in one way, over a simulator that behaves. With `tls`, it
 * speaks HTTPS with a self-signed certificate (see fixtures/tls).
 */
export async function front(
  origin: string,
  hooks: {
    answer?: (seen: Seen) => FrontAnswer;
    headers?: (seen: Seen) => Record<string, string>;
    /** Hold the target's answer back this long before passing it on (the request was processed). */
    holdMs?: (seen: Seen) => number;
    /** Close the connection without an answer, `before` forwarding the request or `after` the target answered it. */
    lose?: (seen: Seen) => 'before' | 'after' | undefined;
  } = {},
  options: { tls?: boolean } = {},
) {
  const requests: Seen[] = [];
  const handle = (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', async () => {
      const body = Buffer.concat(chunks);
      const seen: Seen = {
        method: req.method ?? 'GET',
        path: req.url ?? '/',
        headers: req.headers,
        body: body.toString('utf8'),
      };
      requests.push(seen);
      const own = hooks.answer?.(seen);
      if (own) {
        const text = own.body === undefined ? '' : JSON.stringify(own.body);
        res.writeHead(own.status, { 'content-type': 'application/json', ...own.headers });
        if (own.trickleMs === undefined) return void res.end(text);
        res.write(text.slice(0, 1));
        const trickle = setInterval(() => res.write(' '), own.trickleMs);
        res.on('close', () => clearInterval(trickle));
        return;
      }
      const lose = hooks.lose?.(seen);
      if (lose === 'before') return void res.destroy();
      const headers = { ...req.headers };
      delete headers.host;
      delete headers.connection;
      try {
        const answer = await request(`${origin}${req.url}`, {
          method: (req.method ?? 'GET') as 'GET',
          headers,
          body: body.length > 0 ? body : undefined,
        });
        const text = await answer.body.text();
        const hold = hooks.holdMs?.(seen) ?? 0;
        if (hold > 0) await new Promise((resolve) => setTimeout(resolve, hold));
        if (res.destroyed || lose === 'after') return void res.destroy();
        res.writeHead(answer.statusCode, {
          'content-type': String(answer.headers['content-type'] ?? 'application/json'),
          ...(answer.headers['retry-after'] ? { 'retry-after': String(answer.headers['retry-after']) } : {}),
          ...hooks.headers?.(seen),
        });
        res.end(text);
      } catch {
        res.destroy();
      }
    });
  };
  const server = options.tls
    ? createHttpsServer({ cert: readFileSync(TLS_CERT), key: readFileSync(TLS_KEY) }, handle)
    : createHttpServer(handle);
  const port = await listen(server);
  return {
    url: `${options.tls ? 'https' : 'http'}://127.0.0.1:${port}/api`,
    requests,
    /** Stops taking connections: the target is gone. */
    close: () => close(server),
  };
}

/** The flags of a run against a URL target, as a user would type them. */
export function verifyArgs(run: {
  baseUrl: string;
  mode: 'sample' | 'live';
  control?: boolean;
  pact: string;
  reports: string;
  extra?: readonly string[];
}): string[] {
  return [
    ...['--base-url', run.baseUrl, '--mode', run.mode],
    ...(run.control ? ['--control'] : []),
    ...['--pact', run.pact, '--report-dir', run.reports],
    ...(run.extra ?? []),
  ];
}
