import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { API_BASE_PATH, API_VERSIONS, type ApiVersion, withoutUserInfo } from '@print-contracts/client';
import { UsageError } from '../errors/usage-error.js';
import { mainCredentials, otherCredentials } from './credentials.js';
import { readOrderBodies } from './order-fixture.js';
import { checkWritable, defaultContractsDir } from './paths.js';
import type {
  BrokerOptions,
  CredentialFlags,
  TargetMode,
  TargetOptions,
  VerifyCommand,
  VerifyOptions,
} from './verify-options.js';

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
  help: { type: 'boolean', short: 'h' },
} as const;

/** Embedded runs use a short creation delay: the run still waits for it, and stays fast. */
export const EMBEDDED_PROCESSING_DELAY_MS = 20;
const DEFAULT_SELECTORS = [{ mainBranch: true }, { deployedOrReleased: true }];

/**
 * The one bound on waiting for an order's asynchronous creation, per mode. The docs: orders
 * are processed 30 s to 5 min after creation, and one still 404 after 10 minutes "cannot
 * be placed". Sample-data sets may never process an order: 6 minutes tells that apart.
 */
export const CREATION_TIMEOUT_MS = { sample: 360_000, live: 600_000 } as const;

/** Flags that would put a secret on the command line, where process lists and logs show it. */
const SECRET_FLAGS = /^--(other-)?secret(=|$)|^--(broker-)?(token|password)(=|$)/;

/**
 * The options stage: parses the command line (dropping the leading `--` pnpm passes), reads
 * the secret and fixture files it names, and checks that the reports and the ledger can be
 * written. Every problem is a one-line `UsageError`; a value is echoed only for flags that
 * cannot hold a secret.
 */
export function parseVerifyArgs(argv: readonly string[], env: Env, cwd: string): VerifyCommand {
  const args = argv[0] === '--' ? argv.slice(1) : [...argv];
  const secretFlag = args.find((arg) => SECRET_FLAGS.test(arg));
  if (secretFlag) {
    const name = secretFlag.split('=')[0];
    throw new UsageError(
      `${name} is not accepted: secrets never go on the command line; use the environment or a --…-file option`,
    );
  }
  let values: Values;
  try {
    ({ values } = parseArgs({ args, options: OPTIONS, strict: true, allowPositionals: false }));
  } catch (error) {
    throw new UsageError(oneLine((error as Error).message));
  }
  if (values.help) return { kind: 'help' };

  const reportDir = resolve(cwd, values['report-dir'] ?? 'reports');
  const ledgerPath = resolve(cwd, values.ledger ?? resolve(reportDir, 'verify-ledger.jsonl'));
  const requestTimeoutMs = milliseconds('--request-timeout', values['request-timeout'], 10_000);
  const creationTimeoutMs = (fallback: number) =>
    milliseconds('--creation-timeout', values['creation-timeout'], fallback);
  const pollIntervalMs = (fallback: number) =>
    milliseconds('--poll-interval', values['poll-interval'], fallback);
  const credentialFlags = {
    userId: values['user-id'],
    secretFile: values['secret-file'],
    otherUserId: values['other-user-id'],
    otherSecretFile: values['other-secret-file'],
  };
  if (values.cleanup) {
    return {
      kind: 'cleanup',
      ledgerPath,
      requestTimeoutMs,
      creationTimeoutMs: creationTimeoutMs(CREATION_TIMEOUT_MS.live),
      pollIntervalMs: pollIntervalMs(1_000),
      credentialFlags,
    };
  }
  const broker = brokerOptions(values, env);
  const target = targetOptions(values, credentialFlags, env, cwd);
  const mode = target.kind === 'url' ? target.mode : 'sample';
  const options: VerifyOptions = {
    target,
    apiVersions: apiVersions(values['api-version']),
    pactPaths: values.pact ?? (broker ? [] : [defaultContractsDir(cwd)]),
    broker: values.pact ? undefined : broker,
    reportDir,
    ledgerPath,
    strict: values.strict ?? false,
    quiet: values.quiet ?? false,
    requestTimeoutMs,
    creationTimeoutMs: creationTimeoutMs(CREATION_TIMEOUT_MS[mode]),
    pollIntervalMs: pollIntervalMs(target.kind === 'embedded' ? 50 : 1_000),
    retries: count('--retries', values.retries, 4, 10),
    orderBodies: readOrderBodies(values['order-fixture'], cwd),
  };
  checkWritable(reportDir, ledgerPath);
  return { kind: 'verify', options };
}

