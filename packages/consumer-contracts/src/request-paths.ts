import type { Matcher } from '@pact-foundation/pact';
import {
  API_BASE_PATH,
  expandPath,
  fillPath,
  ID_PLACEHOLDER,
  type OperationDefinition,
  type OrderRef,
  UUID_PATTERN,
} from '@print-contracts/client';
import { escapeRegExp } from './rule-values.js';

/**
 * The path every request starts with. The vendor's base URL ends in it, and the suite points
 * the client at `{mock server}/api`, so the contracts carry the same paths.
 */
export { API_BASE_PATH };

/** A path matcher with a provider-state generator, as the FFI reads it. */
export interface InjectedPath extends Matcher<string> {
  readonly 'pact:matcher:type': 'regex';
  readonly 'pact:generator:type': 'ProviderState';
  readonly regex: string;
  readonly expression: string;
  readonly value: string;
}

/** Which value of a provider state an injected path carries: the numeric id or the uuid. */
export type InjectedKey = 'id' | 'uuid';

/** What one path segment of each kind of order reference looks like. */
const SEGMENT_PATTERNS: Readonly<Record<InjectedKey, string>> = {
  id: '[1-9][0-9]*',
  uuid: UUID_PATTERN.source.replace(/^\^/, '').replace(/\$$/, ''),
};

/** The path of `operation` for an id the consumer chooses (one no order has, say). */
export function orderPath(operation: OperationDefinition, id?: OrderRef): string {
  return `${API_BASE_PATH}${expandPath(operation.path, id)}`;
}

/**
 * The path of `operation` for an order the provider owns. A regex pins the path's shape
 * (a plain `fromProviderState` records a type matcher, which accepts any path at all), and
 * a ProviderState generator makes the verifier fill in the `${id}` or `${uuid}` its state
 * returned. `example` is what the consumer test calls, and what the pact shows.
 */
export function injectedOrderPath(
  operation: OperationDefinition,
  key: InjectedKey,
  example: OrderRef,
): InjectedPath {
  if (!operation.path.includes(ID_PLACEHOLDER)) {
    throw new TypeError(`${operation.method} ${operation.path} has no ${ID_PLACEHOLDER} to inject`);
  }
  const [before, after] = operation.path.split(ID_PLACEHOLDER) as [string, string];
  const regex = `^${escapeRegExp(`${API_BASE_PATH}${before}`)}${SEGMENT_PATTERNS[key]}${escapeRegExp(after)}$`;
  const value = orderPath(operation, example);
  if (!new RegExp(regex).test(value)) {
    throw new TypeError(`Example ${value} is not a path with an order ${key}`);
  }
  return {
    'pact:matcher:type': 'regex',
    regex,
    value,
    'pact:generator:type': 'ProviderState',
    expression: `${API_BASE_PATH}${fillPath(operation.path, `\${${key}}`)}`,
  };
}
