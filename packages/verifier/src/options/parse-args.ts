import { resolve } from 'node:path';
import type { parseArgs } from 'node:util';
import { API_BASE_PATH, API_VERSIONS } from '@print-contracts/client';
import { argsProblem, isJsonObject, parseFlags, withoutUserInfo } from '@print-contracts/client/kit';
import { UsageError } from '../errors/index.js';
import { comparisonInputs } from './comparison.js';
import { type CredentialFlags, mainCredentials, otherCredentials } from './credentials.js';
import { parseJson, readOrderBodies } from './order-fixture.js';
import { checkWritable, defaultContractsDir, defaultOpenApiDir } from './paths.js';
import type { BrokerAuth, TargetMode } from './verify-options.js';

/** Retries of a request that got no answer, or a 503 without `Retry-After`, unless `--retries` says otherwise. */
export const DEFAULT_RETRIES = 4;

type Env = Readonly<Record<string, string | undefined>>;

const OPTIONS = {
  'base-url': { type: 'string' },
  mode: { type: 'string' },
  'user-id': { type: 'string' },
  'secret-file': { type: 'string' },
  'other-user-id': { type: 'string' },
  'other-secret-file': { type: 'string' },
  control: { type: 'boolean' },
  'processing-delay': { type: 'string' },
  'api-version': { type: 'string' },
  pact: { type: 'string', multiple: true },
  'report-dir': { type: 'string' },
  ledger: { type: 'string' },
  strict: { type: 'boolean' },
  quiet: { type: 'boolean' },
  verbose: { type: 'boolean' },
  only: { type: 'string', multiple: true },
  cleanup: { type: 'boolean' },
  'request-timeout': { type: 'string' },
  'creation-timeout': { type: 'string' },
  'poll-interval': { type: 'string' },
  'order-fixture': { type: 'string' },
  retries: { type: 'string' },
  'broker-url': { type: 'string' },
  'consumer-version-selector': { type: 'string', multiple: true },
  'provider-version': { type: 'string' },
  'provider-branch': { type: 'string' },
  publish: { type: 'boolean' },
  baseline: { type: 'string' },
  'known-findings': { type: 'string' },
  openapi: { type: 'string' },
  'fail-on-drift': { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
  version: { type: 'boolean' },
} as const;

type Values = ReturnType<typeof parseArgs<{ options: typeof OPTIONS; strict: true }>>['values'];

/** Embedded runs use a short creation delay: the run still waits for it, and stays fast. */
const EMBEDDED_PROCESSING_DELAY_MS = 20;

/**
 * The one bound on waiting for an order's asynchronous creation, per mode. The vendor processes
 * orders within 5 min and one still 404 after 10 "cannot be placed"; sample-data sets may never
 * process an order, which 6 minutes tells apart.
 */
export const CREATION_TIMEOUT_MS = { sample: 360_000, live: 600_000 } as const;

/** Flags that would put a secret on the command line, where process lists and logs show it. */
const SECRET_FLAGS = /^--(other-)?secret(=|$)|^--(broker-)?(token|password)(=|$)/;

/**
 * The options stage: parses the command line (without the `--` pnpm passes), reads the files it
 * names, and checks that the reports and the ledger can be written. Every problem is a one-line
 * `UsageError`; a value is echoed only for flags that cannot hold a secret.
 */
export function parseVerifyArgs(argv: readonly string[], env: Env, cwd: string) {
  const args = argv[0] === '--' ? argv.slice(1) : [...argv];
  const secretFlag = args.find((arg) => SECRET_FLAGS.test(arg))?.split('=')[0];
  if (secretFlag) {
    throw new UsageError(
      `${secretFlag} is not accepted: secrets never go on the command line; use the environment or a --…-file option`,
    );
  }
  let values: Values;
  try {
    ({ values } = parseFlags({ args, options: OPTIONS, strict: true, allowPositionals: false }));
  } catch (error) {
    throw new UsageError(argsProblem(error, Object.keys(OPTIONS)));
  }
  if (values.help) return { kind: 'help' as const };
  if (values.version) return { kind: 'version' as const };
  if (values.quiet && values.verbose) throw new UsageError('--quiet and --verbose exclude each other');

  const reportDir = resolve(cwd, values['report-dir'] ?? 'reports');
  const ledgerPath = resolve(cwd, values.ledger ?? resolve(reportDir, 'verify-ledger.jsonl'));
  const requestTimeoutMs = wholeNumber(values, 'request-timeout', 10_000);
  const waits = (mode: TargetMode, pollIntervalMs: number) => ({
    /** The one bound on waiting for an order's asynchronous creation, in every phase. */
    creationTimeoutMs: wholeNumber(values, 'creation-timeout', CREATION_TIMEOUT_MS[mode]),
    pollIntervalMs: wholeNumber(values, 'poll-interval', pollIntervalMs),
  });
  const credentialFlags: CredentialFlags = values;
  const retries = wholeNumber(values, 'retries', DEFAULT_RETRIES, 0, 10);
  if (values.cleanup) {
    const unused = Object.keys(values).filter((flag) => !CLEANUP_FLAGS.has(flag));
    if (unused.length > 0) {
      throw new UsageError(
        `${unused.map((flag) => `--${flag}`).join(', ')} ${unused.length === 1 ? 'does' : 'do'} not apply to --cleanup, which finishes the orders the ledger holds on the targets it names`,
      );
    }
    return {
      kind: 'cleanup' as const,
      ledgerPath,
      requestTimeoutMs,
      retries,
      ...waits('live', 1_000),
      credentialFlags,
    };
  }
  const broker = brokerOptions(values, env);
  // Flags of pacts from the broker, with pacts from files: they would be ignored unsaid.
  const brokerOnly = (['publish', 'consumer-version-selector', 'provider-branch'] as const).filter(
    (flag) => values[flag] !== undefined,
  );
  if (values.pact && brokerOnly.length > 0) {
    throw new UsageError(
      `${brokerOnly.map((flag) => `--${flag}`).join(', ')} ${brokerOnly.length === 1 ? 'applies' : 'apply'} to pacts from a Pact Broker, not to --pact files; drop --pact to verify the broker's pacts`,
    );
  }
  // The broker files a result for the whole pact: one of only some of its interactions would read as all verified.
  if (values.publish && values.only) {
    throw new UsageError(
      "--publish does not go with --only: the broker would file the result of a few interactions as the whole pact's",
    );
  }
  const target = targetOptions(values, credentialFlags, env, cwd);
  const version = values['api-version'];
  const options = {
    target,
    apiVersions: version === undefined ? [...API_VERSIONS] : [oneOf('--api-version', version, API_VERSIONS)],
    /** Pact files or folders (`contracts/` unless a broker is configured). */
    pactPaths: values.pact ?? (broker ? [] : [defaultContractsDir(cwd)]),
    broker: values.pact ? undefined : broker,
    reportDir,
    ledgerPath,
    strict: values.strict ?? false,
    /** The console's detail: `--quiet` the matrix and summary, `--verbose` every step. */
    detail: values.quiet ? ('quiet' as const) : values.verbose ? ('verbose' as const) : ('normal' as const),
    /** `--only`: replay just the interactions whose description holds one of these texts. */
    only: values.only,
    requestTimeoutMs,
    ...waits(target.kind === 'url' ? target.mode : 'sample', target.kind === 'embedded' ? 50 : 1_000),
    /** Further tries of a request answered 429 or 503, or not answered at all. */
    retries,
    orderBodies: readOrderBodies(values['order-fixture'], cwd),
    /** An earlier run's report and the acknowledged findings to compare the run with. */
    comparison: comparisonInputs(values, cwd),
    /** The OpenAPI documents answers are compared with; none: drift is not checked. */
    openapiDir: values.openapi === undefined ? defaultOpenApiDir(cwd) : resolve(cwd, values.openapi),
    failOnDrift: values['fail-on-drift'] ?? false,
  };
  checkWritable(reportDir, ledgerPath);
  return { kind: 'verify' as const, options };
}

/** What `--cleanup` reads: the ledger, the credentials, the bounds on its requests and waits. */
const CLEANUP_FLAGS: ReadonlySet<string> = new Set<keyof typeof OPTIONS>([
  ...([
    'cleanup',
    'ledger',
    'report-dir',
    'user-id',
    'secret-file',
    'other-user-id',
    'other-secret-file',
  ] as const),
  ...(['request-timeout', 'creation-timeout', 'poll-interval', 'retries'] as const),
]);

type NumberFlag = 'request-timeout' | 'creation-timeout' | 'poll-interval' | 'processing-delay' | 'retries';
const DAY_MS = 86_400_000;

/** A whole number from `min` to `max`: by default milliseconds, from 1 up to a day. */
function wholeNumber(values: Values, flag: NumberFlag, fallback: number, min = 1, max = DAY_MS): number {
  const value = values[flag];
  if (value === undefined) return fallback;
  if (/^\d+$/.test(value) && Number(value) >= min && Number(value) <= max) return Number(value);
  const what =
    max === DAY_MS
      ? `a whole number of milliseconds from ${min} to ${max} (a day)`
      : `a whole number from ${min} to ${max}`;
  throw new UsageError(`--${flag} must be ${what}, got "${value.slice(0, 20)}"`);
}

function oneOf<T extends string>(flag: string, value: string, choices: readonly T[]): T {
  if ((choices as readonly string[]).includes(value)) return value as T;
  throw new UsageError(`${flag} must be ${choices.join(' or ')}, got "${value}"`);
}

export function targetOptions(values: Values, flags: CredentialFlags, env: Env, cwd: string) {
  const { 'base-url': baseUrl, mode } = values;
  if (baseUrl === undefined) {
    if (mode !== undefined) {
      throw new UsageError(
        '--mode applies to a --base-url target; without one the embedded sample API is verified',
      );
    }
    return {
      kind: 'embedded' as const,
      processingDelayMs: wholeNumber(values, 'processing-delay', EMBEDDED_PROCESSING_DELAY_MS, 0),
    };
  }
  if (values['processing-delay'] !== undefined) {
    throw new UsageError(
      '--processing-delay applies to the embedded sample API only, not to a --base-url target',
    );
  }
  if (mode === undefined) {
    throw new UsageError(
      '--mode sample|live is required with --base-url (no default: a wrong guess could create live orders)',
    );
  }
  const checkedMode = oneOf('--mode', mode, ['sample', 'live'] as const);
  return {
    kind: 'url' as const,
    baseUrl: checkBaseUrl(baseUrl, checkedMode),
    mode: checkedMode,
    control: values.control ?? false,
    credentials: { main: mainCredentials(flags, env, cwd), other: otherCredentials(flags, env, cwd) },
  };
}

/** An http(s) URL without credentials in it (they go in the environment); a message names `what` and never echoes them. */
function checkHttpUrl(value: string, what: string, example: string, elsewhere: string): URL {
  if (!URL.canParse(value))
    throw new UsageError(`${what} "${withoutUserInfo(value)}" is not a URL${example}`);
  const url = new URL(value);
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new UsageError(`${what} must use http or https, got ${url.protocol}`);
  }
  if (url.username || url.password) throw new UsageError(`${what} must not hold credentials; ${elsewhere}`);
  return url;
}

