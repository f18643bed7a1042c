import { parseArgs } from 'node:util';
import {
  DEFAULT_VERSION_HEADER,
  SECRET_HEADER,
  USER_ID_HEADER,
  versionHeaderValue,
} from '@print-contracts/client';
import { describeCatalogue } from './catalogue.js';
import { CONTROL_BASE_PATH } from './control-surface.js';
import { type CredentialSet, DEMO_CREDENTIALS } from './credentials.js';
import { isSampleApiConfigurationError } from './errors/configuration-error.js';
import { DEFAULT_HOST, DEFAULT_PROCESSING_DELAY_MS } from './options.js';
import { startSampleApi } from './server.js';

type Signal = 'SIGINT' | 'SIGTERM';

/** Where the command writes and which signals stop it; tests pass their own. */
export interface CliIo {
  readonly stdout: { write(text: string): unknown };
  readonly stderr: { write(text: string): unknown };
  /** Emits SIGINT and SIGTERM; default `process`. */
  readonly signals?: {
    once(event: Signal, listener: () => void): unknown;
    off(event: Signal, listener: () => void): unknown;
  };
}

/** Help text of `print-sample-api` (and `pnpm sample-api`). */
export const SAMPLE_API_USAGE = `Usage: print-sample-api [options]

Runs the in-memory simulator of the print vendor's orders API (v1 and v2) until Ctrl-C.

Options:
  --port <n>                 Port to listen on (default 0: any free port)
  --host <address>           Interface to listen on (default ${DEFAULT_HOST})
  --credentials <id:secret>  Accept this credential set; repeat for more tenants
                             (default: the public demo sets)
  --processing-delay <ms>    Time before a created order is readable (default ${DEFAULT_PROCESSING_DELAY_MS}; 0 allowed)
  --control                  Enable the test control surface under ${CONTROL_BASE_PATH}
  -h, --help                 Show this help

Exit status: 0 stopped cleanly, 1 could not listen, 2 bad options.
`;

class UsageError extends Error {}

interface CliConfig {
  port: number;
  host: string;
  credentials: CredentialSet[] | undefined;
  processingDelayMs: number;
  control: boolean;
}

function wholeNumber(flag: string, value: string | undefined, fallback: number, max: number): number {
  if (value === undefined) return fallback;
  if (!/^\d+$/.test(value) || Number(value) > max) {
    throw new UsageError(`${flag} must be a whole number from 0 to ${max}, got "${value.slice(0, 20)}"`);
  }
  return Number(value);
}

function credentialSet(value: string): CredentialSet {
  const colon = value.indexOf(':');
  if (colon <= 0 || colon === value.length - 1) {
    // The value is not echoed: it may hold a secret.
    throw new UsageError('--credentials must look like id:secret (the value given is not shown)');
  }
  return { userId: value.slice(0, colon), secret: value.slice(colon + 1) };
}

function parse(argv: readonly string[]): CliConfig | 'help' {
  let values: ReturnType<typeof parseArgsStrict>['values'];
  try {
    values = parseArgsStrict(argv).values;
  } catch (error) {
    // parseArgs explains itself on the first line; the rest is advice about `--`.
    const reason = error instanceof Error ? (error.message.split('\n')[0] ?? '') : String(error);
    throw new UsageError(reason.split('. To specify a positional')[0] ?? reason);
  }
  if (values.help) return 'help';
  return {
    port: wholeNumber('--port', values.port, 0, 65_535),
    host: values.host ?? DEFAULT_HOST,
    credentials: values.credentials?.map(credentialSet),
    processingDelayMs: wholeNumber(
      '--processing-delay',
      values['processing-delay'],
      DEFAULT_PROCESSING_DELAY_MS,
      86_400_000,
    ),
    control: values.control ?? false,
  };
}

function parseArgsStrict(argv: readonly string[]) {
  // `pnpm sample-api -- --port 1` passes the `--` on; it separates nothing here.
  const args = argv[0] === '--' ? argv.slice(1) : [...argv];
  return parseArgs({
    args,
    strict: true,
    allowPositionals: false,
    options: {
      port: { type: 'string' },
      host: { type: 'string' },
      credentials: { type: 'string', multiple: true },
      'processing-delay': { type: 'string' },
      control: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
  });
}

const isDemo = (set: CredentialSet) =>
  DEMO_CREDENTIALS.some((demo) => demo.userId === set.userId && demo.secret === set.secret);

/**
 * The `print-sample-api` command: starts the simulator, prints its base URL and the
 * credentials it accepts, and runs until SIGINT or SIGTERM. Public demo secrets are printed
 * (they protect nothing); a secret given with `--credentials` never is. Resolves to the exit
 * status: 0 stopped cleanly, 1 could not listen, 2 bad options.
 */
export async function runSampleApiCli(argv: readonly string[], io: CliIo = process): Promise<number> {
  const signals = io.signals ?? process;
  let config: CliConfig | 'help';
  try {
    config = parse(argv);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    io.stderr.write(`print-sample-api: ${error.message}\n\n${SAMPLE_API_USAGE}`);
    return 2;
  }
  if (config === 'help') {
    io.stdout.write(SAMPLE_API_USAGE);
    return 0;
  }

  let api: Awaited<ReturnType<typeof startSampleApi>>;
  try {
    api = await startSampleApi({ ...config, credentials: config.credentials ?? DEMO_CREDENTIALS });
  } catch (error) {
    const reason = error instanceof Error ? error.message.split('\n')[0] : String(error);
    io.stderr.write(`print-sample-api: ${reason}\n`);
    if (isSampleApiConfigurationError(error)) {
      io.stderr.write(`\n${SAMPLE_API_USAGE}`);
      return 2;
    }
    return 1;
  }

  const versions = `${DEFAULT_VERSION_HEADER.name}: ${versionHeaderValue('v2')} (or ${versionHeaderValue('v1')}; none means v1)`;
  const lines = [
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
  io.stdout.write(`${lines.join('\n')}\n`);

  const received = await new Promise<Signal>((resolve) => {
    const onInt = () => stop('SIGINT');
    const onTerm = () => stop('SIGTERM');
    const stop = (signal: Signal) => {
      signals.off('SIGINT', onInt);
      signals.off('SIGTERM', onTerm);
      resolve(signal);
    };
    signals.once('SIGINT', onInt);
    signals.once('SIGTERM', onTerm);
  });
  await api.close();
  io.stdout.write(`Stopped on ${received}.\n`);
  return 0;
}
