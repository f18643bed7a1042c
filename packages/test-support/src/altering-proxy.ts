import {
  createServer,
  request as httpRequest,
  type IncomingHttpHeaders,
  type ServerResponse,
} from 'node:http';
import { buffer } from 'node:stream/consumers';
import { listen } from './loopback.js';

/** A request on its way to the target, as an alteration may rewrite it. */
export interface ProxiedRequest {
  readonly method: string;
  /** Path and query, as sent (`/api/orders?limit=5`). */
  readonly path: string;
  readonly headers: IncomingHttpHeaders;
  readonly body: Buffer;
}

/** The target's answer, as an alteration may rewrite it. */
export interface ProxiedAnswer {
  readonly status: number;
  readonly headers: IncomingHttpHeaders;
  readonly body: Buffer;
}

/**
 * What a stand-in changes about the target it fronts. Each hook returns the replacement, or
 * undefined to leave the message as it is. `answer` may skip the target: return an answer
 * from `request` with `reply`. `lose` closes the connection without an answer, `before` the
 * request reaches the target or `after` the target answered it (done, but the caller never hears);
 * `silent-before` and `silent-after` hold it open instead, answering nothing until the caller
 * gives up (or the proxy closes); `trickle-after` sends the answer's status, headers and first
 * byte, then a space every half second, never the end.
 */
export interface Alteration {
  request?(request: ProxiedRequest): ProxiedRequest | { reply: ProxiedAnswer } | undefined;
  response?(answer: ProxiedAnswer, request: ProxiedRequest): ProxiedAnswer | undefined;
  lose?(request: ProxiedRequest): LostAnswer | undefined;
}

/** How an answer is lost: the connection closed, or held open in silence; before the target got the request, or after it answered. */
export type LostAnswer = 'before' | 'after' | 'silent-before' | 'silent-after' | 'trickle-after';

/** How often a trickled answer sends its next byte. */
const TRICKLE_MS = 500;

/** `answer`'s status, headers and first byte, then a space every `TRICKLE_MS`, until the caller leaves. */
function trickle(outgoing: ServerResponse, answer: ProxiedAnswer) {
  outgoing.writeHead(answer.status, withoutHopByHop(answer.headers));
  outgoing.write(answer.body.subarray(0, 1));
  const timer = setInterval(() => outgoing.write(' '), TRICKLE_MS);
  outgoing.on('close', () => clearInterval(timer));
}

export interface AlteringProxy {
  /** `http://127.0.0.1:PORT`: put `/api` after it for a base URL. */
  readonly origin: string;
  /** Requests seen, in order (after the request hook). */
  readonly seen: ProxiedRequest[];
  close(): Promise<void>;
}

const HOP_BY_HOP = ['connection', 'keep-alive', 'transfer-encoding', 'content-length', 'host'];

function withoutHopByHop(headers: IncomingHttpHeaders): IncomingHttpHeaders {
  const kept = { ...headers };
  for (const name of HOP_BY_HOP) delete kept[name];
  return kept;
}

/**
 * A stand-in of the vendor for tests: a loopback proxy in front of `targetOrigin` (the sample
 * API, say) that rewrites requests or answers as `alteration` says. Every path is forwarded,
 * the control surface too. Listens on an ephemeral port.
 */
export async function startAlteringProxy(
  targetOrigin: string,
  alteration: Alteration,
): Promise<AlteringProxy> {
  const target = new URL(targetOrigin);
  const seen: ProxiedRequest[] = [];
  const server = createServer(async (incoming, outgoing) => {
    const original: ProxiedRequest = {
      method: incoming.method ?? 'GET',
      path: incoming.url ?? '/',
      headers: incoming.headers,
      body: await buffer(incoming),
    };
    const altered = alteration.request?.(original) ?? original;
    const answer = (reply: ProxiedAnswer) => {
      outgoing.writeHead(reply.status, {
        ...withoutHopByHop(reply.headers),
        'content-length': String(reply.body.length),
      });
      outgoing.end(reply.body);
    };
    if ('reply' in altered) {
      seen.push(original);
      answer(altered.reply);
      return;
    }
    seen.push(altered);
    const lose = alteration.lose?.(altered);
    if (lose === 'before') return void outgoing.destroy();
    if (lose === 'silent-before') return;
    const forwarded = httpRequest(
      {
        host: target.hostname,
        port: target.port,
        method: altered.method,
        path: altered.path,
        headers: { ...withoutHopByHop(altered.headers), 'content-length': String(altered.body.length) },
      },
      async (response) => {
        const got: ProxiedAnswer = {
          status: response.statusCode ?? 502,
          headers: response.headers,
          body: await buffer(response),
        };
        if (lose === 'after') outgoing.destroy();
        else if (lose === 'trickle-after') trickle(outgoing, got);
        else if (lose !== 'silent-after') answer(alteration.response?.(got, altered) ?? got);
      },
    );
    forwarded.on('error', () => outgoing.destroy());
    forwarded.end(altered.body);
  });
  const { url, close } = await listen(server);
  return { origin: url, seen, close };
}

/** A JSON answer's body, changed by `edit`; a body that is not JSON is left as it is. */
export function editJson(answer: ProxiedAnswer, edit: (json: unknown) => unknown): ProxiedAnswer {
  let json: unknown;
  try {
    json = JSON.parse(answer.body.toString('utf8'));
  } catch {
    return answer;
  }
  return { ...answer, body: Buffer.from(JSON.stringify(edit(json))) };
}
