import {
  Agent,
  createServer,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type OutgoingHttpHeaders,
  request,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';
import { buffer } from 'node:stream/consumers';
import { bodyDifferences, headerMismatches, nearestBodyDifference } from './request-difference.js';
import { type StubRoute, statesSelector } from './stub-guide.js';

/**
 * Where several interactions fit one request (an order that exists, or one in production, on
 * the same path), the request picks by naming a provider state in this header: a state's name
 * as written in the contracts, or a regular expression over the names (the official stub
 * server's own meaning of the header).
 */
export const STUB_STATE_HEADER = 'X-Provider-State';

/** Response headers naming the interaction that answered, and its pact's provider. */
export const INTERACTION_HEADER = 'X-Pact-Interaction';
export const PROVIDER_HEADER = 'X-Pact-Provider';

/**
 * What `pnpm stub` answers when no interaction fits the request: a status no contract uses,
 * with a JSON message, so it is never mistaken for one of the vendor's answers (the official
 * stub server answers 404 with no body).
 */
export const NO_INTERACTION_STATUS = 501;

/**
 * Response header by which the Pact stub server tells the front which interaction it chose.
 * Internal: the front removes it and names the interaction in `X-Pact-Interaction` instead.
 */
export const CHOSEN_HEADER = 'x-print-contracts-chosen';

const BODY_LIMIT_BYTES = 1024 * 1024;
/** Headers of one hop only; everything else travels as sent. */
const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'transfer-encoding',
  'upgrade',
  'te',
  'trailer',
  'host',
  'content-length',
]);

class Refusal extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

function answer(res: ServerResponse, status: number, message: string): void {
  if (res.headersSent || res.destroyed) return;
  const body = JSON.stringify({ message });
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(body),
  });
  res.end(body);
}

function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > BODY_LIMIT_BYTES) {
        req.removeAllListeners('data').resume();
        reject(new Refusal(413, `Request body over ${BODY_LIMIT_BYTES} bytes`));
      } else chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

/** `headers` without the hop-by-hop ones and `drop`. */
function passed(headers: IncomingHttpHeaders, drop: string): OutgoingHttpHeaders {
  return Object.fromEntries(
    Object.entries(headers).filter(([name]) => !HOP_BY_HOP.has(name) && name !== drop),
  );
}

/** The state header as the official stub server reads it: a regex; a state's exact name becomes one. */
function selector(value: string | string[] | undefined, states: ReadonlySet<string>): string | undefined {
  if (value === undefined) return undefined;
  const text = (Array.isArray(value) ? value.join(',') : value).trim();
  if (states.has(text)) return statesSelector([text]);
  try {
    new RegExp(text);
  } catch {
    throw new Refusal(
      400,
      `${STUB_STATE_HEADER} must be a provider state's name or a regular expression over state names`,
    );
  }
  return text;
}

/**
 * A loopback front on `port` before the official Pact stub server on `upstreamPort`: it passes
 * each request on, lets the stub server choose the interaction (its `routes` index comes back in
 * `CHOSEN_HEADER`), then holds the request to that interaction's headers (credentials present,
 * the version header as pinned), which the stub server does not. It answers the chosen
 * interaction's response, naming it in `X-Pact-Interaction`, or 501 with the reason when no
 * interaction fits.
 */
export async function startStubFront(upstreamPort: number, routes: readonly StubRoute[], port: number) {
  const states = new Set(routes.flatMap((route) => route.states));
  const agent = new Agent({ keepAlive: true });
  const forward = (req: IncomingMessage, body: Buffer, state: string | undefined) => {
    const headers = passed(req.headers, STUB_STATE_HEADER.toLowerCase());
    if (state !== undefined) headers[STUB_STATE_HEADER] = state;
    if (body.length > 0) headers['content-length'] = body.length;
    return new Promise<{ status: number; headers: IncomingHttpHeaders; body: Buffer }>((resolve, reject) => {
      const target = { host: '127.0.0.1', port: upstreamPort, path: req.url };
      const out = request({ ...target, method: req.method, headers, agent }, (res) => {
        buffer(res).then(
          (body) => resolve({ status: res.statusCode ?? 502, headers: res.headers, body }),
          reject,
        );
      });
      out.on('error', () =>
        reject(
          new Refusal(
            502,
            `The Pact stub server dropped the request (is ${STUB_STATE_HEADER} a regular expression it can read?)`,
          ),
        ),
      );
      out.end(body);
    });
  };

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const named = `${req.method} ${(req.url ?? '/').slice(0, 200)}`;
    const body = await readBody(req);
    const state = req.headers[STUB_STATE_HEADER.toLowerCase()];
    const stateSelector = selector(state, states);
    const upstream = await forward(req, body, stateSelector);
    const tag = upstream.headers[CHOSEN_HEADER];
    const chosen = typeof tag === 'string' ? routes[Number(tag)] : undefined;
    if (!chosen) {
      const within = typeof state === 'string' ? ` with ${STUB_STATE_HEADER} "${state.slice(0, 200)}"` : '';
      const near = nearestBodyDifference(routes, req, body, stateSelector);
      const why = near
        ? `: the nearest, "${near.nearest.interaction.description}" (${near.nearest.provider}), differs in ${near.difference}${near.headers.length > 0 ? `, and needs: ${near.headers.join('; ')}` : ''}`
        : '';
      throw new Refusal(
        NO_INTERACTION_STATUS,
        `No interaction in the contracts matches ${named}${within}${why}`,
      );
    }
    // The Pact stub server matches no body of a DELETE (a cancel's `{reason}`): the front does.
    const reasons = [
      ...headerMismatches(chosen.interaction, req.headers),
      ...(req.method?.toUpperCase() === 'DELETE'
        ? bodyDifferences(chosen.interaction, body).slice(0, 1)
        : []),
    ];
    if (reasons.length > 0) {
      throw new Refusal(
        NO_INTERACTION_STATUS,
        `No interaction in the contracts matches ${named}: the nearest, "${chosen.interaction.description}" (${chosen.provider}), needs: ${reasons.join('; ')}`,
      );
    }
    const headers = passed(upstream.headers, CHOSEN_HEADER);
    headers[INTERACTION_HEADER] = asHeaderValue(chosen.interaction.description);
    headers[PROVIDER_HEADER] = chosen.provider;
    headers['content-length'] = upstream.body.length;
    res.writeHead(upstream.status, headers);
    res.end(upstream.body);
  };

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (error instanceof Refusal) answer(res, error.status, error.message);
      else
        answer(
          res,
          500,
          `The stub's front failed: ${error instanceof Error ? error.message : String(error)}`,
        );
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  return {
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
        agent.destroy();
      }),
  };
}

/** Header values are Latin-1; a description with other characters travels percent-encoded. */
const asHeaderValue = (text: string) => (/^[\x20-\x7e]*$/.test(text) ? text : encodeURIComponent(text));
