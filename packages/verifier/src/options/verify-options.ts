import type { ApiVersion } from '@print-contracts/client';
import type { Credentials, TargetMode } from '../target/target.js';

/** What the broker options say, once checked. */
export interface BrokerOptions {
  readonly url: string;
  readonly auth: { readonly token?: string; readonly username?: string; readonly password?: string };
  readonly selectors: readonly Readonly<Record<string, unknown>>[];
  readonly providerVersion: string | undefined;
  readonly providerBranch: string | undefined;
  readonly publish: boolean;
}

export type TargetOptions =
  | { readonly kind: 'embedded'; readonly processingDelayMs: number }
  | {
      readonly kind: 'url';
      readonly baseUrl: string;
      readonly mode: TargetMode;
      readonly control: boolean;
      readonly credentials: { readonly main: Credentials; readonly other: Credentials | undefined };
    };

/** Everything `pnpm verify` was asked to do, checked and with defaults filled in. */
export interface VerifyOptions {
  readonly target: TargetOptions;
  readonly apiVersions: readonly ApiVersion[];
  /** Pact files or folders; the default is `contracts/` unless a broker is configured. */
  readonly pactPaths: readonly string[];
  readonly broker: BrokerOptions | undefined;
  readonly reportDir: string;
  readonly ledgerPath: string;
  readonly strict: boolean;
  readonly quiet: boolean;
  readonly cleanup: boolean;
  readonly requestTimeoutMs: number;
  readonly creationTimeoutMs: number;
  readonly pollIntervalMs: number;
  /** The credential flags as given, for `--cleanup` (which finds its targets in the ledger). */
  readonly credentialFlags: CredentialFlags;
}

export interface CredentialFlags {
  readonly userId?: string;
  readonly secretFile?: string;
  readonly otherUserId?: string;
  readonly otherSecretFile?: string;
}