/** A broker URL fit to print: http(s), and no credentials in it; as parsed (no space around it), without a trailing slash. */
export function checkBrokerUrl(value: string): string {
  const elsewhere = 'set PACT_BROKER_USERNAME and PACT_BROKER_PASSWORD instead';
  return checkHttpUrl(value, 'the Pact Broker URL', '', elsewhere).href.replace(/\/+$/, '');
}

/** The base URL without a trailing slash; it must end in `/api`, and use https in live mode. */
function checkBaseUrl(value: string, mode: TargetMode): string {
  const example = `; give one like https://api.example.com${API_BASE_PATH}`;
  const url = checkHttpUrl(value, '--base-url', example, 'use the environment or --user-id/--secret-file');
  if (url.search || url.hash) throw new UsageError('--base-url must not have a query or a fragment');
  const path = url.pathname.replace(/\/+$/, '');
  if (!path.endsWith(API_BASE_PATH)) {
    throw new UsageError(
      `--base-url must end in ${API_BASE_PATH} (the vendor's base address does), got "${url.origin}${url.pathname}"`,
    );
  }
  if (mode === 'live' && url.protocol !== 'https:') {
    throw new UsageError(
      '--mode live needs an https:// base URL; http:// would send live credentials in clear text',
    );
  }
  return `${url.origin}${path}`;
}

