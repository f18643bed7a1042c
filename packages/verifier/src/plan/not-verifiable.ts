/**
 * The closed list of reasons an interaction may be "not verifiable here". Each is a property of
 * the target, shown by an observation that does not depend on the interaction under test; anything
 * else is replayed and judged by the contract. `wording` opens every reason given with the code.
 */
export const NOT_VERIFIABLE = {
  'no-control-surface': {
    wording: 'the target has no control surface (see --control), and only one reaches this state',
    shownBy: 'the run was not given --control',
  },
  'no-second-credential-set': {
    wording: 'no second credential set is configured (PRINT_API_OTHER_USER_ID, PRINT_API_OTHER_SECRET)',
    shownBy: 'the environment and flags name none',
  },
  'no-plain-order-readable': {
    wording: 'no plain order this run created became readable within the bound (--creation-timeout)',
    shownBy: 'every plain order of the run and version was polled until its deadline',
  },
  'sample-data-ignores-request': {
    wording:
      'on a sample-data set (--mode sample without --control), the target answers the same whatever the request asks',
    shownBy:
      'the list answered identically with and without a query, or two ids no order has answered the same order',
  },
  'no-listed-order': {
    wording:
      'the target lists no order the state can use, and neither the public API nor a control surface makes one',
    shownBy: 'every page the target lists (up to the bound) and the orders on them, read in full',
  },
  'holds-too-many-orders': {
    wording: 'the credential set holds too many orders for a page past the last one at this offset',
    shownBy: "the list's count, plus the orders the run creates",
  },
  'live-safety': {
    wording: 'live mode: the request could create or change a real order, so it is not sent',
    shownBy: 'the target is live (--mode live) and the request, as the server would route it',
  },
} as const satisfies Record<string, { readonly wording: string; readonly shownBy: string }>;

export type NotVerifiableCode = keyof typeof NOT_VERIFIABLE;

export const isNotVerifiableCode = (code: string | undefined): code is NotVerifiableCode =>
  code !== undefined && Object.hasOwn(NOT_VERIFIABLE, code);

/** A not-verifiable reason: the code's wording, then what was seen. */
export const notVerifiableReason = (code: NotVerifiableCode, seen?: string): string =>
  seen ? `${NOT_VERIFIABLE[code].wording}: ${seen}` : NOT_VERIFIABLE[code].wording;
