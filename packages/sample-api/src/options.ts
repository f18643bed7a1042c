import { type CredentialSet, checkCredentials, DEMO_CREDENTIALS } from './credentials.js';
import { SampleApiConfigurationError } from './errors/configuration-error.js';
import { type FaultRule, parseFaultRules } from './faults/fault-rule.js';

/** How to start the sample API; every field is optional. */
export interface SampleApiOptions {
  /** Interface to listen on; default `127.0.0.1` (loopback only). */
  host?: string;
  /** Default 0: an ephemeral port, so parallel tests never collide. */
  port?: number;
  /** Credential sets accepted; default `DEMO_CREDENTIALS`. Each set sees only its own orders. */
  credentials?: readonly CredentialSet[];
  /**
   * Default 50. `POST /orders` answers `{uuid}` at once; the order becomes readable (or
   * fails) this many milliseconds later, as the vendor's asynchronous processing does. 0 allowed.
   */
  processingDelayMs?: number;
  /** Default false: enables the control surface under `/__control`. */
  control?: boolean;
  /** Faults to inject from the start; see `FaultRule`. */
  faults?: readonly FaultRule[];
  /** Largest request body accepted; default 1 MiB. Larger bodies get 413. */
  bodyLimitBytes?: number;
  /** Default true: each credential set starts with realistic sample orders. */
  seedOrders?: boolean;
}

export const DEFAULT_PROCESSING_DELAY_MS = 50;
export const DEFAULT_BODY_LIMIT_BYTES = 1024 * 1024;
export const DEFAULT_HOST = '127.0.0.1';

function wholeNumber(name: string, value: number, min: number, max: number): number {
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new SampleApiConfigurationError(
      `${name} must be a whole number from ${min} to ${max}, got ${value}`,
    );
  }
  return value;
}

function flag(name: string, value: unknown, fallback: boolean): boolean {
  if (value === undefined) return fallback;
  if (typeof value !== 'boolean') throw new SampleApiConfigurationError(`${name} must be true or false`);
  return value;
}

/** Fills in defaults and checks every option; a bad one is a `SampleApiConfigurationError` naming it. */
export function resolveOptions(options: SampleApiOptions = {}): Readonly<Required<SampleApiOptions>> {
  const host = options.host ?? DEFAULT_HOST;
  if (typeof host !== 'string' || host.trim() === '') {
    throw new SampleApiConfigurationError('host must be a host name or an IP address, such as 127.0.0.1');
  }
  return {
    host,
    port: wholeNumber('port', options.port ?? 0, 0, 65_535),
    credentials: checkCredentials(options.credentials ?? DEMO_CREDENTIALS),
    processingDelayMs: wholeNumber(
      'processingDelayMs',
      options.processingDelayMs ?? DEFAULT_PROCESSING_DELAY_MS,
      0,
      24 * 3_600_000,
    ),
    control: flag('control', options.control, false),
    faults: parseFaultRules(options.faults ?? []),
    bodyLimitBytes: wholeNumber(
      'bodyLimitBytes',
      options.bodyLimitBytes ?? DEFAULT_BODY_LIMIT_BYTES,
      1,
      2 ** 30,
    ),
    seedOrders: flag('seedOrders', options.seedOrders, true),
  };
}
