import { SampleApiConfigurationError } from './errors/configuration-error.js';

/** One credential set the simulator accepts: the `User-ID` and `API-Secret` header values. */
export interface CredentialSet {
  userId: string;
  secret: string;
}

/**
 * Public demo credentials, printed by the command line so anyone can try the simulator.
 * `[0]` is the main demo set, `[1]` a second tenant for isolation tests. They protect
 * nothing: the simulator holds only sample data.
 */
export const DEMO_CREDENTIALS: readonly CredentialSet[] = Object.freeze([
  Object.freeze({ userId: 'demo-user', secret: 'demo-secret' }),
  Object.freeze({ userId: 'other-user', secret: 'other-secret' }),
]);

/** Visible ASCII, inner spaces allowed: what survives an HTTP header unchanged. */
const HEADER_SAFE = /^[\x21-\x7e](?:[\x20-\x7e]*[\x21-\x7e])?$/;

/** Checks credential sets before the server starts; never puts a secret in the message. */
export function checkCredentials(sets: readonly CredentialSet[]): readonly CredentialSet[] {
  if (!Array.isArray(sets) || sets.length === 0) {
    throw new SampleApiConfigurationError('credentials must hold at least one {userId, secret} set');
  }
  const seen = new Set<string>();
  return sets.map((set, index) => {
    const { userId, secret } = (set ?? {}) as Partial<CredentialSet>;
    if (typeof userId !== 'string' || !HEADER_SAFE.test(userId)) {
      throw new SampleApiConfigurationError(
        `credentials[${index}].userId must be non-empty visible ASCII (it travels in the User-ID header)`,
      );
    }
    if (typeof secret !== 'string' || !HEADER_SAFE.test(secret)) {
      throw new SampleApiConfigurationError(
        `credentials[${index}].secret (for user "${userId}") must be non-empty visible ASCII`,
      );
    }
    if (seen.has(userId)) {
      throw new SampleApiConfigurationError(
        `credentials name user "${userId}" twice; each set needs its own id`,
      );
    }
    seen.add(userId);
    return Object.freeze({ userId, secret });
  });
}
