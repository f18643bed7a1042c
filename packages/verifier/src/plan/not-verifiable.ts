/**
 * The closed list of reasons an interaction may be "not verifiable here", each code with the
 * wording that opens every reason given with it. Each is a property of the target, shown by an
 * observation that does not depend on the interaction under test (the README's table says which);
 * anything else is replayed and judged by the contract.
 */
export const NOT_VERIFIABLE = {
  'no-control-surface': 'the target has no control surface (see --control), and only one reaches this state',
  'no-second-credential-set':
    'no second credential set is configured (PRINT_API_OTHER_USER_ID, PRINT_API_OTHER_SECRET)',
  'no-plain-order-readable':
    'no plain order this run created became readable within the bound (--creation-timeout)',
  'sample-data-ignores-request':
    'on a sample-data set (--mode sample without --control), the target answers the same whatever the request asks',
  'no-listed-order':
    'the target lists no order the state can use, and neither the public API nor a control surface makes one',
  'holds-too-many-orders':
    'the credential set holds too many orders for a page past the last one at this offset',
  'live-safety': 'live mode: the request could create or change a real order, so it is not sent',
} as const;

export type NotVerifiableCode = keyof typeof NOT_VERIFIABLE;

export const isNotVerifiableCode = (code: string | undefined): code is NotVerifiableCode =>
  code !== undefined && Object.hasOwn(NOT_VERIFIABLE, code);

/** A not-verifiable reason: the code's wording, then what was seen. */
export const notVerifiableReason = (code: NotVerifiableCode, seen?: string): string =>
  seen ? `${NOT_VERIFIABLE[code]}: ${seen}` : NOT_VERIFIABLE[code];
