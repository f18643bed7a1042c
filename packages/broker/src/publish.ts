import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { parseArgs } from 'node:util';
import { argsProblem, CONSUMER_NAME, parseFlags } from '@print-contracts/client/kit';
import { checkBrokerUrl, UsageError } from '@print-contracts/verifier';
import {
  BROKER_EXIT_CODES,
  type BrokerIo,
  DEFAULT_BROKER_TIMEOUT_SECONDS,
  type Env,
  refuseCredentialArguments,
  runBrokerCommand,
  runBrokerTool,
  timeoutMs,
} from './broker-command.js';

/** What `pnpm contracts:publish` publishes, and where. */
export interface PublishOptions {
  readonly brokerUrl: string;
  readonly contractsDir: string;
  readonly consumerVersion: string;
  readonly branch: string | undefined;
  readonly tags: readonly string[];
  readonly buildUrl: string | undefined;
  readonly dryRun: boolean;
  /** Bound on the whole publish; the Pact CLI is stopped when it passes. */
  readonly timeoutMs: number;
}

const PUBLISH_USAGE = `Usage: pnpm contracts:publish [options]

Publishes the pact files in contracts/ to a Pact Broker with the official Pact CLI
(\`pact broker publish\`, from @pact-foundation/pact-cli).

  --broker-url URL          The broker (default: PACT_BROKER_BASE_URL). Auth from the
                            environment only: PACT_BROKER_TOKEN, or PACT_BROKER_USERNAME and
                            PACT_BROKER_PASSWORD (passed to the Pact CLI through it).
  --consumer-version V      The consumer version (default: the git commit, git rev-parse HEAD).
  --branch B                The consumer's branch (default: the current git branch).
  --tag T                   A tag for the consumer version; repeatable.
  --build-url URL           The CI build that produced the pacts (http or https).
  --contracts DIR           The folder of pact files, each *.json at its top (default: contracts/
                            at the repository root); checked before the broker is asked.
  --timeout SECONDS         Give up when the broker has not answered after this long
                            (default ${DEFAULT_BROKER_TIMEOUT_SECONDS}); the Pact CLI is stopped.
  --dry-run                 Print the Pact CLI command instead of running it.
  --help                    Show this help.
  --version                 Print the package version.

Exit status: 0 published; 1 the Pact CLI failed (the broker refused: its message is
printed); 2 bad arguments; 3 no answer from the broker (unreachable, or nothing within
--timeout); 130 stopped by SIGINT; 143 stopped by SIGTERM.`;

/** The root of the pnpm workspace holding `dir`, if any. */
function workspaceRoot(dir: string): string | undefined {
  for (let at = resolve(dir); ; at = dirname(at)) {
    if (existsSync(join(at, 'pnpm-workspace.yaml'))) return at;
    if (dirname(at) === at) return undefined;
  }
}

/** `contracts/` at the monorepo's root, found above `cwd`, else above this package. */
function defaultContractsDir(cwd: string): string {
  const root = workspaceRoot(cwd) ?? workspaceRoot(fileURLToPath(new URL('.', import.meta.url)));
  return join(root ?? cwd, 'contracts');
}

function git(args: string[], cwd: string): string | undefined {
  try {
    const out = execFileSync('git', args, {
      cwd,
      stdio: ['ignore', 'pipe', 'ignore'],
      encoding: 'utf8',
    }).trim();
    return out && out !== 'HEAD' ? out : undefined;
  } catch {
    return undefined;
  }
}

const WRITE_PACTS = 'write the pacts with pnpm contracts, or pass the folder that holds them';

/** Why `pact broker publish` would refuse this file, if it would: it loads JSON objects. */
function pactProblem(file: string): string | undefined {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    return `cannot be read (${(error as NodeJS.ErrnoException).code ?? 'unknown error'})`;
  }
  let pact: unknown;
  try {
    pact = JSON.parse(text);
  } catch {
    return 'is not JSON';
  }
  return typeof pact === 'object' && pact !== null && !Array.isArray(pact)
    ? undefined
    : 'is not a pact (a JSON object)';
}

/**
 * Refuses, naming `--contracts`, what `pact broker publish` would refuse only once started: a
 * path that does not exist, a folder with no `*.json` at its top (the files the Pact CLI
 * publishes from a folder), or one of them it cannot load. `given` is the flag as typed.
 */
function checkContracts(path: string, given: string): void {
  const stat = statSync(path, { throwIfNoEntry: false });
  if (!stat) throw new UsageError(`--contracts ${given}: no such file or folder; ${WRITE_PACTS}`);
  const files = stat.isDirectory()
    ? readdirSync(path)
        .filter((name) => name.endsWith('.json'))
        .map((name) => join(path, name))
        .filter((file) => statSync(file, { throwIfNoEntry: false })?.isFile())
        .sort()
    : [path];
  if (files.length === 0) {
    throw new UsageError(`--contracts ${given} holds no pact files (*.json); ${WRITE_PACTS}`);
  }
  for (const file of files) {
    const problem = pactProblem(file);
    if (problem) {
      throw new UsageError(
        `--contracts ${given}: ${basename(file)} ${problem}; write the pacts again with pnpm contracts, or move it out`,
      );
    }
  }
}

