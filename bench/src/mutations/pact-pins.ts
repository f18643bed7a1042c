import {
  API_BASE_PATH,
  type ApiVersion,
  type OperationName,
  operations,
  pathPattern,
} from '@print-contracts/client';

/** The parts of a V4 pact file the generator reads. */
export interface PactDocument {
  readonly metadata?: unknown;
  readonly interactions: readonly PactDocumentInteraction[];
}

interface Matcher {
  readonly match: string;
  readonly regex?: string;
  readonly variants?: readonly { readonly rules: Readonly<Record<string, RuleSet>> }[];
}
interface RuleSet {
  readonly combine?: string;
  readonly matchers: readonly Matcher[];
}

interface PactDocumentInteraction {
  readonly description: string;
  readonly request: {
    readonly method: string;
    readonly path: string;
    readonly query?: Readonly<Record<string, readonly string[]>>;
    readonly headers?: Readonly<Record<string, readonly string[]>>;
    readonly body?: { readonly content?: unknown };
  };
  readonly response: {
    readonly status: number;
    readonly body?: { readonly content?: unknown };
    readonly matchingRules?: { readonly body?: Readonly<Record<string, RuleSet>> };
  };
}

/** One response field a pact pins for an operation in one version, and how. */
export interface PinnedField {
  readonly operation: OperationName;
  readonly version: ApiVersion;
  /** `$.orders[*].status`: the field's path in the answer, `[*]` for every element of an array. */
  readonly path: string;
  /** The interactions that pin it. */
  readonly interactions: readonly string[];
  /** Every interaction that pins it lets it be null. */
  readonly nullAllowed: boolean;
  /** Every interaction that pins it lets it be anything at all (a regex matching any text). */
  readonly anyValue: boolean;
  /** Every interaction pins it by a regex that a number's text matches: number or string, both pass. */
  readonly numberOrText: boolean;
}

/** The pact's request, as the operations table names it: method and path pattern. */
export function operationOfRequest(method: string, path: string): OperationName | undefined {
  const bare = path.split('?')[0] ?? path;
  return (Object.keys(operations) as OperationName[]).find(
    (name) =>
      operations[name].method === method.toUpperCase() &&
      pathPattern(operations[name].path, API_BASE_PATH).test(bare),
  );
}

const CATCH_ALL = /^\^\[\\s\\S\]\*\$$/;
/** A pact regex as JavaScript reads it, or undefined when it cannot (`(?i)` and the like). */
const jsRegex = (pattern = '') => {
  try {
    return new RegExp(pattern);
  } catch {
    return undefined;
  }
};
/** An OR with a null rule, or regexes that all take `null` (Pact matches a regex against a non-string's JSON text). */
const allowsNull = (rules: RuleSet) =>
  (rules.combine === 'OR' && rules.matchers.some((m) => m.match === 'null')) ||
  (rules.matchers.length > 0 &&
    rules.matchers.every(
      (m) => m.match === 'regex' && !CATCH_ALL.test(m.regex ?? '') && jsRegex(m.regex)?.test('null') === true,
    ));
const takesNumberText = (rules: RuleSet) =>
  rules.matchers.length > 0 &&
  rules.matchers.every((m) => m.match === 'regex' && jsRegex(m.regex)?.test('12345') === true);
const allowsAnything = (rules: RuleSet) =>
  rules.matchers.length > 0 &&
  rules.matchers.every((m) => m.match === 'regex' && CATCH_ALL.test(m.regex ?? ''));

/** The body paths of a JSON value, `[*]` for array elements; the root `$` is left out. */
function contentPaths(value: unknown, at = '$'): string[] {
  if (Array.isArray(value)) {
    const inner = `${at}[*]`;
    return [...(at === '$' ? [] : [at]), ...value.flatMap((item) => contentPaths(item, inner))].filter(
      (path, index, all) => all.indexOf(path) === index,
    );
  }
  if (value !== null && typeof value === 'object') {
    const own = at === '$' ? [] : [at];
    return [...own, ...Object.entries(value).flatMap(([key, item]) => contentPaths(item, `${at}.${key}`))];
  }
  return at === '$' ? [] : [at];
}

/** Rule paths, the rules of `arrayContains` variants spelled out below their array (`$.lines[*]…`). */
function rulePaths(rules: Readonly<Record<string, RuleSet>>): [string, RuleSet][] {
  return Object.entries(rules).flatMap(([path, set]): [string, RuleSet][] => [
    [path, set],
    ...set.matchers.flatMap((matcher) =>
      (matcher.variants ?? []).flatMap((variant) =>
        rulePaths(variant.rules).map(([inner, innerSet]): [string, RuleSet] => [
          `${path}[*]${inner.slice(1)}`,
          innerSet,
        ]),
      ),
    ),
  ]);
}

/**
 * Every response-body field the pacts pin, by a matching rule or by the value they show, per
 * operation and version: the fields the client relies on. A field pinned by several
 * interactions of one operation is one field; the root of an error body (a message somewhere
 * in it) is a documented behaviour, not a field, and is left to the behaviour mutations.
 */
export function pinnedFields(
  pacts: readonly { version: ApiVersion; document: PactDocument }[],
): PinnedField[] {
  const found = new Map<
    string,
    { field: PinnedField; interactions: string[]; nulls: boolean[]; any: boolean[]; digits: boolean[] }
  >();
  for (const { version, document } of pacts) {
    for (const interaction of document.interactions) {
      const operation = operationOfRequest(interaction.request.method, interaction.request.path);
      if (!operation) continue;
      const rules = new Map(rulePaths(interaction.response.matchingRules?.body ?? {}));
      const paths = new Set([...rules.keys(), ...contentPaths(interaction.response.body?.content)]);
      for (const path of paths) {
        if (path === '$') continue;
        const key = `${operation}|${version}|${path}`;
        const entry = found.get(key) ?? {
          field: {
            operation,
            version,
            path,
            interactions: [],
            nullAllowed: false,
            anyValue: false,
            numberOrText: false,
          },
          interactions: [],
          nulls: [],
          any: [],
          digits: [],
        };
        const set = rules.get(path);
        if (!entry.interactions.includes(interaction.description))
          entry.interactions.push(interaction.description);
        entry.nulls.push(set ? allowsNull(set) : false);
        entry.any.push(set ? allowsAnything(set) : false);
        entry.digits.push(set ? takesNumberText(set) : false);
        found.set(key, entry);
      }
    }
  }
  return [...found.values()]
    .map(({ field, interactions, nulls, any, digits }) => ({
      ...field,
      interactions,
      nullAllowed: nulls.every(Boolean),
      anyValue: any.every(Boolean),
      numberOrText: digits.every(Boolean),
    }))
    .sort((a, b) =>
      `${a.version}${a.operation}${a.path}`.localeCompare(`${b.version}${b.operation}${b.path}`),
    );
}
