import type { IncomingHttpHeaders } from 'node:http';
import { canonicalJson } from '@print-contracts/client';
import type { PactInteraction, PactRuleList } from '../pact-files.js';
import { headerMismatches } from './header-check.js';
import type { ServedInteraction } from './served-pacts.js';

type Token = string | number;
type Rules = ReadonlyMap<readonly Token[], PactRuleList>;

/** Differences past this many say nothing more about which interaction is nearest. */
const COUNT_LIMIT = 50;
const SHOWN_CHARS = 40;

/** `$.orderLines[0].sku`, as Pact writes paths. */
function pathText(tokens: readonly Token[]): string {
  return `$${tokens
    .map((token) =>
      typeof token === 'number'
        ? `[${token}]`
        : /^[A-Za-z_][\w-]*$/.test(token)
          ? `.${token}`
          : `['${token.replaceAll("'", "\\'")}']`,
    )
    .join('')}`;
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

const kindOf = (value: unknown) => (value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value);
const article = (kind: string) => (/^[aeiou]/.test(kind) ? `an ${kind}` : `a ${kind}`);
const clip = (text: string) => (text.length > SHOWN_CHARS ? `${text.slice(0, SHOWN_CHARS - 1)}…` : text);

/** The value sent, briefly: a primitive as JSON, a container by its kind. */
function shown(value: unknown): string {
  if (Array.isArray(value)) return `an array of ${value.length} items`;
  if (value !== null && typeof value === 'object') return 'an object';
  return clip(JSON.stringify(value));
}

/** A pact's regex is Rust syntax; one JavaScript cannot read is not held against the request. */
function regexFits(source: string, value: unknown): boolean {
  if (value !== null && typeof value === 'object') return false;
  try {
    return new RegExp(source).test(typeof value === 'string' ? value : JSON.stringify(value));
  } catch {
    return true;
  }
}

/**
 * Whether `actual` fits one matcher, and what the matcher expects. Matchers this check does
 * not know are taken as fitting: the message must never blame what the stub server accepts.
 */
function matcherVerdict(
  rule: Record<string, unknown>,
  expected: unknown,
  actual: unknown,
): { fits: boolean; wanted: string } {
  const kind = kindOf(expected);
  switch (rule.match) {
    case 'type': {
      const min = typeof rule.min === 'number' ? rule.min : undefined;
      const max = typeof rule.max === 'number' ? rule.max : undefined;
      const size = Array.isArray(actual) ? actual.length : 0;
      const bounds = [min === undefined ? '' : `at least ${min}`, max === undefined ? '' : `at most ${max}`]
        .filter(Boolean)
        .join(' and ');
      return {
        fits:
          kindOf(actual) === kind && (min === undefined || size >= min) && (max === undefined || size <= max),
        wanted: bounds ? `an array of ${bounds} items` : article(kind === 'array' ? 'array' : kind),
      };
    }
    case 'regex': {
      const source = typeof rule.regex === 'string' ? rule.regex : '';
      return {
        fits: regexFits(source, actual),
        wanted: `${typeof expected === 'string' ? 'a string' : 'a value'} matching ${source}`,
      };
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

/** Whether a rule list's matchers describe a value's kind, so its children are compared below it. */
const descends = (list: PactRuleList) => list.matchers.every((rule) => rule.match === 'type');

function compare(expected: unknown, actual: unknown, at: Token[], rules: Rules, found: string[]): void {
  if (found.length >= COUNT_LIMIT) return;
  const say = (text: string) => found.push(`body ${pathText(at)}: ${text}`);
  const list = ruleAt(rules, at);
  if (list) {
    const verdicts = list.matchers.map((rule) => matcherVerdict(rule, expected, actual));
    const fits = list.combine === 'OR' ? verdicts.some((v) => v.fits) : verdicts.every((v) => v.fits);
    if (!fits) {
      const wanted = verdicts.find((v) => !v.fits)?.wanted ?? '';
      say(`expected ${wanted}, got ${shown(actual)}`);
      return;
    }
    if (!descends(list)) return;
    if (Array.isArray(expected) && Array.isArray(actual)) {
      for (const [index, item] of actual.entries()) {
        const model = expected[index] ?? expected[0];
        if (model !== undefined) compare(model, item, [...at, index], rules, found);
      }
      return;
    }
  } else if (kindOf(actual) !== kindOf(expected)) {
    say(
      `expected ${Array.isArray(expected) || kindOf(expected) === 'object' ? article(kindOf(expected)) : shown(expected)}, got ${shown(actual)}`,
    );
    return;
  }
  if (Array.isArray(expected) && Array.isArray(actual)) {
    for (const [index, item] of expected.entries()) {
      if (index < actual.length) compare(item, actual[index], [...at, index], rules, found);
    }
    if (expected.length !== actual.length) say(`expected ${expected.length} items, got ${actual.length}`);
    return;
  }
  if (kindOf(expected) === 'object' && kindOf(actual) === 'object') {
    const want = expected as Record<string, unknown>;
    const got = actual as Record<string, unknown>;
    for (const [key, value] of Object.entries(want)) {
      if (!Object.hasOwn(got, key))
        found.push(`body ${pathText([...at, key])}: missing, expected ${shown(value)}`);
      else compare(value, got[key], [...at, key], rules, found);
    }
    if (!list) {
      for (const key of Object.keys(got)) {
        if (!Object.hasOwn(want, key)) found.push(`body ${pathText([...at, key])}: not in the contract`);
      }
    }
    return;
  }
  if (!list && actual !== expected) say(`expected ${shown(expected)}, got ${shown(actual)}`);
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

/** The request a refused interaction is measured against. */
export interface RefusedRequest {
  readonly method: string;
  /** The path without its query. */
  readonly path: string;
  readonly headers: IncomingHttpHeaders;
  readonly body: Buffer;
  /** The state header as a regular expression over state names, when one was sent. */
  readonly stateSelector: string | undefined;
}

/** Whether the request's path is the interaction's, or fits its path rule (`/api/orders/5`). */
function pathFits(interaction: PactInteraction, path: string): boolean {
  if (interaction.request.path === path) return true;
  const list = interaction.request.matchingRules?.path as PactRuleList | undefined;
  if (!list?.matchers?.length) return false;
  const verdicts = list.matchers.map((rule) => matcherVerdict(rule, interaction.request.path, path).fits);
  return list.combine === 'OR' ? verdicts.some(Boolean) : verdicts.every(Boolean);
}

/** Whether `interaction` is among those the state header leaves (all, when none was sent). */
function withinStates(interaction: PactInteraction, selector: string | undefined): boolean {
  const names = (interaction.providerStates ?? []).map((state) => state.name);
  if (selector === undefined || names.length === 0) return true;
  try {
    const pattern = new RegExp(selector);
    return names.some((name) => pattern.test(name));
  } catch {
    return true;
  }
}

/**
 * Among the interactions with the request's method and path (as their path rules allow) and
 * a state the state header names, the one whose body and headers differ least from the
 * request, with the first way its body differs. Undefined when none has that method and path, or the nearest one's body
 * fits (then the body is not why the stub server found no interaction).
 */
export function nearestBodyDifference(
  served: Iterable<ServedInteraction>,
  request: RefusedRequest,
): { nearest: ServedInteraction; difference: string; headers: string[] } | undefined {
  let best: { nearest: ServedInteraction; body: string[]; headers: string[] } | undefined;
  for (const candidate of served) {
    const { interaction } = candidate;
    if (interaction.type !== 'Synchronous/HTTP') continue;
    if (interaction.request.method.toUpperCase() !== request.method.toUpperCase()) continue;
    if (!pathFits(interaction, request.path)) continue;
    if (!withinStates(interaction, request.stateSelector)) continue;
    const body = bodyDifferences(interaction, request.body);
    const headers = headerMismatches(interaction, request.headers);
    if (!best || body.length + headers.length < best.body.length + best.headers.length)
      best = { nearest: candidate, body, headers };
  }
  const difference = best?.body[0];
  return best && difference ? { nearest: best.nearest, difference, headers: best.headers } : undefined;
}