function oneLine(message: string): string {
  return message.split('\n')[0]?.replace(/\. To specify a positional argument.*$/, '') ?? message;
}

function milliseconds(flag: string, value: string | undefined, fallback: number, min = 1): number {
  if (value === undefined) return fallback;
  if (!/^\d+$/.test(value) || Number(value) < min || Number(value) > 86_400_000) {
    throw new UsageError(`${flag} must be a whole number of milliseconds (${min} or more), got "${value}"`);
  }
  return Number(value);
}

function count(flag: string, value: string | undefined, fallback: number, max: number): number {
  if (value === undefined) return fallback;
  if (!/^\d+$/.test(value) || Number(value) > max) {
    throw new UsageError(`${flag} must be a whole number from 0 to ${max}, got "${value.slice(0, 20)}"`);
  }
  return Number(value);
}

function apiVersions(value: string | undefined): ApiVersion[] {
  if (value === undefined) return [...API_VERSIONS];
  if (!(API_VERSIONS as readonly string[]).includes(value)) {
    throw new UsageError(`--api-version must be ${API_VERSIONS.join(' or ')}, got "${value}"`);
  }
  return [value as ApiVersion];
}

type Values = ReturnType<typeof parseArgs<{ options: typeof OPTIONS; strict: true }>>['values'];

function targetOptions(values: Values, flags: CredentialFlags, env: Env, cwd: string): TargetOptions {
  const { 'base-url': baseUrl, mode } = values;
  if (baseUrl === undefined) {
    if (mode !== undefined) {
      throw new UsageError(
        '--mode applies to a --base-url target; without one the embedded sample API is verified',
      );
    }
    const delay = values['processing-delay'];
    return {
      kind: 'embedded',
      processingDelayMs: milliseconds('--processing-delay', delay, EMBEDDED_PROCESSING_DELAY_MS, 0),
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
  if (mode !== 'sample' && mode !== 'live')
    throw new UsageError(`--mode must be sample or live, got "${mode}"`);
  return {
    kind: 'url',
    baseUrl: checkBaseUrl(baseUrl, mode),
    mode,
    control: values.control ?? false,
    credentials: { main: mainCredentials(flags, env, cwd), other: otherCredentials(flags, env, cwd) },
  };
}

/** The base URL without a trailing slash; it must end in `/api`, and use https in live mode. */
export function checkBaseUrl(value: string, mode: TargetMode): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new UsageError(
      `--base-url "${withoutUserInfo(value)}" is not a URL; give one like https://api.example.com${API_BASE_PATH}`,
    );
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new UsageError(`--base-url must use http or https, got ${url.protocol}`);
  }
  if (url.username || url.password) {
    throw new UsageError(
      '--base-url must not hold credentials; use the environment or --user-id/--secret-file',
    );
  }
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

function brokerOptions(values: Values, env: Env): BrokerOptions | undefined {
  const url = values['broker-url'] ?? env.PACT_BROKER_BASE_URL?.trim();
  const publish = values.publish ?? false;
  const providerVersion = values['provider-version'];
  if (!url) {
    if (publish)
      throw new UsageError('--publish needs a Pact Broker: pass --broker-url or set PACT_BROKER_BASE_URL');
    return undefined;
  }
  if (!/^https?:$/.test(URL.canParse(url) ? new URL(url).protocol : '')) {
    throw new UsageError(`the Pact Broker URL "${url}" is not an http(s) URL`);
  }
  if (publish && !providerVersion) {
    throw new UsageError(
      '--publish needs --provider-version: the broker files results under a provider version',
    );
  }
  const selectors = (values['consumer-version-selector'] ?? []).map((text) => {
    let selector: unknown;
    try {
      selector = JSON.parse(text);
    } catch {
      // Refused below, like any value that is not an object.
    }
    if (selector === null || typeof selector !== 'object' || Array.isArray(selector)) {
      throw new UsageError(`--consumer-version-selector must be a JSON object, got ${text}`);
    }
    return selector as Record<string, unknown>;
  });
  const token = env.PACT_BROKER_TOKEN?.trim();
  const username = env.PACT_BROKER_USERNAME?.trim();
  const password = env.PACT_BROKER_PASSWORD;
  if (username && !password) throw new UsageError('PACT_BROKER_USERNAME is set without PACT_BROKER_PASSWORD');
  return {
    url: url.replace(/\/+$/, ''),
    auth: token ? { token } : username ? { username, password } : {},
    selectors: selectors.length > 0 ? selectors : DEFAULT_SELECTORS,
    providerVersion,
    providerBranch: values['provider-branch'],
    publish,
  };
}