/** `--build-url` as given, if it is an http(s) URL. */
function checkBuildUrl(value: string | undefined): string | undefined {
  const protocol = value === undefined || !URL.canParse(value) ? undefined : new URL(value).protocol;
  if (value !== undefined && protocol !== 'http:' && protocol !== 'https:') {
    throw new UsageError(`--build-url must be an http or https URL, got "${value.slice(0, 60)}"`);
  }
  return value;
}

const PUBLISH_OPTIONS = {
  'broker-url': { type: 'string' },
  'consumer-version': { type: 'string' },
  branch: { type: 'string' },
  tag: { type: 'string', multiple: true },
  'build-url': { type: 'string' },
  contracts: { type: 'string' },
  'dry-run': { type: 'boolean' },
  timeout: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
  version: { type: 'boolean' },
} as const;

/**
 * Parses the command line of `pnpm contracts:publish`, and checks the pact files and the build
 * URL before anything is contacted; `undefined` means `--help`. Throws `UsageError`.
 */
export function parsePublishArgs(
  argv: readonly string[],
  env: Env,
  cwd: string,
): PublishOptions | 'version' | undefined {
  const args = argv[0] === '--' ? argv.slice(1) : [...argv];
  refuseCredentialArguments(args);
  let values: ReturnType<typeof parseArgs<{ options: typeof PUBLISH_OPTIONS }>>['values'];
  try {
    ({ values } = parseFlags({ args, strict: true, allowPositionals: false, options: PUBLISH_OPTIONS }));
  } catch (error) {
    throw new UsageError(argsProblem(error, Object.keys(PUBLISH_OPTIONS)));
  }

  if (values.help) return undefined;
  if (values.version) return 'version';
  const brokerUrl = values['broker-url'] ?? env.PACT_BROKER_BASE_URL?.trim();
  if (!brokerUrl) throw new UsageError('no Pact Broker: pass --broker-url or set PACT_BROKER_BASE_URL');
  const timeout = timeoutMs(values.timeout);
  const consumerVersion = values['consumer-version'] ?? git(['rev-parse', 'HEAD'], cwd);
  if (!consumerVersion)
    throw new UsageError('no consumer version: pass --consumer-version (no git commit to default to)');
  const checkedUrl = checkBrokerUrl(brokerUrl);
  const contractsDir = values.contracts ?? defaultContractsDir(cwd);
  checkContracts(resolve(cwd, contractsDir), values.contracts ?? `${contractsDir} (the default)`);
  const buildUrl = checkBuildUrl(values['build-url']);
  return {
    brokerUrl: checkedUrl,
    contractsDir,
    consumerVersion,
    branch: values.branch ?? git(['rev-parse', '--abbrev-ref', 'HEAD'], cwd),
    tags: values.tag ?? [],
    buildUrl,
    dryRun: values['dry-run'] ?? false,
    timeoutMs: timeout,
  };
}

/**
 * The arguments of `pact broker publish` for these options. Credentials are not among
 * them: the Pact CLI reads PACT_BROKER_TOKEN / PACT_BROKER_USERNAME / PACT_BROKER_PASSWORD
 * from its environment, so they never show in a process list.
 */
export function publishCommand(options: PublishOptions): string[] {
  return [
    'broker',
    'publish',
    options.contractsDir,
    '--broker-base-url',
    options.brokerUrl,
    '--consumer-app-version',
    options.consumerVersion,
    ...(options.branch ? ['--branch', options.branch] : []),
    ...options.tags.flatMap((tag) => ['--tag', tag]),
    ...(options.buildUrl ? ['--build-url', options.buildUrl] : []),
  ];
}

/**
 * `pnpm contracts:publish` as a function: runs `pact broker publish contracts/ …` with the
 * official Pact CLI within `--timeout`, and resolves with a status of `BROKER_EXIT_CODES`.
 */
export const runPublishContracts = (argv: readonly string[], io: BrokerIo): Promise<number> =>
  runBrokerTool({ tool: 'contracts:publish', usage: PUBLISH_USAGE, parse, run: publish }, argv, io);

const parse = (argv: readonly string[], io: BrokerIo) => parsePublishArgs(argv, io.env, io.cwd);

async function publish(options: PublishOptions, io: BrokerIo): Promise<number> {
  const args = publishCommand(options);
  if (options.dryRun) {
    io.stdout.write(
      `pact ${args.map((arg) => (/[\s"']/.test(arg) ? JSON.stringify(arg) : arg)).join(' ')}\n`,
    );
    return BROKER_EXIT_CODES.ok;
  }
  const branch = options.branch ? ` on branch ${options.branch}` : '';
  return runBrokerCommand(
    {
      tool: 'contracts:publish',
      purpose: `publishing the pacts in ${options.contractsDir} as ${CONSUMER_NAME} version ${options.consumerVersion}${branch} to the Pact Broker at ${options.brokerUrl}`,
      brokerUrl: options.brokerUrl,
      args,
      timeoutMs: options.timeoutMs,
    },
    io,
  );
}
