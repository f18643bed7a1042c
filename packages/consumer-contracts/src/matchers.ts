import { HTTPResponseStatusClass, MatchersV3, type StatusCodeMatcher } from '@pact-foundation/pact';
import {
  API_BASE_PATH,
  expandPath,
  fillPath,
  ID_PLACEHOLDER,
  type OperationDefinition,
  type OrderRef,
  UUID_PATTERN,
} from '@print-contracts/client';
import { escapeRegExp, orNullSource } from './rule-values.js';

/** A matcher in the shape Pact's FFI reads, for what the pact-js helpers cannot say (examples that are not strings). */
export interface RawMatcher {
  readonly 'pact:matcher:type': string;
  readonly value: unknown;
  readonly [attribute: string]: unknown;
}

/**
 * A regular expression Pact can carry: the source, with the case-insensitive flag written
 * inline (`(?i)`, which Pact's Rust and JVM engines read), since the pact file has no flags.
 */
export function patternSource(pattern: RegExp): string {
  const unsupported = pattern.flags.replace(/[iu]/g, '');
  if (unsupported) throw new TypeError(`Pact regexes cannot carry the /${unsupported} flag`);
  return pattern.flags.includes('i') ? `(?i)${pattern.source}` : pattern.source;
}

/**
 * The answer's `Content-Type`, which the client never reads (it parses the body): any JSON media
 * type, with any parameters, so a vendor naming its own (`application/vnd.…+json`) keeps the
 * contract. `jsonBody` alone pins exactly `application/json`, which the vendor does not document.
 */
export const JSON_ANSWER_HEADERS = {
  'Content-Type': MatchersV3.regex(
    patternSource(/^application\/(?:[\w.-]+\+)?json(?:\s*;[\s\S]*)?$/i),
    'application/json',
  ),
};

/** A value that matches `pattern`; the example must match too. */
export function matching(pattern: RegExp, example: string | number): RawMatcher {
  if (!pattern.test(String(example))) {
    throw new TypeError(`Example ${JSON.stringify(example)} does not match ${pattern}`);
  }
  return { 'pact:matcher:type': 'regex', regex: patternSource(pattern), value: example };
}

/** One of an enumeration (order statuses, line statuses), built from the client's own list. */
export function oneOf<T extends string>(values: readonly T[], example: NoInfer<T>): RawMatcher {
  return matching(new RegExp(`^(${values.map(escapeRegExp).join('|')})$`), example);
}

/**
 * A leaf that matches `pattern` or is null, for the fields the vendor documents as nullable.
 * One regex rule: Pact matches a regex against a string's text and against any other value's
 * JSON text, so `null` reads as `null` (the string "null" passes too). For a nullable list or
 * object use `present`; for "any string or null" too, since a regex cannot tell a string
 * from a number.
 */
// One rule, since pact-js cannot ask Pact for an OR of rules: pact-foundation/pact-reference#249.
export function orNull(pattern: RegExp, example: string | null): RawMatcher {
  if (example !== null && !pattern.test(example)) {
    throw new TypeError(`Example ${JSON.stringify(example)} does not match ${pattern}`);
  }
  return { 'pact:matcher:type': 'regex', regex: orNullSource(patternSource(pattern)), value: example };
}

/**
 * A key that must be present, with any value: for fields whose every documented form the client
 * takes (line `addressInfo`, an address id or an address; `reference`, `poNumber`). The regex
 * accepts every value Pact renders as text, `null` and collections included.
 */
export function present(example: unknown): RawMatcher {
  // Pact checks a list or an object example's type before any rule (measured): a leaf only.
  if (typeof example === 'object' && example !== null) {
    throw new TypeError('present() takes a leaf example (null, a number, a string), not a list or an object');
  }
  return { 'pact:matcher:type': 'regex', regex: PRESENT_PATTERN, value: example };
}

