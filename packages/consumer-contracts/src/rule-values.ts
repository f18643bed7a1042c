// Plain values the matchers and the contracts README share; no Pact runtime here, so the
// verifier can read pact files without loading pact-js.

/** Escapes `value` for use inside a regular expression. */
export const escapeRegExp = (value: string) => value.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The regex `orNull` writes: `source` matches, or the value is null. */
export const orNullSource = (source: string) => `(?:${source})|^null$`;

/** The pattern inside a regex that `orNull` wrote, or `undefined` for any other regex. */
export const orNullPattern = (regex: string) => /^\(\?:([\s\S]*)\)\|\^null\$$/.exec(regex)?.[1];
