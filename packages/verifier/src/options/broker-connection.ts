import { UsageError } from '../errors/index.js';

type Env = Readonly<Record<string, string | undefined>>;

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

/** The `authorization` header for `auth`, if it holds any credential. */
export function authorizationHeader(auth: BrokerAuth): string | undefined {
  const { token, username, password } = auth;
  if (token) return `Bearer ${token}`;
  return username ? `Basic ${Buffer.from(`${username}:${password ?? ''}`).toString('base64')}` : undefined;
}
