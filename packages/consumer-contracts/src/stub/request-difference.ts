import type { IncomingHttpHeaders, IncomingMessage } from 'node:http';
import { canonicalJson } from '@print-contracts/client/kit';
import type { PactInteraction, PactRuleList } from '../pact-files.js';
import type { StubRoute } from './stub-guide.js';

/*
 * How a request differs from an interaction, under the interaction's own matching rules: what
 * the stub's front says when it refuses a request. Rules this check does not know are taken as
 * fitting: a message must never blame what the stub server accepts.
 */

type Token = string | number;
type Rule = Record<string, unknown>;
type Rules = ReadonlyMap<readonly Token[], PactRuleList>;

/** Differences past this many say nothing more about which interaction is nearest. */
const COUNT_LIMIT = 50;
const SHOWN_CHARS = 40;

const kindOf = (value: unknown) => (value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value);
const article = (kind: string) => (/^[aeiou]/.test(kind) ? `an ${kind}` : `a ${kind}`);
const isContainer = (value: unknown) => value !== null && typeof value === 'object';

/** The value sent, briefly: a primitive as JSON, a container by its kind. */
function shown(value: unknown): string {
  if (Array.isArray(value)) return `an array of ${value.length} items`;
  if (isContainer(value)) return 'an object';
  const text = JSON.stringify(value);
  return text.length > SHOWN_CHARS ? `${text.slice(0, SHOWN_CHARS - 1)}…` : text;
}

/** A pact's regex is Rust syntax; one JavaScript cannot read is not held against the request. */
function regexFits(source: string, value: unknown): boolean {
  if (isContainer(value)) return false;
  try {
    return new RegExp(source).test(typeof value === 'string' ? value : JSON.stringify(value));
  } catch {
    return true;
  }
}

/** Whether `actual` fits one matcher, and what the matcher expects. */
function verdict(rule: Rule, expected: unknown, actual: unknown): { fits: boolean; wanted: string } {
  const kind = kindOf(expected);
  switch (rule.match) {
    case 'type': {
      const { min, max } = rule as { min?: number; max?: number };
      const size = Array.isArray(actual) ? actual.length : 0;
      const bounds = [min === undefined ? '' : `at least ${min}`, max === undefined ? '' : `at most ${max}`]
        .filter(Boolean)
        .join(' and ');
      return {
        fits: kindOf(actual) === kind && size >= (min ?? 0) && size <= (max ?? Number.POSITIVE_INFINITY),
        wanted: bounds ? `an array of ${bounds} items` : article(kind),
      };
    }
    case 'regex': {
      const source = typeof rule.regex === 'string' ? rule.regex : '';
      const what = typeof expected === 'string' ? 'a string' : 'a value';
      return { fits: regexFits(source, actual), wanted: `${what} matching ${source}` };
    }
    case 'integer':
      return { fits: Number.isInteger(actual), wanted: 'an integer' };
    case 'decimal':
    case 'number':
      return { fits: typeof actual === 'number', wanted: 'a number' };
    case 'boolean':
      return { fits: typeof actual === 'boolean', wanted: 'a boolean' };
    case 'null':
      return { fits: actual === null, wanted: 'null' };
    case 'equality':
      return { fits: canonicalJson(actual) === canonicalJson(expected), wanted: shown(expected) };
    case 'include':
      return {
        fits: typeof actual === 'string' && typeof rule.value === 'string' && actual.includes(rule.value),
        wanted: `a string containing ${JSON.stringify(rule.value)}`,
      };
    default:
      return { fits: true, wanted: '' };
  }
}

/** Whether a rule list accepts, each rule judged by `fits`, combined as the list says. */
const listFits = (list: PactRuleList, fits: (rule: Rule) => boolean) =>
  list.combine === 'OR' ? list.matchers.some(fits) : list.matchers.every(fits);

/** A comma-separated header value as a list of trimmed items, so `a,b` and `a, b` compare equal. */
const items = (value: string) =>
  value
    .split(',')
    .map((item) => item.trim())
    .join(',');

/** `application/json; charset=utf-8` → `application/json`, lower case. */
const mediaType = (value: string) => (value.split(';')[0] ?? '').trim().toLowerCase();

/**
 * The reasons the request's headers do not fit `interaction`'s request, under its own header
 * matching rules: a header it names that is missing, or a value that breaks its rule or
 * (without a rule) differs from the contract's value. Empty when they fit.
 *
 * The official stub server treats header mismatches as a tie-breaker only; this is what
 * makes `pnpm stub` insist on the credentials and the version header the way the contracts
 * do. A message names the header and what the contract expects, never the value sent (it may
 * be a secret).
 */
