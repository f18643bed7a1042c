import {
  API_BASE_PATH,
  OPERATION_NAMES,
  type OperationName,
  operations,
  pathPattern,
} from '@print-contracts/client';

export { API_BASE_PATH };

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

/** The path below `API_BASE_PATH` (`/orders/42`), or undefined when it lies outside it. */
export function pathBelowBase(path: string): string | undefined {
  if (path === API_BASE_PATH) return '/';
  return path.startsWith(`${API_BASE_PATH}/`) ? path.slice(API_BASE_PATH.length) : undefined;
}

const ROUTES = OPERATION_NAMES.map((name) => ({
  name,
  method: operations[name].method as string,
  pattern: pathPattern(operations[name].path, API_BASE_PATH),
}));

/** Which operation a request is, by its method and its path as the server routes it. */
export function operationOf(method: string, path: string): OperationName | undefined {
  const routed = normalisePath(path);
  return ROUTES.find((route) => route.method === method.toUpperCase() && route.pattern.test(routed))?.name;
}

const ONE_ORDER = pathPattern(operations.getOrder.path, API_BASE_PATH);

/** The `{id}` a request on one order names, as the server routes it, or undefined. */
export const orderRefOf = (path: string): string | undefined => ONE_ORDER.exec(normalisePath(path))?.[1];
