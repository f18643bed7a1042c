/**
 * Credentials in the contracts are placeholders, matched by type: no real secret ever enters a
 * pact file. At verification the verifier swaps each placeholder for the real value; a header
 * that holds anything else (the wrong secret) or is absent (no credentials) is left alone.
 */
export const PLACEHOLDER_CREDENTIALS = {
  userId: 'example-user-id',
  secret: 'example-api-secret',
} as const;

/** The secret of the "wrong secret" interactions; never replaced at verification. */
export const WRONG_SECRET = 'wrong-api-secret';

/** An id no order has: the consumer chooses it and passes it as the state's parameter. */
export const UNKNOWN_ORDER_ID = 999_999_999;
