import { argsProblem, CONSUMER_NAME, parseFlags } from '@print-contracts/client/kit';
import { checkBrokerUrl, UsageError } from '@print-contracts/verifier';
import {
  type BrokerIo,
  DEFAULT_BROKER_TIMEOUT_SECONDS,
  type Env,
  refuseCredentialArguments,
  runBrokerCommand,
  runBrokerTool,
  timeoutMs,
} from './broker-command.js';

/** What `pnpm can-i-deploy` asks, of which broker, within which bound. */
export interface CanIDeployOptions {
  readonly brokerUrl: string;
  /** The arguments after `pact`: `broker can-i-deploy …`, the broker URL included, no credential. */
  readonly args: readonly string[];
  readonly timeoutMs: number;
  /** `print-order-client version abc123 can be deployed to environment production`, for the first line. */
  readonly question: string;
}

const CAN_I_DEPLOY_USAGE = `Usage: pnpm can-i-deploy [--timeout SECONDS] [pact broker can-i-deploy options]

Asks a Pact Broker whether a version can be deployed, with the official Pact CLI
(\`pact broker can-i-deploy\`, from @pact-foundation/pact-cli), and gives up after a bound.

  --timeout SECONDS         Give up when the broker has not answered after this long
                            (default ${DEFAULT_BROKER_TIMEOUT_SECONDS}); the Pact CLI is stopped.
  --broker-base-url URL     The broker (default: PACT_BROKER_BASE_URL).
  --pacticipant NAME        Default ${CONSUMER_NAME}; then --version V, --branch B, --latest …
  --to-environment ENV      The environment to deploy to (or --to TAG).
  --help                    Show this help.
  --version                 Alone: print the package version (with a value: Pact's pacticipant version).
  The other options of \`pact broker can-i-deploy\` (see its --help) are passed on in order,
  e.g. --output json, --retry-while-unknown N --retry-interval S, --dry-run. An option it does
  not have, or a value it refuses (--output xml), exits 2 before the broker is asked.

Credentials come from the environment only: PACT_BROKER_TOKEN, or PACT_BROKER_USERNAME and
PACT_BROKER_PASSWORD; as arguments they are refused. They are never printed.

Exit status: 0 can be deployed; 1 cannot (or the broker refused the query: its message is
printed); 2 bad arguments; 3 no answer from the broker (unreachable, or nothing within
--timeout); 130 stopped by SIGINT; 143 stopped by SIGTERM.`;

/**
 * The options of `pact broker can-i-deploy` (its `--help`, Pact CLI 18), with the wrapper's own
 * `--timeout`; credentials are refused before. Per-pacticipant options repeat. `--latest` takes
 * an optional tag, which `parseArgs` cannot say: it is the positional right after it.
 */
const CAN_I_DEPLOY_OPTIONS = {
  timeout: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
  'broker-base-url': { type: 'string', short: 'b' },
  pacticipant: { type: 'string', short: 'a', multiple: true },
  version: { type: 'string', short: 'e', multiple: true },
  latest: { type: 'boolean', short: 'l', multiple: true },
  tag: { type: 'string', multiple: true },
  branch: { type: 'string', multiple: true },
  'main-branch': { type: 'boolean', multiple: true },
  'no-main-branch': { type: 'string', multiple: true },
  'skip-main-branch': { type: 'string', multiple: true },
  ignore: { type: 'string', multiple: true },
  'to-environment': { type: 'string' },
  to: { type: 'string' },
  output: { type: 'string', short: 'o' },
  'retry-while-unknown': { type: 'string' },
  'retry-interval': { type: 'string' },
  'dry-run': { type: 'boolean' },
  'custom-header': { type: 'string', multiple: true },
  retries: { type: 'string' },
  'ssl-certificate': { type: 'string', short: 'c' },
  'skip-ssl-verification': { type: 'boolean' },
  'ssl-trust-store': { type: 'string' },
  'log-level': { type: 'string' },
  'enable-otel': { type: 'boolean' },
  'enable-otel-logs': { type: 'boolean' },
  'enable-otel-traces': { type: 'boolean' },
  'otel-exporter': { type: 'string' },
  'otel-exporter-endpoint': { type: 'string' },
  'otel-exporter-protocol': { type: 'string' },
} as const;

type OptionName = keyof typeof CAN_I_DEPLOY_OPTIONS;

/** The values the Pact CLI accepts where it has a list of them. */
const CHOICES: Partial<Record<OptionName, readonly string[]>> = {
  output: ['json', 'table'],
  'log-level': ['off', 'none', 'error', 'warn', 'info', 'debug', 'trace'],
  'otel-exporter-protocol': ['http', 'http/protobuf'],
  'ssl-trust-store': ['true', 'false'],
};

/** The values the Pact CLI reads as a count. */
const COUNTS: readonly OptionName[] = ['retries'];

const orList = (words: readonly string[]) => `${words.slice(0, -1).join(', ')} or ${words.at(-1)}`;

/** Refuses a value the Pact CLI would refuse, naming the flag. */
function checkValue(name: OptionName, value: string): void {
  const choices = CHOICES[name];
  if (choices && !choices.includes(value)) {
    throw new UsageError(`--${name} must be ${orList(choices)}, got "${value.slice(0, 20)}"`);
  }
  if (COUNTS.includes(name) && !/^\d+$/.test(value)) {
    throw new UsageError(`--${name} must be a whole number, got "${value.slice(0, 20)}"`);
  }
}

/** One `--pacticipant` and what follows it, for the first line. */
interface Selector {
  name: string;
  version?: string;
  latest?: string | true;
  branch?: string;
  mainBranch?: boolean;
}

