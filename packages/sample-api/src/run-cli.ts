import { createRequire } from 'node:module';
import {
  DEFAULT_VERSION_HEADER,
  SECRET_HEADER,
  USER_ID_HEADER,
  versionHeaderValue,
} from '@print-contracts/client';
import {
  argsProblem,
  listenProblem,
  parseFlags,
  type StopSources,
  untilStopped,
  usageLine,
} from '@print-contracts/client/kit';
import { describeCatalogue } from './catalogue.js';
import { CONTROL_BASE_PATH } from './control-surface.js';
import {
  CREDENTIALS_ENV,
  type CredentialSet,
  credentialsFromEnv,
  DEMO_CREDENTIALS,
  parseCredentialSet,
} from './credentials.js';
import { isSampleApiConfigurationError, SampleApiConfigurationError } from './errors/configuration-error.js';
import { DEFAULT_HOST, DEFAULT_PROCESSING_DELAY_MS, type SampleApiOptions } from './options.js';
import { startSampleApi } from './server.js';

/** Where the command writes, what it reads and what stops it; tests pass their own. */
export interface CliIo {
  readonly stdout: { write(text: string): unknown };
  readonly stderr: { write(text: string): unknown };
  /** Default `process.env`; only `PRINT_SAMPLE_API_CREDENTIALS` is read. */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** Signals and the parent process; default `process`. */
  readonly stop?: StopSources;
}

/** Exit statuses of `print-sample-api` (`pnpm sample-api`). */
export const SAMPLE_API_EXIT = { stopped: 0, listenFailed: 1, usage: 2 } as const;

/** Help text of `print-sample-api` (and `pnpm sample-api`). */
export const SAMPLE_API_USAGE = `Usage: print-sample-api [options]

Runs the in-memory simulator of the print vendor's orders API (v1 and v2) until Ctrl-C.

Options:
  --port <n>                 Port to listen on (default 0: any free port)
  --host <address>           Interface to listen on (default ${DEFAULT_HOST})
  --credentials <id:secret>  Accept this credential set; repeat for more tenants
                             (default: ${CREDENTIALS_ENV}, else the public demo sets)
  --processing-delay <ms>    Time before a created order is readable (default ${DEFAULT_PROCESSING_DELAY_MS}; 0 allowed)
  --control                  Enable the test control surface under ${CONTROL_BASE_PATH}
  -h, --help                 Show this help
  --version                  Print the package version

Environment:
  ${CREDENTIALS_ENV}="id:secret,id2:secret2"
                             Credential sets, kept out of \`ps\`; --credentials wins over it.
                             Given secrets are never printed.

It stops on SIGINT (Ctrl-C), SIGTERM or SIGHUP, and when the process that started it exits.
Exit status: 0 stopped (by a signal, or its parent exited), 1 could not listen, 2 bad options.
`;

/** What the flags ask for; the server checks the rest as it does for `startSampleApi`. */
type CliConfig = SampleApiOptions & { processingDelayMs: number; control: boolean };

function wholeNumber(flag: string, value: string | undefined, fallback: number, max: number): number {
  if (value === undefined) return fallback;
  if (!/^\d+$/.test(value) || Number(value) > max) {
    throw new SampleApiConfigurationError(
      `${flag} must be a whole number from 0 to ${max}, got "${value.slice(0, 20)}"`,
    );
  }
  return Number(value);
}

const VERSION = (createRequire(import.meta.url)('../package.json') as { version: string }).version;

const OPTIONS = {
  port: { type: 'string' },
  host: { type: 'string' },
  credentials: { type: 'string', multiple: true },
  'processing-delay': { type: 'string' },
  control: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
  version: { type: 'boolean' },
} as const;