export function headerMismatches(interaction: PactInteraction, headers: IncomingHttpHeaders): string[] {
  const rules = Object.entries(
    (interaction.request.matchingRules?.header ?? {}) as Record<string, PactRuleList>,
  );
  const reasons: string[] = [];
  for (const [name, values] of Object.entries(interaction.request.headers ?? {})) {
    const expected = values.join(', ');
    const sent = headers[name.toLowerCase()];
    const actual = Array.isArray(sent) ? sent.join(', ') : sent;
    const list = rules.find(([key]) => key.toLowerCase() === name.toLowerCase())?.[1];
    if (actual === undefined || actual.trim() === '') reasons.push(`${name} is missing`);
    else if (list && list.matchers.length > 0) {
      const fits = (rule: Rule) =>
        rule.match === 'equality' ? items(actual) === items(expected) : verdict(rule, expected, actual).fits;
      if (!listFits(list, fits)) reasons.push(`${name} does not match the contract's rule`);
    } else if (
      name.toLowerCase() === 'content-type'
        ? mediaType(actual) !== mediaType(expected)
        : items(actual) !== items(expected)
    ) {
      reasons.push(`${name} must be "${expected}"`);
    }
  }
  return reasons;
}

/** `$.orderLines[0].sku`, as Pact writes paths. */
function pathText(tokens: readonly Token[]): string {
  const part = (token: Token) => {
    if (typeof token === 'number') return `[${token}]`;
    return /^[A-Za-z_][\w-]*$/.test(token) ? `.${token}` : `['${token.replaceAll("'", "\\'")}']`;
  };
  return `$${tokens.map(part).join('')}`;
}

/** `$.a[*].b` or `$['a b'].*` as tokens; `*` is a wildcard. Undefined when it cannot be read. */
function parsePath(path: string): Token[] | undefined {
  if (!path.startsWith('$')) return undefined;
  const tokens: Token[] = [];
  const part = /\.([^.[\]]+)|\[(\d+|\*)\]|\['([^']*)'\]/y;
  part.lastIndex = 1;
  while (part.lastIndex < path.length) {
    const found = part.exec(path);
    if (!found) return undefined;
    const [, name, index, quoted] = found;
    tokens.push(name ?? quoted ?? (index === '*' ? '*' : Number(index)));
  }
  return tokens;
}

function bodyRules(interaction: PactInteraction): Rules {
  const written = (interaction.request.matchingRules?.body ?? {}) as Record<string, PactRuleList>;
  const rules = new Map<readonly Token[], PactRuleList>();
  for (const [path, list] of Object.entries(written)) {
    const tokens = parsePath(path);
    if (tokens && list?.matchers?.length > 0) rules.set(tokens, list);
  }
  return rules;
}

/**
 * The rule that governs `at`: the most specific one whose path is `at` or one of its parents
 * (Pact's rules reach the values below them, though an array's size bounds stay with the
 * array), a named key or index weighing more than `*`.
 */
function ruleAt(rules: Rules, at: readonly Token[]): PactRuleList | undefined {
  let best: { list: PactRuleList; weight: number; inherited: boolean } | undefined;
  for (const [tokens, list] of rules) {
    if (tokens.length > at.length) continue;
    let weight = 0;
    for (const [index, token] of tokens.entries()) {
      if (token === at[index]) weight += 2;
      else if (token === '*') weight += 1;
      else {
        weight = -1;
        break;
      }
    }
    if (weight >= 0 && (!best || weight >= best.weight))
      best = { list, weight, inherited: tokens.length < at.length };
  }
  if (!best?.inherited) return best?.list;
  const matchers = best.list.matchers.map(({ min: _min, max: _max, ...rule }) => rule);
  return { ...best.list, matchers };
}

