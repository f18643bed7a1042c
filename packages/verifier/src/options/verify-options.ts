import type { ApiVersion, CreateOrderV1, CreateOrderV2 } from '@print-contracts/client';

/** One credential set; its secret goes nowhere but to the target. */
export interface Credentials {
  readonly userId: string;
  readonly secret: string;
}

export interface TargetCredentials {
  readonly main: Credentials;
  /** A second set, for the tenant-isolation interactions. */
  readonly other: Credentials | undefined;
}

/** `sample`: an unlinked credential set answering sample data; `live`: real orders (test orders only). */
export type TargetMode = 'sample' | 'live';

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
      readonly credentials: TargetCredentials;
    };

/** The create bodies the run orders with, per version: the user's `--order-fixture`, or the kit's example. */
export interface OrderBodies {
  readonly v1: CreateOrderV1;
  readonly v2: CreateOrderV2;
  /** The fixture file, or the kit's example, per version. */
  readonly source: Readonly<Record<ApiVersion, string>>;
}

/** Everything `pnpm verify` was asked to do, checked and with defaults filled in. */
export interface VerifyOptions {
  readonly target: TargetOptions;
  readonly apiVersions: readonly ApiVersion[];
  /** Pact files or folders (`contracts/` unless a broker is configured). */
  readonly pactPaths: readonly string[];
  readonly broker: BrokerOptions | undefined;
  readonly reportDir: string;
  readonly ledgerPath: string;
  readonly strict: boolean;
  readonly quiet: boolean;
  readonly requestTimeoutMs: number;
  /** The one bound on waiting for an order's asynchronous creation, in every phase. */
  readonly creationTimeoutMs: number;
  readonly pollIntervalMs: number;
  /** Further tries of a request the target said it was busy for (429, 503) or took no connection for. */
  readonly retries: number;
  readonly orderBodies: OrderBodies;
}

/** The credential flags as given, for `--cleanup` (which finds its targets in the ledger). */
export interface CredentialFlags {
  readonly userId?: string;
  readonly secretFile?: string;
  readonly otherUserId?: string;
  readonly otherSecretFile?: string;
}

export type VerifyCommand =
  | { readonly kind: 'help' }
  | { readonly kind: 'verify'; readonly options: VerifyOptions }
  | {
      readonly kind: 'cleanup';
      readonly ledgerPath: string;
      readonly requestTimeoutMs: number;
      readonly creationTimeoutMs: number;
      readonly pollIntervalMs: number;
      readonly credentialFlags: CredentialFlags;
    };