function parse(argv: readonly string[], env: CliIo['env']): CliConfig | 'help' | 'version' {
  // `pnpm sample-api -- --port 1` passes the `--` on; it separates nothing here.
  const args = argv[0] === '--' ? argv.slice(1) : [...argv];
  const parsed = (() => {
    try {
      return parseFlags({ args, strict: true, allowPositionals: false, options: OPTIONS });
    } catch (error) {
      throw new SampleApiConfigurationError(argsProblem(error, Object.keys(OPTIONS)));
    }
  })();
  const { values } = parsed;
  if (values.help) return 'help';
  if (values.version) return 'version';
  return {
    port: wholeNumber('--port', values.port, 0, 65_535),
    host: values.host,
    credentials:
      values.credentials?.map((value) => parseCredentialSet(value, '--credentials')) ??
      credentialsFromEnv(env?.[CREDENTIALS_ENV]),
    processingDelayMs: wholeNumber(
      '--processing-delay',
      values['processing-delay'],
      DEFAULT_PROCESSING_DELAY_MS,
      86_400_000,
    ),
    control: values.control ?? false,
  };
}

const isDemo = (set: CredentialSet) =>
  DEMO_CREDENTIALS.some((demo) => demo.userId === set.userId && demo.secret === set.secret);

/**
 * The `print-sample-api` command: starts the simulator, prints its base URL and the
 * credentials it accepts, and runs until SIGINT, SIGTERM or SIGHUP, or until the process that
 * started it exits. Public demo secrets are printed (they protect nothing); a secret given
 * with `--credentials` or `PRINT_SAMPLE_API_CREDENTIALS` never is. Resolves to the exit
 * status: 0 stopped, 1 could not listen, 2 bad options.
 */
export async function runSampleApiCli(argv: readonly string[], io: CliIo = process): Promise<number> {
  let config: CliConfig | 'help' | 'version';
  try {
    config = parse(argv, io.env ?? process.env);
  } catch (error) {
    if (!isSampleApiConfigurationError(error)) throw error;
    io.stderr.write(usageLine('sample-api', error.message));
    return SAMPLE_API_EXIT.usage;
  }
  if (config === 'help') {
    io.stdout.write(SAMPLE_API_USAGE);
    return SAMPLE_API_EXIT.stopped;
  }
  if (config === 'version') {
    io.stdout.write(`@print-contracts/sample-api ${VERSION}\n`);
    return SAMPLE_API_EXIT.stopped;
  }

  // Listening from the start: a signal while it starts stops it as soon as it is up.
  const watch = untilStopped(io.stop);
  try {
    let api: Awaited<ReturnType<typeof startSampleApi>>;
    try {
      api = await startSampleApi(config);
    } catch (error) {
      const reason = (error instanceof Error ? error.message.split('\n')[0] : String(error)) ?? '';
      if (isSampleApiConfigurationError(error)) {
        io.stderr.write(usageLine('sample-api', reason));
        return SAMPLE_API_EXIT.usage;
      }
      const problem = listenProblem(error, { port: config.port ?? 0, host: config.host ?? DEFAULT_HOST });
      io.stderr.write(problem ? usageLine('sample-api', problem) : `sample-api: ${reason}\n`);
      return SAMPLE_API_EXIT.listenFailed;
    }
    io.stdout.write(`${banner(api, config).join('\n')}\n`);
    const reason = await watch.stopped;
    await api.close();
    io.stdout.write(
      reason === 'parent exited'
        ? 'Stopped: the process that started it exited.\n'
        : `Stopped on ${reason}.\n`,
    );
    return SAMPLE_API_EXIT.stopped;
  } finally {
    watch.dispose();
  }
}

function banner(api: Awaited<ReturnType<typeof startSampleApi>>, config: CliConfig): string[] {
  const versions = `${DEFAULT_VERSION_HEADER.name}: ${versionHeaderValue('v2')} (or ${versionHeaderValue('v1')}; none means v1)`;
  return [
    `Print sample API listening on ${api.url}`,
    `Credential sets it accepts (send them as ${USER_ID_HEADER} and ${SECRET_HEADER} headers):`,
    ...api.credentials.map(
      (set) => `  ${set.userId} / ${isDemo(set) ? set.secret : '(the secret you gave)'}`,
    ),
    `Version header: ${versions}`,
    `Created orders become readable ${config.processingDelayMs} ms later.`,
    'Products it sells (v1 lines name the product code, v2 lines the sku; anything else fails processing):',
    ...describeCatalogue(),
    config.control
      ? `Control surface: ${api.origin}${CONTROL_BASE_PATH} (POST /orders/{id}/state, POST /reset, PUT|DELETE /faults)`
      : 'Control surface: off (start with --control to enable it)',
    'Press Ctrl-C to stop.',
  ];
}
