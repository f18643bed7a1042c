import type { Dispatcher } from 'undici';
import { ConfigurationError } from './errors/configuration-error.js';
import { DEFAULT_BASE_URL } from './operations.js';
import { DEFAULT_RETRY_POLICY, type RetryObserver, type RetryPolicy } from './retry.js';
import { API_VERSIONS, type ApiVersion, DEFAULT_VERSION_HEADER, ENV } from './vendor.js';

export interface VersionHeader {
  name: string;
  /** `{version}` is replaced by `v1` or `v2`. */
  template: string;
}

export interface OrdersClientOptions<V extends ApiVersion = ApiVersion> {
  /** Ends in `/api`; default the vendor's. */
  baseUrl?: string;
  userId: string;
  secret: string;
  /** Default `v2`: v1 is deprecated. */
  apiVersion?: V;
  /** `false` sends no version header at all (the vendor then answers as v1). */
  versionHeader?: VersionHeader | false;
  /** Bound on waiting for the answer's headers, and then for its whole body. Default 30 s. */
  timeoutMs?: number;
  retry?: Partial<RetryPolicy>;
  /** Told of every retry before its wait: to count throttling, or log it. */
  onRetry?: RetryObserver;
  /** An undici dispatcher to send through (a pool, a proxy agent); by default the client owns a keep-alive Agent. */
  dispatcher?: Dispatcher;
  /** Validate bodies and queries before sending (default true). */
  validateRequests?: boolean;
  /**
   * Redirects followed, at most this many per request, on the base URL's own origin only (the
   * credentials go with them), the method and body kept: 301, 302, 307 and 308, and a 303 for a
   * read; a change (create, update, cancel) only to the same resource moved (`/api/orders/42` to
   * `/api/v2/orders/42`, never to another order). Default 0: a redirect is an `HttpError` that says
   * where it points.
   */
  followRedirects?: number;
  /**
   * Extra headers for every request, e.g. a tracing id or the Pact stub server's provider-state
   * header. The credential and version headers always win over these.
   */
  headers?: Readonly<Record<string, string>>;
}

const DEFAULT_TIMEOUT_MS = 30_000;

/**
 * A URL as text with any `user:password@` taken out, for messages: a URL that does not even
 * parse may still carry a password.
 */
export function withoutUserInfo(url: string): string {
  // Up to the last `@`: a password may hold `/`, `?`, `#` or `@` itself, and a URL may lack its scheme.
  return url.replace(/^(\s*[a-z][a-z0-9+.-]*:[\\/]*)?.*@/is, (_all, scheme = '') => `${scheme}…@`);
}

/** Checks the options and fills in defaults; a bad option is a `ConfigurationError` naming it. */
export function resolveOptions<V extends ApiVersion>(options: OrdersClientOptions<V>) {
  const baseUrl = options.baseUrl ?? DEFAULT_BASE_URL;
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    throw new ConfigurationError(
      `baseUrl "${withoutUserInfo(baseUrl)}" is not a URL; give one like ${DEFAULT_BASE_URL}`,
    );
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ConfigurationError(`baseUrl must use http or https, got ${url.protocol}`);
  }
  if (url.username || url.password) {
    throw new ConfigurationError('baseUrl must not hold credentials; pass userId and secret instead');
  }
  if (url.search || url.hash) {
    throw new ConfigurationError('baseUrl must not have a query or fragment');
  }
  for (const key of ['userId', 'secret'] as const) {
    if (typeof options[key] !== 'string' || options[key].trim() === '') {
      const variable = key === 'userId' ? ENV.userId : ENV.secret;
      throw new ConfigurationError(`${key} is missing; pass it or set ${variable}`);
    }
  }
  const apiVersion = (options.apiVersion ?? 'v2') as V;
  if (!API_VERSIONS.includes(apiVersion)) {
    throw new ConfigurationError(
      `apiVersion must be one of ${API_VERSIONS.join(', ')}, got "${String(apiVersion)}"`,
    );
  }
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  if (!Number.isFinite(timeoutMs) || timeoutMs <= 0) {
    throw new ConfigurationError(`timeoutMs must be a positive number of milliseconds, got ${timeoutMs}`);
  }
  const retry = { ...DEFAULT_RETRY_POLICY, ...options.retry };
  if (!Number.isInteger(retry.retries) || retry.retries < 0) {
    throw new ConfigurationError(`retry.retries must be a whole number ≥ 0, got ${retry.retries}`);
  }
  if (!Number.isFinite(retry.budgetMs) || retry.budgetMs < 0) {
    throw new ConfigurationError(
      `retry.budgetMs must be a number of milliseconds ≥ 0, got ${retry.budgetMs}`,
    );
  }
  const followRedirects = options.followRedirects ?? 0;
  if (!Number.isInteger(followRedirects) || followRedirects < 0) {
    throw new ConfigurationError(`followRedirects must be a whole number ≥ 0, got ${followRedirects}`);
  }
  const versionHeader = options.versionHeader ?? DEFAULT_VERSION_HEADER;
  if (versionHeader && (!versionHeader.name || !versionHeader.template.includes('{version}'))) {
    throw new ConfigurationError('versionHeader needs a name and a template containing {version}');
  }
  return {
    origin: url.origin,
    basePath: url.pathname.replace(/\/+$/, ''),
    userId: options.userId,
    secret: options.secret,
    apiVersion,
    versionHeader: versionHeader as VersionHeader | false,
    timeoutMs,
    retry,
    validateRequests: options.validateRequests ?? true,
    followRedirects,
    headers: options.headers ?? {},
    onRetry: options.onRetry,
  };
}

export type ResolvedOptions<V extends ApiVersion> = ReturnType<typeof resolveOptions<V>>;

/** Base URL and credentials from `PRINT_API_BASE_URL`, `PRINT_API_USER_ID` and `PRINT_API_SECRET`. */
export function optionsFromEnv(
  env: Readonly<Record<string, string | undefined>> = process.env,
): Pick<OrdersClientOptions, 'baseUrl' | 'userId' | 'secret'> {
  const pick = (name: string) => env[name]?.trim() || undefined;
  const baseUrl = pick(ENV.baseUrl);
  return { ...(baseUrl ? { baseUrl } : {}), userId: pick(ENV.userId) ?? '', secret: pick(ENV.secret) ?? '' };
}