function describeSelector(selector: Selector): string {
  if (selector.version) return `${selector.name} version ${selector.version}`;
  if (selector.mainBranch) return `${selector.name} (latest of its main branch)`;
  if (selector.branch) return `${selector.name} (latest of branch ${selector.branch})`;
  if (selector.latest)
    return `${selector.name} (latest${selector.latest === true ? '' : ` tagged ${selector.latest}`})`;
  return selector.name;
}

/** `parseFlags` over the options table, in order (`tokens`); throws `UsageError`. */
function parseOptions(args: readonly string[]) {
  try {
    return parseFlags({
      // `--latest=TAG` as `--latest TAG`: the tag is the positional after it.
      args: args.flatMap((arg) => (arg.startsWith('--latest=') ? ['--latest', arg.slice(9)] : [arg])),
      strict: true,
      allowPositionals: true,
      tokens: true,
      options: CAN_I_DEPLOY_OPTIONS,
    });
  } catch (error) {
    throw new UsageError(argsProblem(error, Object.keys(CAN_I_DEPLOY_OPTIONS)));
  }
}

/**
 * Parses the command line of `pnpm can-i-deploy` (a leading `--` is accepted): its own
 * `--timeout` and `--help`, the broker URL (flag or `PACT_BROKER_BASE_URL`), and the options of
 * `pact broker can-i-deploy`, checked here and passed on in their order; `--pacticipant`
 * defaults to the kit's consumer. `undefined` means `--help`. Throws `UsageError`, never
 * echoing a credential, before anything is contacted.
 */
export function parseCanIDeployArgs(
  argv: readonly string[],
  env: Env,
): CanIDeployOptions | 'version' | undefined {
  const given = argv[0] === '--' ? argv.slice(1) : [...argv];
  // `--version V` is Pact's pacticipant version; `--version` alone asks for the kit's.
  if (given.length === 1 && given[0] === '--version') return 'version';
  refuseCredentialArguments(given, 'kpu');
  const { values, tokens } = parseOptions(given);
  if (values.help) return undefined;
  let timeout: string | undefined;
  let brokerUrl: string | undefined;
  let environment: string | undefined;
  const selectors: Selector[] = [];
  const passOn: string[] = [];
  const seen = new Set<OptionName>();
  for (const [index, token] of tokens.entries()) {
    const before = tokens[index - 1];
    const current = selectors.at(-1);
    if (token.kind === 'positional') {
      if (before?.kind !== 'option' || before.name !== 'latest' || before.inlineValue) {
        throw new UsageError(`Unexpected argument '${token.value.slice(0, 40)}'`);
      }
      if (current) current.latest = token.value;
      passOn.push(token.value);
      continue;
    }
    if (token.kind !== 'option') continue;
    const name = token.name as OptionName;
    const { value } = token;
    if (value !== undefined) checkValue(name, value);
    if (name === 'timeout') timeout = value;
    else if (name === 'broker-base-url') brokerUrl = value;
    else {
      if (name === 'pacticipant') selectors.push({ name: value as string });
      else if (name === 'version' && current) current.version = value;
      else if (name === 'branch' && current) current.branch = value;
      else if (name === 'main-branch' && current) current.mainBranch = true;
      else if (name === 'latest' && current) current.latest = true;
      else if (name === 'to-environment') environment = `environment ${value}`;
      else if (name === 'to') environment = `the versions tagged ${value}`;
      // A switch given twice means it once; the Pact CLI refuses the repeat.
      if (value === undefined && !('multiple' in CAN_I_DEPLOY_OPTIONS[name]) && seen.has(name)) continue;
      seen.add(name);
      passOn.push(
        ...(token.inlineValue
          ? [`--${name}=${value}`]
          : [token.rawName, ...(value === undefined ? [] : [value])]),
      );
    }
  }
  const url = brokerUrl ?? env.PACT_BROKER_BASE_URL?.trim();
  if (!url) throw new UsageError('no Pact Broker: pass --broker-base-url or set PACT_BROKER_BASE_URL');
  const checkedUrl = checkBrokerUrl(url);
  // The Pact CLI wants --version after the --pacticipant it belongs to: the default goes first.
  if (selectors.length === 0) {
    const version = values.version?.[0];
    selectors.push({ name: CONSUMER_NAME, ...(version ? { version } : {}) });
    passOn.unshift('--pacticipant', CONSUMER_NAME);
  }
  const who = selectors.map(describeSelector).join(' with ');
  return {
    brokerUrl: checkedUrl,
    args: ['broker', 'can-i-deploy', ...passOn, '--broker-base-url', checkedUrl],
    timeoutMs: timeoutMs(timeout),
    question: `${who} can be deployed${environment ? ` to ${environment}` : ''}`,
  };
}

/**
 * `pnpm can-i-deploy` as a function: asks the Pact Broker with the official
 * `pact broker can-i-deploy` within `--timeout`, and resolves with a status of `BROKER_EXIT_CODES`.
 */
export const runCanIDeploy = (argv: readonly string[], io: BrokerIo): Promise<number> =>
  runBrokerTool(
    {
      tool: 'can-i-deploy',
      usage: CAN_I_DEPLOY_USAGE,
      parse: (given, { env }) => parseCanIDeployArgs(given, env),
      run: ({ question, ...options }, runIo) =>
        runBrokerCommand(
          {
            tool: 'can-i-deploy',
            purpose: `asking the Pact Broker at ${options.brokerUrl} whether ${question}`,
            ...options,
          },
          runIo,
        ),
    },
    argv,
    io,
  );