/** The credentials in the environment: PACT_BROKER_TOKEN, else PACT_BROKER_USERNAME and PACT_BROKER_PASSWORD. */
function brokerAuth(env: Env): BrokerAuth {
  const token = env.PACT_BROKER_TOKEN?.trim();
  const username = env.PACT_BROKER_USERNAME?.trim();
  const password = env.PACT_BROKER_PASSWORD;
  if (username && !password) throw new UsageError('PACT_BROKER_USERNAME is set without PACT_BROKER_PASSWORD');
  return token ? { token } : username ? { username, password } : {};
}

/** The broker secrets in the environment, as given and as `brokerAuth` sends them, to scrub from everything printed. */
export const brokerSecrets = (env: Env): string[] => {
  const { PACT_BROKER_TOKEN: token, PACT_BROKER_USERNAME: username, PACT_BROKER_PASSWORD: password } = env;
  // The Basic header's value: a short password leaves too little of itself in it to be found alone.
  const basic = [username, username?.trim()].map((name) =>
    name && password ? Buffer.from(`${name}:${password}`).toString('base64') : undefined,
  );
  return [token, token?.trim(), password, ...basic].filter((value): value is string => Boolean(value));
};

function brokerOptions(values: Values, env: Env) {
  const url = values['broker-url'] ?? env.PACT_BROKER_BASE_URL?.trim();
  const { publish = false, 'provider-version': providerVersion } = values;
  if (!url) {
    if (publish)
      throw new UsageError('--publish needs a Pact Broker: pass --broker-url or set PACT_BROKER_BASE_URL');
    return undefined;
  }
  const checkedUrl = checkBrokerUrl(url);
  if (publish && !providerVersion) {
    throw new UsageError(
      '--publish needs --provider-version: the broker files results under a provider version',
    );
  }
  const selectors = (values['consumer-version-selector'] ?? []).map((text) => {
    const selector = parseJson(text);
    if (!isJsonObject(selector)) {
      throw new UsageError(`--consumer-version-selector must be a JSON object, got ${text}`);
    }
    return selector;
  });
  return {
    url: checkedUrl,
    auth: brokerAuth(env),
    selectors: selectors.length > 0 ? selectors : [{ mainBranch: true }, { deployedOrReleased: true }],
    providerVersion,
    providerBranch: values['provider-branch'],
    publish,
  };
}
