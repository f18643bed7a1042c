import type { TargetCredentials, TargetMode } from '../options/verify-options.js';

/** Which credential set of the target a request or an order belongs to. */
export type CredentialRole = 'main' | 'other';

/** What the run verifies against: the sample API in-process, or a `--base-url`. */
export interface Target {
  readonly kind: 'embedded' | 'url';
  /** Ends in `/api`. */
  readonly baseUrl: string;
  readonly mode: TargetMode;
  /** Origin of the sample API's control surface, when the target has one. */
  readonly controlOrigin: string | undefined;
  readonly credentials: TargetCredentials;
}

/** Every secret the run knows of the target, for redaction. */
export function targetSecrets(target: Target): string[] {
  return [target.credentials.main.secret, target.credentials.other?.secret ?? ''].filter(Boolean);
}
