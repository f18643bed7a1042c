import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import { SECRET_HEADER, USER_ID_HEADER } from '@print-contracts/client';
import type { CredentialSet } from './credentials.js';
import { ApiAnswerError } from './errors/api-answer-error.js';

const USER_ID = USER_ID_HEADER.toLowerCase();
const SECRET = SECRET_HEADER.toLowerCase();

const digest = (value: string) => createHash('sha256').update(value, 'utf8').digest();

/** Compared against when the user id is unknown, so both refusals take the same time. */
const NO_SUCH_USER = digest('\u0000no-such-user\u0000');

/**
 * Checks the credential headers of every `/api` request before it is routed. Secrets are
 * kept as SHA-256 digests and compared in constant time; an unknown user and a wrong secret
 * get the same answer, so the refusal does not tell which user ids exist.
 */
export class Authenticator {
  readonly #digests = new Map<string, Buffer>();

  constructor(credentials: readonly CredentialSet[]) {
    for (const set of credentials) this.#digests.set(set.userId, digest(set.secret));
  }

  /** The user id of the credential set the request carries; throws a 401 answer otherwise. */
  authenticate(headers: IncomingHttpHeaders): string {
    const userId = headers[USER_ID];
    const secret = headers[SECRET];
    if (typeof userId !== 'string' || userId === '' || typeof secret !== 'string' || secret === '') {
      throw new ApiAnswerError(
        401,
        `Missing credentials: send the ${USER_ID_HEADER} and ${SECRET_HEADER} headers of a credential set`,
      );
    }
    const expected = this.#digests.get(userId);
    const matches = timingSafeEqual(digest(secret), expected ?? NO_SUCH_USER);
    if (!matches || expected === undefined) {
      throw new ApiAnswerError(
        401,
        `Invalid credentials: the ${USER_ID_HEADER} and ${SECRET_HEADER} headers do not match a credential set`,
      );
    }
    return userId;
  }
}
