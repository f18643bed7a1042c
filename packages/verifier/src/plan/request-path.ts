import {
  API_BASE_PATH,
  OPERATION_NAMES,
  type OperationName,
  operations,
  pathPattern,
  SECRET_HEADER,
  USER_ID_HEADER,
} from '@print-contracts/client';
import { PLACEHOLDER_CREDENTIALS } from '@print-contracts/client/kit';
import type { PactInteraction } from '../pacts/interaction.js';

/**
 * The path a server routes, whatever the spelling (decoded, `.`, `..` and empty segments
 * resolved, lower-case): `/API/%6Frders/` and `/api/x/../orders` name `/api/orders`. Safety
 * decisions are taken on this form, never on how a pact spells a path.
 */
export function normalisePath(raw: string): string {
  const path = raw.split('?')[0] ?? '';
  const segments: string[] = [];
  for (const segment of path.split('/')) {
    let decoded = segment;
    try {
      decoded = decodeURIComponent(segment);
    } catch {
      // A malformed escape names nothing a server would decode; keep it as sent.
    }
    if (decoded === '' || decoded === '.') continue;
    if (decoded === '..') segments.pop();
    else segments.push(decoded.toLowerCase());
  }
  return `/${segments.join('/')}`;
}

function pathBelowBase(path: string): string | undefined {
  if (path === API_BASE_PATH) return '/';
  return path.startsWith(`${API_BASE_PATH}/`) ? path.slice(API_BASE_PATH.length) : undefined;
}

const ROUTES = OPERATION_NAMES.map((name) => ({
  name,
  method: operations[name].method as string,
  pattern: pathPattern(operations[name].path, API_BASE_PATH),
}));

const routeOf = (method: string, routed: string): OperationName | undefined =>
  ROUTES.find((route) => route.method === method.toUpperCase() && route.pattern.test(routed))?.name;

const ONE_ORDER = pathPattern(operations.getOrder.path, API_BASE_PATH);

/** A request as the pact writes it or as it arrives on the wire (header names lower-case). */
type SentRequest = Pick<PactInteraction, 'method' | 'path' | 'body'> & {
  readonly headers: Readonly<Record<string, string | readonly string[] | undefined>>;
};

/**
 * How the target would take a request, judged on its path as routed: the plan judges the pact's
 * request and the proxy the one on the wire, by the same rules. `live.owns` says whether a change
 * may name the order `ref`; without `live` nothing is refused.
 */
export function routeRequest(request: SentRequest, live?: { owns: (ref: string | undefined) => boolean }) {
  const routed = normalisePath(request.path);
  const operation = routeOf(request.method, routed);
  const header = (name: string) => [request.headers[name.toLowerCase()]].flat()[0];
  const placeholders =
    header(SECRET_HEADER) === PLACEHOLDER_CREDENTIALS.secret && header(USER_ID_HEADER) !== undefined;
  return {
    /** The path below `API_BASE_PATH` (`/orders/42`), or undefined when it lies outside it. */
    below: pathBelowBase(routed),
    creates: operation === 'createOrder',
    /** `real`: it carries the placeholders (swapped for real credentials); `refused`: none or wrong ones. */
    credentials: placeholders ? ('real' as const) : ('refused' as const),
    refusal: live
      ? liveRefusal({ ...request, operation }, () => live.owns(ONE_ORDER.exec(routed)?.[1]))
      : undefined,
  };
}

const MUTATIONS = new Set<OperationName | undefined>(['updateOrder', 'updateOrderWithPost', 'cancelOrder']);
const READS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Why a request must not reach a live target, or undefined when it may: only test orders are
 * created, updates leave `testOrder` alone, a change names an order `owned` by the run (or proved
 * missing), and only reads go to unknown paths. `operation` comes from the normalised path.
 */
function liveRefusal(
  request: { readonly method: string; readonly operation: OperationName | undefined; readonly body: unknown },
  owned: () => boolean,
): string | undefined {
  const record =
    request.body !== null && typeof request.body === 'object'
      ? (request.body as Record<string, unknown>)
      : undefined;
  if (request.operation === 'createOrder') {
    if (typeof request.body === 'string') {
      return 'live mode: the body of a request that could create an order is not JSON, so it is not sent';
    }
    if (record?.testOrder !== true) {
      return 'live mode: the request would create an order without "testOrder": true, so it is not sent';
    }
    return undefined;
  }
  if (MUTATIONS.has(request.operation)) {
    if (request.operation !== 'cancelOrder' && record && 'testOrder' in record && record.testOrder !== true) {
      return 'live mode: the update would change "testOrder" of an order, so it is not sent';
    }
    return owned()
      ? undefined
      : 'live mode: the request would change an order this run did not create, so it is not sent';
  }
  // A change the operations table does not know (say `POST /orders/1/cancel`) could do anything.
  if (request.operation === undefined && !READS.has(request.method.toUpperCase())) {
    return `live mode: ${request.method.toUpperCase()} on a path the API does not describe could change an order, so it is not sent`;
  }
  return undefined;
}
