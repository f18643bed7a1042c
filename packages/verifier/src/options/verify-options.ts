import type { ApiVersion, CreateOrderV1, CreateOrderV2 } from '@print-contracts/client';

/** One credential set of a target. Its secret never leaves the process but towards the target. */
export interface Credentials {
  readonly userId: string;
  readonly secret: string;
}

/**
 * How the run treats the target. `sample`: an unlinked credential set whose answers are
 * sample data. `live`: a linked set, real orders: only test orders are ever created.
 */
export type TargetMode = 'sample' | 'live';

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

/** The create bodies the run orders with, per version: the user's `--order-fixture`, or the kit's example. */
export interface OrderBodies {
  readonly v1: CreateOrderV1;
  readonly v2: CreateOrderV2;
  /** Where they came from, for the console: the fixture file, or the kit's example per version. */
  readonly source: Readonly<Record<ApiVersion, string>>;
}

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
  readonly requestTimeoutMs: number;
  /** The one bound on waiting for an order's asynchronous creation, in every phase of a run. */
  readonly creationTimeoutMs: number;
  readonly pollIntervalMs: number;
  /** How many more times a request is sent to a target that says it is busy (429, 503) or took no connection. */
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

/** What the command line asks for. */
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
