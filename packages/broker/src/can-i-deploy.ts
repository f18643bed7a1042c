import { CONSUMER_NAME } from '@print-contracts/client/kit';
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
  Every other option goes to \`pact broker can-i-deploy\` as given (see its --help), e.g.
  --output json, --retry-while-unknown N --retry-interval S, --dry-run.

Credentials come from the environment only: PACT_BROKER_TOKEN, or PACT_BROKER_USERNAME and
PACT_BROKER_PASSWORD; as arguments they are refused. They are never printed.

Exit status: 0 can be deployed; 1 cannot (or the broker refused the query: its message is
printed); 2 bad arguments; 3 no answer from the broker (unreachable, or nothing within
--timeout); 130 stopped by SIGINT; 143 stopped by SIGTERM.`;

/** Options of `pact broker can-i-deploy` that take a value, short and long. */
const VALUE_FLAGS = new Set([
  '-a',
  '--pacticipant',
  '-e',
  '--version',
  '--tag',
  '--branch',
  '--to-environment',
  '--to',
  '-b',
  '--broker-base-url',
  '-o',
  '--output',
  '--ignore',
]);

/** `--flag=value` → [`--flag`, `value`]; anything else as it is. */
function split(arg: string): [string, string | undefined] {
  const equals = arg.indexOf('=');
  return arg.startsWith('--') && equals > 0
    ? [arg.slice(0, equals), arg.slice(equals + 1)]
    : [arg, undefined];
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

/**
 * Parses the command line of `pnpm can-i-deploy` (a leading `--` is accepted): its own
 * `--timeout` and `--help`, the broker URL (flag or `PACT_BROKER_BASE_URL`), and every other
 * argument passed on to `pact broker can-i-deploy` unchanged; `--pacticipant` defaults to the
 * kit's consumer. `undefined` means `--help`. Throws `UsageError`, never echoing a credential.
 */
export function parseCanIDeployArgs(
  argv: readonly string[],
  env: Env,
): CanIDeployOptions | 'version' | undefined {
  const given = argv[0] === '--' ? argv.slice(1) : [...argv];
  // `--version V` is Pact's pacticipant version; `--version` alone asks for the kit's.
  if (given.length === 1 && given[0] === '--version') return 'version';
  refuseCredentialArguments(given, 'kpu');
  let timeout: string | undefined;
  let brokerUrl: string | undefined;
  let environment: string | undefined;
  const selectors: Selector[] = [];
  const passOn: string[] = [];
  for (let index = 0; index < given.length; index++) {
    const [flag, inline] = split(given[index] as string);
    const takesValue = VALUE_FLAGS.has(flag) || flag === '--timeout';
    const value = inline ?? (takesValue ? given[++index] : undefined);
    if (takesValue && value === undefined) throw new UsageError(`${flag} needs a value`);
    if (flag === '--help' || flag === '-h') return undefined;
    if (flag === '--timeout') {
      timeout = value;
      continue;
    }
    if (flag === '--broker-base-url' || flag === '-b') {
      brokerUrl = value;
      continue;
    }
    const current = selectors.at(-1);
    if (flag === '--pacticipant' || flag === '-a') selectors.push({ name: value as string });
    else if ((flag === '--version' || flag === '-e') && current) current.version = value;
    else if (flag === '--branch' && current) current.branch = value;
    else if (flag === '--main-branch' && current) current.mainBranch = true;
    else if (flag === '--latest' || flag === '-l') {
      // `--latest` takes an optional tag: the next argument, unless it is another option.
      const next = inline ?? (given[index + 1]?.startsWith('-') === false ? given[++index] : undefined);
      if (current) current.latest = next ?? true;
      passOn.push(flag, ...(next === undefined ? [] : [next]));
      continue;
    } else if (flag === '--to-environment') environment = `environment ${value}`;
    else if (flag === '--to') environment = `the versions tagged ${value}`;
    passOn.push(flag, ...(value === undefined ? [] : [value]));
  }
  const url = brokerUrl ?? env.PACT_BROKER_BASE_URL?.trim();
  if (!url) throw new UsageError('no Pact Broker: pass --broker-base-url or set PACT_BROKER_BASE_URL');
  const checkedUrl = checkBrokerUrl(url);
  // The Pact CLI wants --version after the --pacticipant it belongs to: the default goes first.
  if (selectors.length === 0) {
    const version = passOn.find((_arg, index) => ['--version', '-e'].includes(passOn[index - 1] ?? ''));
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