/**
 * A nullable object or list (line `customerDiscount`, `shipmentInfo`), by its JSON text, which is
 * what Pact reads a regex against on a value that is no string: `null`, or an object (a list).
 * What it holds is pinned by the interactions that arrange one (the discounted order, the
 * shipped one); here it stops an absent one written `[]` or `false`, which the client refuses.
 */
export function nullOr(kind: 'object' | 'list'): RawMatcher {
  const inner = kind === 'object' ? '\\{[\\s\\S]*\\}' : '\\[[\\s\\S]*\\]';
  return { 'pact:matcher:type': 'regex', regex: `^(?:null|${inner})$`, value: null };
}

/** The pattern `present` writes; the contracts README names it "present, any value". */
export const PRESENT_PATTERN = '^[\\s\\S]*$';

/**
 * A whole body that contains `pattern` somewhere, for an error answer whose message the docs
 * give but whose key they do not. Pact matches a rule on the body's root against the body's
 * JSON text, so `{"message": "…"}`, `{"error": "…"}` and a bare JSON string all pass, and the
 * example (what the mock server answers) is a JSON string. Measured with the official
 * verifier; the rule must stand alone: rules on keys below it would ask for those keys.
 */
export function bodyContaining(pattern: RegExp | string, example: string): RawMatcher {
  const source = typeof pattern === 'string' ? escapeRegExp(pattern) : pattern.source;
  const caseless = typeof pattern !== 'string' && pattern.flags.includes('i') ? '(?i)' : '';
  const regex = `${caseless}^[\\s\\S]*(${source})[\\s\\S]*$`;
  const flags = caseless ? 'i' : '';
  if (!new RegExp(regex.replace('(?i)', ''), flags).test(JSON.stringify(example))) {
    throw new TypeError(`Example ${JSON.stringify(example)} does not contain ${pattern}`);
  }
  return { 'pact:matcher:type': 'regex', regex, value: example };
}

/**
 * A success status for an operation whose success status the vendor does not document:
 * the contract matches the 2xx class, and `example` (what the sample API answers) is only
 * what the mock server sends back.
 */
export function successStatus(example: number): StatusCodeMatcher<number> {
  return MatchersV3.matchStatus(example, HTTPResponseStatusClass.Success);
}

/**
 * A refusal whose status the vendor does not document (refused credentials): any 4xx.
 * `example` is the sample API's status.
 */
export function clientErrorStatus(example: number): StatusCodeMatcher<number> {
  return MatchersV3.matchStatus(example, HTTPResponseStatusClass.ClientError);
}

/**
 * A status the vendor documents for `operation`, pinned exactly. Throws for one the
 * operations table does not list, so the suite never pins an undocumented status.
 */
export function documentedStatus(operation: OperationDefinition, status: 400 | 404 | 500): number {
  if (operation.documentedErrors[status] === undefined) {
    throw new TypeError(`${operation.method} ${operation.path} documents no ${status}`);
  }
  return status;
}

/** Which value of a provider state an injected path carries: the numeric id or the uuid. */
export type InjectedKey = 'id' | 'uuid';

/** What one path segment of each kind of order reference looks like. */
const SEGMENT_PATTERNS: Readonly<Record<InjectedKey, string>> = {
  id: '[1-9][0-9]*',
  uuid: UUID_PATTERN.source.replace(/^\^/, '').replace(/\$$/, ''),
};

/**
 * The path of `operation` for an id the consumer chooses (one no order has, say). Paths start
 * with `/api`: the suite points the client at `{mock server}/api`, as the vendor's base URL ends.
 */
export function orderPath(operation: OperationDefinition, id?: OrderRef): string {
  return `${API_BASE_PATH}${expandPath(operation.path, id)}`;
}

/**
 * The path of `operation` for an order the provider owns. A regex pins the path's shape
 * (a plain `fromProviderState` records a type matcher, which accepts any path at all), and
 * a ProviderState generator makes the verifier fill in the `${id}` or `${uuid}` its state
 * returned. `example` is what the consumer test calls, and what the pact shows.
 */
export function injectedOrderPath(operation: OperationDefinition, key: InjectedKey, example: OrderRef) {
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
  } as const;
}
