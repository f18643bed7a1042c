import type { IncomingMessage } from 'node:http';
import { API_BASE_PATH, REFERENCE_MAX_LENGTH, SECRET_HEADER, USER_ID_HEADER } from '@print-contracts/client';
import type { Ledger } from '../../ledger/ledger.js';
import { routeRequest } from '../../plan/request-path.js';
import type { Target } from '../../target/target.js';

/** Headers that describe one connection, not the message: never forwarded. */
export const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-authenticate',
  'proxy-authorization',
  'proxy-connection',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
  'host',
  'content-length',
]);

export interface FilterContext {
  readonly target: Target;
  readonly ledger: Ledger;
  /** Order ids the run proved do not exist (`no order exists with id …`): safe to address. */
  readonly missing: ReadonlySet<string>;
}

/** Refuse the request (nothing is sent), or forward it as rewritten. */
export type Filtered =
  | { readonly kind: 'refuse'; readonly status: number; readonly reason: string }
  | {
      readonly kind: 'forward';
      readonly method: string;
      /** Path and query on the target, below its origin. */
      readonly path: string;
      readonly headers: Record<string, string | string[]>;
      readonly body: Buffer | undefined;
      /** The target would route it as a create: it is ledgered before it is sent. */
      readonly creates: boolean;
      /** `real`: the contract's placeholders were swapped for the real credentials. */
      readonly credentials: 'real' | 'refused';
    };

/** The body as JSON; `undefined` when empty, the text itself when it is not JSON. */
export function parseBody(body: Buffer | string): unknown {
  if (body.length === 0) return undefined;
  const text = body.toString();
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

/**
 * Judges the request the target will route (path normalised), never the pact's spelling; swaps the
 * placeholder credentials for the real ones (no secret passes through Pact), maps `/api` onto the
 * target's base path, and stamps the run's reference on creates (for `--cleanup`) unless an over-long
 * reference is the point of the interaction.
 */
export function filterRequest(
  request: Pick<IncomingMessage, 'method' | 'url' | 'headers'>,
  sentBody: Buffer,
  context: FilterContext,
): Filtered {
  const method = (request.method ?? 'GET').toUpperCase();
  const [rawPath = '/', query] = (request.url ?? '/').split(/\?(.*)/s, 2);
  const parsed = parseBody(sentBody);
  const { ledger, missing, target } = context;
  const live = target.mode === 'live';
  const { below, creates, changes, credentials, refusal } = routeRequest(
    {
      method,
      path: rawPath,
      body: parsed,
      headers: request.headers,
      queryKeys: query === undefined ? [] : [...new URLSearchParams(query).keys()],
    },
    live ? { owns: (ref) => ref !== undefined && (ledger.owns(ref) || missing.has(ref)) } : undefined,
  );
  if (below === undefined) {
    return {
      kind: 'refuse',
      status: 404,
      reason: `${rawPath} lies outside the API base path ${API_BASE_PATH}`,
    };
  }
  if (refusal) return { kind: 'refuse', status: 403, reason: refusal };
  let body = sentBody.length > 0 ? sentBody : undefined;
  // A live change goes out as the JSON it was judged by: no duplicate key or escape left to read otherwise.
  if (live && changes && parsed !== undefined) body = Buffer.from(JSON.stringify(parsed), 'utf8');
  if (creates && parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed)) {
    const { reference } = parsed as { reference?: unknown };
    if (!(typeof reference === 'string' && reference.length > REFERENCE_MAX_LENGTH)) {
      body = Buffer.from(JSON.stringify({ ...parsed, reference: ledger.reference }), 'utf8');
    }
  }

  const headers = Object.fromEntries(
    Object.entries(request.headers).filter(
      ([name, value]) => value !== undefined && !HOP_BY_HOP.has(name) && name !== 'accept-encoding',
    ),
  ) as Record<string, string | string[]>;
  if (credentials === 'real') {
    headers[USER_ID_HEADER.toLowerCase()] = target.credentials.main.userId;
    headers[SECRET_HEADER.toLowerCase()] = target.credentials.main.secret;
  }
  const basePath = new URL(target.baseUrl).pathname.replace(/\/+$/, '');
  // A live change goes to the order as judged; anything else as the pact spells it.
  const rawBelow =
    !(live && changes) && rawPath.startsWith(`${API_BASE_PATH}/`)
      ? rawPath.slice(API_BASE_PATH.length)
      : below;
  return {
    kind: 'forward',
    method,
    path: `${basePath}${rawBelow === '/' ? '' : rawBelow}${query !== undefined ? `?${query}` : ''}`,
    headers,
    body,
    creates,
    credentials,
  };
}
