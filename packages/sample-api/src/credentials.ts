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

/**
 * Environment variable the command line reads credential sets from, so secrets stay out of
 * `ps`: `id:secret` pairs separated by commas or newlines (the first colon splits; a secret
 * with a comma must go through `--credentials`).
 */
export const CREDENTIALS_ENV = 'PRINT_SAMPLE_API_CREDENTIALS';

/**
 * One `id:secret` set as given on the command line or in `CREDENTIALS_ENV`; `source` names
 * where in the message, the value never is (it may hold a secret).
 */
export function parseCredentialSet(text: string, source: string): CredentialSet {
  const colon = text.indexOf(':');
  if (colon <= 0 || colon === text.length - 1) {
    throw new SampleApiConfigurationError(
      `${source} must look like id:secret (the value given is not shown)`,
    );
  }
  return { userId: text.slice(0, colon), secret: text.slice(colon + 1) };
}

/** The sets in `CREDENTIALS_ENV`'s value; `undefined` when it is unset or blank. */
export function credentialsFromEnv(value: string | undefined): CredentialSet[] | undefined {
  if (value === undefined || value.trim() === '') return undefined;
  return value
    .split(/[,\n]/)
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '')
    .map((entry, index) => parseCredentialSet(entry, `${CREDENTIALS_ENV} entry ${index + 1}`));
}

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
