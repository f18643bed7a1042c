// Plain values the matchers and the pact-file normaliser share; no Pact runtime here, so the
// verifier can read pact files without loading pact-js.

/** Escapes `value` for use inside a regular expression. */
export const escapeRegExp = (value: string) => value.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The `[rule, null]` pair `orNull` writes, as it lands in a pact file. */
export const NULL_RULE = { match: 'null' } as const;
