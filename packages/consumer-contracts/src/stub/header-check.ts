import type { IncomingHttpHeaders } from 'node:http';
import type { PactInteraction, PactRuleList } from '../pact-files.js';

const flatten = (value: string | string[] | undefined): string | undefined =>
  Array.isArray(value) ? value.join(', ') : value;

/** `application/json; charset=utf-8` → `application/json`, lower case. */
const mediaType = (value: string) => (value.split(';')[0] ?? '').trim().toLowerCase();

/** A comma-separated header value as a list of trimmed items, so `a,b` and `a, b` compare equal. */
const items = (value: string) => value.split(',').map((item) => item.trim());

/** A pact's regex is Rust syntax; one JavaScript cannot read is not held against the request. */
function regexTest(source: string, actual: string): boolean {
  try {
    return new RegExp(source).test(actual);
  } catch {
    return true;
  }
}

function matchesRule(rule: Record<string, unknown>, actual: string, expected: string): boolean {
  switch (rule.match) {
    case 'regex':
      return typeof rule.regex !== 'string' || regexTest(rule.regex, actual);
    case 'equality':
      return items(actual).join(',') === items(expected).join(',');
    case 'include':
      return typeof rule.value === 'string' && actual.includes(rule.value);
    default:
      // `type` and anything this check does not know: presence is enough, never a false refusal.
      return true;
  }
}

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
  const rules = (interaction.request.matchingRules?.header ?? {}) as Record<string, PactRuleList>;
  const ruleFor = (name: string) =>
    Object.entries(rules).find(([key]) => key.toLowerCase() === name.toLowerCase())?.[1];
  const reasons: string[] = [];
  for (const [name, values] of Object.entries(interaction.request.headers ?? {})) {
    const expected = values.join(', ');
    const actual = flatten(headers[name.toLowerCase()]);
    if (actual === undefined || actual.trim() === '') {
      reasons.push(`${name} is missing`);
      continue;
    }
    const list = ruleFor(name);
    if (list && list.matchers.length > 0) {
      const results = list.matchers.map((rule) => matchesRule(rule, actual, expected));
      const fits = list.combine === 'OR' ? results.some(Boolean) : results.every(Boolean);
      if (!fits) reasons.push(`${name} does not match the contract's rule`);
      continue;
    }
    const fits =
      name.toLowerCase() === 'content-type'
        ? mediaType(actual) === mediaType(expected)
        : items(actual).join(',') === items(expected).join(',');
    if (!fits) reasons.push(`${name} must be "${expected}"`);
  }
  return reasons;
}