function compare(expected: unknown, actual: unknown, at: Token[], rules: Rules, found: string[]): void {
  if (found.length >= COUNT_LIMIT) return;
  const say = (text: string, where = at) => found.push(`body ${pathText(where)}: ${text}`);
  const list = ruleAt(rules, at);
  if (list) {
    let wanted = '';
    const fits = (rule: Rule) => {
      const { fits, wanted: what } = verdict(rule, expected, actual);
      if (!fits) wanted ||= what;
      return fits;
    };
    if (!listFits(list, fits)) {
      say(`expected ${wanted}, got ${shown(actual)}`);
      return;
    }
    // Only rules on a value's kind let its children be compared below it.
    if (!list.matchers.every((rule) => rule.match === 'type')) return;
    if (Array.isArray(expected) && Array.isArray(actual)) {
      for (const [index, item] of actual.entries()) {
        const model = expected[index] ?? expected[0];
        if (model !== undefined) compare(model, item, [...at, index], rules, found);
      }
      return;
    }
  } else if (kindOf(actual) !== kindOf(expected)) {
    say(
      `expected ${isContainer(expected) ? article(kindOf(expected)) : shown(expected)}, got ${shown(actual)}`,
    );
    return;
  }
  if (Array.isArray(expected) && Array.isArray(actual)) {
    for (const [index, item] of expected.entries()) {
      if (index < actual.length) compare(item, actual[index], [...at, index], rules, found);
    }
    if (expected.length !== actual.length) say(`expected ${expected.length} items, got ${actual.length}`);
  } else if (kindOf(expected) === 'object' && kindOf(actual) === 'object') {
    const want = expected as Record<string, unknown>;
    const got = actual as Record<string, unknown>;
    for (const [key, value] of Object.entries(want)) {
      if (!Object.hasOwn(got, key)) say(`missing, expected ${shown(value)}`, [...at, key]);
      else compare(value, got[key], [...at, key], rules, found);
    }
    if (!list) {
      for (const key of Object.keys(got))
        if (!Object.hasOwn(want, key)) say('not in the contract', [...at, key]);
    }
  } else if (!list && actual !== expected) say(`expected ${shown(expected)}, got ${shown(actual)}`);
}

/**
 * How a request's body differs from `interaction`'s, under its body matching rules: each
 * reason names the JSON path and what the contract expects (`body $.orderLines[0].sku:
 * expected a string matching ^…$, got 12`). Empty when it fits, or when the contract has no
 * JSON body to hold it to.
 */
export function bodyDifferences(interaction: PactInteraction, body: Buffer): string[] {
  const expected = interaction.request.body?.content;
  if (expected === undefined) return [];
  if (body.length === 0) return ['body: expected a JSON body, got none'];
  let actual: unknown;
  try {
    actual = JSON.parse(body.toString('utf8'));
  } catch {
    return ['body: expected JSON, got something else'];
  }
  const found: string[] = [];
  compare(expected, actual, [], bodyRules(interaction), found);
  return found;
}

/** Whether the request's path is the interaction's, or fits its path rule (`/api/orders/5`). */
function pathFits({ request }: PactInteraction, path: string): boolean {
  const list = request.matchingRules?.path as PactRuleList | undefined;
  if (request.path === path) return true;
  return !!list?.matchers?.length && listFits(list, (rule) => verdict(rule, request.path, path).fits);
}

/** Whether `route` is among those the state header (a valid regex) leaves; all when none was sent. */
function withinStates({ states }: StubRoute, selector: string | undefined): boolean {
  return (
    selector === undefined || states.length === 0 || states.some((name) => new RegExp(selector).test(name))
  );
}

/**
 * Among the routes with the request's method and path (as their path rules allow) and a state
 * the state header's `selector` leaves, the one whose body and headers differ least from the
 * request, with the first way its body differs. Undefined when none has that method and path,
 * or the nearest one's body fits (then the body is not why the stub server found no interaction).
 */
export function nearestBodyDifference(
  routes: readonly StubRoute[],
  request: IncomingMessage,
  sent: Buffer,
  selector: string | undefined,
): { nearest: StubRoute; difference: string; headers: string[] } | undefined {
  const path = new URL(request.url ?? '/', 'http://stub').pathname;
  let best: { nearest: StubRoute; body: string[]; headers: string[] } | undefined;
  for (const route of routes) {
    const { interaction } = route;
    if (route.method !== request.method?.toUpperCase()) continue;
    if (!pathFits(interaction, path)) continue;
    if (!withinStates(route, selector)) continue;
    const body = bodyDifferences(interaction, sent);
    const headers = headerMismatches(interaction, request.headers);
    if (!best || body.length + headers.length < best.body.length + best.headers.length)
      best = { nearest: route, body, headers };
  }
  const difference = best?.body[0];
  return best && difference ? { nearest: best.nearest, difference, headers: best.headers } : undefined;
}
