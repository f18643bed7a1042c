import type { CredentialSet } from '@print-contracts/sample-api';

/** One credential set of the target. `secret` never leaves the process except towards the target. */
export type Credentials = CredentialSet;

/** How the run treats the target (issue 5, DESIGN "Targets and safety"). */
export type TargetMode = 'sample' | 'live';

/** What the run verifies against, once resolved. */
export interface Target {
  /** `embedded`: the sample API started in-process; `url`: given with `--base-url`. */
  readonly kind: 'embedded' | 'url';
  /** Ends in `/api`. */
  readonly baseUrl: string;
  readonly mode: TargetMode;
  /** Origin of the sample API's control surface, when the target has one. */
  readonly controlOrigin: string | undefined;
  readonly credentials: {
    readonly main: Credentials;
    /** A second credential set, for the tenant-isolation interactions. */
    readonly other: Credentials | undefined;
  };
}

/** Every secret the run knows, for redaction. */
export function targetSecrets(target: Target): string[] {
  return [target.credentials.main.secret, target.credentials.other?.secret ?? ''].filter(Boolean);
}
