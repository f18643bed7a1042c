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
  /** The names of its query parameters (`limit`, `offset`), as many times as given. */
  readonly queryKeys: readonly string[];
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
  const ref = ONE_ORDER.exec(routed)?.[1];
  return {
    /** The path below `API_BASE_PATH` (`/orders/42`), or undefined when it lies outside it. */
    below: pathBelowBase(routed),
    creates: operation === 'createOrder',
    /** It would create, change or cancel an order: in live mode it goes out as judged (`LIVE_CHANGE`). */
    changes: CHANGES.has(operation),
    /** `real`: it carries the placeholders (swapped for real credentials); `refused`: none or wrong ones. */
    credentials: placeholders ? ('real' as const) : ('refused' as const),
    refusal: live ? liveRefusal({ ...request, operation, header, ref }, () => live.owns(ref)) : undefined,
  };
}

const CHANGES = new Set<OperationName | undefined>([
  'createOrder',
  'updateOrder',
  'updateOrderWithPost',
  'cancelOrder',
]);
const READS = new Set(['GET', 'HEAD', 'OPTIONS']);
/** Headers and a query parameter by which frameworks take a request as another method. */
const METHOD_OVERRIDES = ['x-http-method-override', 'x-http-method', 'x-method-override'];
const JSON_MEDIA_TYPE = /^\s*application\/(?:[\w.-]+\+)?json\s*(?:;|$)/i;
/** How the docs name an order: its numeric id or its uuid. */
const ORDER_REF = /^(?:\d{1,18}|[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/;
/** A key a lenient parser may read as `testOrder` (`testorder`, `Test_Order`) but the check would not. */
const looksLikeTestOrder = (key: string) =>
  key !== 'testOrder' && key.toLowerCase().replace(/[^a-z]/g, '') === 'testorder';

/**
 * Why a request must not reach a live target, or undefined when it may: only test orders are
 * created, updates leave `testOrder` alone, a change names an order `owned` by the run (or proved
 * missing), and only reads go to unknown paths. A change must leave a vendor nothing to read
 * otherwise than the kit did: no query, a JSON object as body (sent as the kit serialises it),
 * no other spelling of `testOrder`, an order named as the docs name one, no method override.
 * `operation` comes from the normalised path.
 */
function liveRefusal(
  request: SentRequest & {
    readonly operation: OperationName | undefined;
    readonly header: (name: string) => string | undefined;
    readonly ref: string | undefined;
  },
  owned: () => boolean,
): string | undefined {
  const { operation, body, header } = request;
  const overrides = [
    ...METHOD_OVERRIDES.filter((name) => header(name) !== undefined),
    ...request.queryKeys.filter((key) => key.toLowerCase() === '_method'),
  ];
  if (overrides.length > 0) {
    return `live mode: the request asks to be taken as another method (${overrides[0]}), so it is not sent`;
  }
  if (!CHANGES.has(operation)) {
    // A change the operations table does not know (say `POST /orders/1/cancel`) could do anything.
    if (operation === undefined && !READS.has(request.method.toUpperCase())) {
      return `live mode: ${request.method.toUpperCase()} on a path the API does not describe could change an order, so it is not sent`;
    }
    return undefined;
  }
  const what = operation === 'createOrder' ? 'create an order' : 'change an order';
  const record =
    body !== null && typeof body === 'object' && !Array.isArray(body)
      ? (body as Record<string, unknown>)
      : undefined;
  const contentType = header('content-type');
  const unclear =
    request.queryKeys.length > 0
      ? 'carries a query string, which a vendor may read before its body'
      : contentType !== undefined && !JSON_MEDIA_TYPE.test(contentType)
        ? `declares its body ${JSON.stringify(contentType.slice(0, 60))}, not JSON`
        : typeof body === 'string'
          ? 'has a body that is not JSON'
          : !record && (body !== undefined || operation !== 'cancelOrder')
            ? 'has no JSON object as its body'
            : Object.keys(record ?? {}).some(looksLikeTestOrder)
              ? 'spells "testOrder" another way, which a lenient parser may read instead'
              : undefined;
  if (unclear) return `live mode: a request that could ${what} ${unclear}, so it is not sent`;
  if (operation === 'createOrder') {
    return record?.testOrder === true
      ? undefined
      : 'live mode: the request would create an order without "testOrder": true, so it is not sent';
  }
  if (operation !== 'cancelOrder' && record && 'testOrder' in record && record.testOrder !== true) {
    return 'live mode: the update would change "testOrder" of an order, so it is not sent';
  }
  if (request.ref === undefined || !ORDER_REF.test(request.ref)) {
    return 'live mode: the request names an order otherwise than by its id or uuid, so it is not sent';
  }
  return owned()
    ? undefined
    : 'live mode: the request would change an order this run did not create, so it is not sent';
}
