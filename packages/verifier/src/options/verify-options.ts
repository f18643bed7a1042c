import type { ApiVersion, CreateOrderV1, CreateOrderV2 } from '@print-contracts/client';
import type { parseVerifyArgs } from './parse-args.js';

/** One credential set; its secret goes nowhere but to the target. */
export interface Credentials {
  readonly userId: string;
  readonly secret: string;
}

/** `other`: a second set, for the tenant-isolation interactions. */
export interface TargetCredentials {
  readonly main: Credentials;
  readonly other: Credentials | undefined;
}

/** `sample`: an unlinked credential set answering sample data; `live`: real orders (test orders only). */
export type TargetMode = 'sample' | 'live';

export type TargetOptions =
  | { readonly kind: 'embedded'; readonly processingDelayMs: number }
  | {
      readonly kind: 'url';
      readonly baseUrl: string;
      readonly mode: TargetMode;
      readonly control: boolean;
      readonly credentials: TargetCredentials;
    };

/** Credentials for the broker's HTTP API: a bearer token, or basic auth. */
export interface BrokerAuth {
  readonly token?: string;
  readonly username?: string;
  readonly password?: string;
}

/** A Pact Broker's base URL (checked by `checkBrokerUrl`) and the credentials for it. */
export interface BrokerConnection {
  readonly url: string;
  readonly auth: BrokerAuth;
}

export interface BrokerOptions extends BrokerConnection {
  readonly selectors: readonly Readonly<Record<string, unknown>>[];
  readonly providerVersion: string | undefined;
  readonly providerBranch: string | undefined;
  readonly publish: boolean;
}

/** The create bodies the run orders with, and where each came from (a fixture or the kit's example). */
export interface OrderBodies {
  readonly v1: CreateOrderV1;
  readonly v2: CreateOrderV2;
  readonly source: Readonly<Record<ApiVersion, string>>;
}

/** The options stage's result: help, a verification, or `--cleanup`. */
export type VerifyCommand = ReturnType<typeof parseVerifyArgs>;

/** Everything `pnpm verify` was asked to do, checked and with defaults filled in. */
export type VerifyOptions = Extract<VerifyCommand, { kind: 'verify' }>['options'];
