import { UsageError } from './errors/usage-error.js';

export type Env = Readonly<Record<string, string | undefined>>;

/** How long `can-i-deploy` and `contracts:publish` wait for the Pact Broker before giving up. */
export const DEFAULT_BROKER_TIMEOUT_SECONDS = 60;

/** The longest bound `--timeout` accepts: a day. */
const MAX_TIMEOUT_SECONDS = 86_400;

/** `--timeout SECONDS` as milliseconds; the default when it is not given. */
export function timeoutMs(value: string | undefined): number {
  if (value === undefined) return DEFAULT_BROKER_TIMEOUT_SECONDS * 1_000;
  const seconds = /^\d+(?:\.\d+)?$/.test(value) ? Number(value) : Number.NaN;
  if (!(seconds > 0 && seconds <= MAX_TIMEOUT_SECONDS)) {
    throw new UsageError(
      `--timeout must be a number of seconds above 0 and at most ${MAX_TIMEOUT_SECONDS}, got "${value.slice(0, 20)}"`,
    );
  }
  return Math.round(seconds * 1_000);
}

/** A broker URL fit to print: http(s), and no credentials in it (they go in the environment). */
export function checkBrokerUrl(value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new UsageError(`the Pact Broker URL "${value.slice(0, 100)}" is not a URL`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new UsageError(`the Pact Broker URL must use http or https, got ${url.protocol}`);
  }
  if (url.username || url.password) {
    // The URL is not echoed: it holds a credential.
    throw new UsageError(
      'the Pact Broker URL must not hold credentials; set PACT_BROKER_USERNAME and PACT_BROKER_PASSWORD instead',
    );
  }
  return value.replace(/\/+$/, '');
}

/**
 * Refuses broker credentials given as arguments, which every user of the machine can read
 * in the process list. The value is never echoed.
 */
export function refuseCredentialArguments(args: readonly string[], shortFlags = ''): void {
  const short = shortFlags ? new RegExp(`^-[${shortFlags}]`) : undefined;
  const given = args.find(
    (arg) => /^--(?:broker-)?(?:token|password|username)(?:=|$)/.test(arg) || (short?.test(arg) ?? false),
  );
  if (given !== undefined) {
    // Only the flag's name: `-kVALUE` and `--broker-token=VALUE` carry the secret itself.
    const flag = given.startsWith('--') ? given.split('=')[0] : given.slice(0, 2);
    throw new UsageError(
      `broker credentials are not accepted as arguments (${flag}); set PACT_BROKER_TOKEN, or PACT_BROKER_USERNAME and PACT_BROKER_PASSWORD`,
    );
  }
}

/** Credentials for the broker's HTTP API: a bearer token, or basic auth. */
export interface BrokerAuth {
  readonly token?: string;
  readonly username?: string;
  readonly password?: string;
}

/** The credentials in the environment: PACT_BROKER_TOKEN, else PACT_BROKER_USERNAME and PACT_BROKER_PASSWORD. */
export function brokerAuth(env: Env): BrokerAuth {
  const token = env.PACT_BROKER_TOKEN?.trim();
  const username = env.PACT_BROKER_USERNAME?.trim();
  const password = env.PACT_BROKER_PASSWORD;
  if (username && !password) throw new UsageError('PACT_BROKER_USERNAME is set without PACT_BROKER_PASSWORD');
  return token ? { token } : username ? { username, password } : {};
}

/** The broker secrets in the environment, as given and as `brokerAuth` sends them, to scrub from everything printed. */
export const brokerSecrets = (env: Env): string[] =>
  [env.PACT_BROKER_TOKEN, env.PACT_BROKER_TOKEN?.trim(), env.PACT_BROKER_PASSWORD].filter(
    (value): value is string => Boolean(value),
  );

/** Which credentials the Pact CLI will send, by the variable's name only. */
export function describeAuth(env: Env): string {
  if (env.PACT_BROKER_TOKEN) return 'bearer token from PACT_BROKER_TOKEN';
  if (env.PACT_BROKER_USERNAME) return 'basic auth from PACT_BROKER_USERNAME and PACT_BROKER_PASSWORD';
  return 'no broker credentials set';
}
