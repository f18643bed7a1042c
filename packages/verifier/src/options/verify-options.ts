import type { readOrderBodies } from './order-fixture.js';
import type { parseVerifyArgs, targetOptions } from './parse-args.js';

/** One credential set; its secret goes nowhere but to the target. */
export interface Credentials {
  readonly userId: string;
  readonly secret: string;
}

/** `sample`: an unlinked credential set answering sample data; `live`: real orders (test orders only). */
export type TargetMode = 'sample' | 'live';

/** The embedded sample API, or a URL target with its credentials. */
export type TargetOptions = ReturnType<typeof targetOptions>;

/** `other`: a second set, for the tenant-isolation interactions. */
export type TargetCredentials = Extract<TargetOptions, { kind: 'url' }>['credentials'];

/** Credentials for the broker's HTTP API: a bearer token, or basic auth. */
export interface BrokerAuth {
  readonly token?: string;
  readonly username?: string;
  readonly password?: string;
}

export type BrokerOptions = NonNullable<VerifyOptions['broker']>;

/** A Pact Broker's base URL (checked by `checkBrokerUrl`) and the credentials for it. */
export type BrokerConnection = Pick<BrokerOptions, 'url' | 'auth'>;

/** The create bodies the run orders with, and where each came from (a fixture or the kit's example). */
export type OrderBodies = ReturnType<typeof readOrderBodies>;

/** The options stage's result: help, a verification, or `--cleanup`. */
export type VerifyCommand = ReturnType<typeof parseVerifyArgs>;

/** Everything `pnpm verify` was asked to do, checked and with defaults filled in. */
export type VerifyOptions = Extract<VerifyCommand, { kind: 'verify' }>['options'];
