import {
  API_BASE_PATH,
  OPERATION_NAMES,
  type OperationName,
  operations,
  pathPattern,
} from '@print-contracts/client';

export { API_BASE_PATH };

/**
 * The path below the contracts' base path (`/orders/42`), or undefined when the path lies
 * outside it. The consumer suite writes every path under `API_BASE_PATH` (`/api`); the
 * proxy maps it onto the target's own base path.
 */
export function pathBelowBase(path: string): string | undefined {
  if (path === API_BASE_PATH) return '/';
  return path.startsWith(`${API_BASE_PATH}/`) ? path.slice(API_BASE_PATH.length) : undefined;
}

const patterns = OPERATION_NAMES.map((name) => ({
  name,
  method: operations[name].method as string,
  pattern: pathPattern(operations[name].path),
}));

/** Which operation of the table a request is, from its method and its path below the base. */
export function operationOf(method: string, pathBelow: string): OperationName | undefined {
  const path = pathBelow.split('?')[0] ?? pathBelow;
  return patterns.find((entry) => entry.method === method.toUpperCase() && entry.pattern.test(path))?.name;
}
