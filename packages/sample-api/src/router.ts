import {
  API_BASE_PATH,
  type HttpMethod,
  OPERATION_NAMES,
  type OperationDefinition,
  type OperationName,
  operations,
  pathPattern,
} from '@print-contracts/client';
import { decodeSegment } from './http/request-target.js';

export { API_BASE_PATH };

export type RouteResult =
  | { readonly kind: 'operation'; readonly name: OperationName; readonly id: string | undefined }
  | { readonly kind: 'wrong-method'; readonly allow: readonly string[] }
  | { readonly kind: 'no-route' };

interface PathRoute {
  readonly pattern: RegExp;
  readonly byMethod: ReadonlyMap<string, OperationName>;
  readonly allow: readonly string[];
}

const NO_ROUTE: RouteResult = Object.freeze({ kind: 'no-route' });

/** Routes compiled once from the operations table, one regular expression per path template. */
const ROUTES: readonly PathRoute[] = (() => {
  const byPath = new Map<OperationDefinition['path'], Map<HttpMethod, OperationName>>();
  for (const name of OPERATION_NAMES) {
    const { path, method } = operations[name] as OperationDefinition;
    const methods = byPath.get(path) ?? new Map<HttpMethod, OperationName>();
    methods.set(method, name);
    byPath.set(path, methods);
  }
  return [...byPath].map(([path, byMethod]) => ({
    pattern: pathPattern(path, API_BASE_PATH),
    byMethod,
    allow: [...byMethod.keys()],
  }));
})();

/** Every path template of the API with its methods, for "no such route" messages. */
export const ROUTE_SUMMARY = [...new Set(OPERATION_NAMES.map((name) => operations[name].path))]
  .map((path) => `${API_BASE_PATH}${path}`)
  .join(' and ');

/** Finds the operation for a method and a path (no query); `id` is the decoded `{id}` segment. */
export function route(method: string, path: string): RouteResult {
  for (const candidate of ROUTES) {
    const match = candidate.pattern.exec(path);
    if (match === null) continue;
    const name = candidate.byMethod.get(method as HttpMethod);
    if (name === undefined) return { kind: 'wrong-method', allow: candidate.allow };
    const segment = match[1];
    return { kind: 'operation', name, id: segment === undefined ? undefined : decodeSegment(segment) };
  }
  return NO_ROUTE;
}
