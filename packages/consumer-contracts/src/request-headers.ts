import type { TemplateHeaders } from '@pact-foundation/pact';
import { MatchersV3 } from '@pact-foundation/pact';
import {
  type ApiVersion,
  DEFAULT_VERSION_HEADER,
  PLACEHOLDER_CREDENTIALS,
  SECRET_HEADER,
  USER_ID_HEADER,
  versionHeaderValue,
  WRONG_SECRET,
} from '@print-contracts/client';

/**
 * Which credentials a request carries. `placeholders`: the credential set, as placeholders
 * the verifier swaps for real values. `wrong-secret`: the right user id with a secret that
 * is not its own. `none`: no credential headers at all.
 */
export type CredentialsSent = 'placeholders' | 'wrong-secret' | 'none';

/** How the client of one interaction is set up; the pact's request headers follow from it. */
export interface ClientSetup {
  /** Default `placeholders`. */
  credentials?: CredentialsSent;
  /** `false`: the client sends no version header (the vendor then answers as v1). Default true. */
  versionHeader?: boolean;
}

/**
 * The headers the client sends for `version` with `setup`, as the pact expects them: the
 * version header pinned exactly, credentials matched by type with placeholder examples (the
 * wrong secret pinned, so the verifier leaves it wrong).
 */
export function requestHeaders(version: ApiVersion, setup: ClientSetup = {}): TemplateHeaders {
  const { credentials = 'placeholders', versionHeader = true } = setup;
  const headers: TemplateHeaders = {};
  if (versionHeader) headers[DEFAULT_VERSION_HEADER.name] = versionHeaderValue(version);
  if (credentials !== 'none') headers[USER_ID_HEADER] = MatchersV3.like(PLACEHOLDER_CREDENTIALS.userId);
  if (credentials === 'placeholders')
    headers[SECRET_HEADER] = MatchersV3.like(PLACEHOLDER_CREDENTIALS.secret);
  if (credentials === 'wrong-secret') headers[SECRET_HEADER] = WRONG_SECRET;
  return headers;
}
