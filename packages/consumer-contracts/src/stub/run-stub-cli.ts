import { createRequire } from 'node:module';
import type { parseArgs } from 'node:util';
import {
  API_VERSIONS,
  type ApiVersion,
  DEFAULT_VERSION_HEADER,
  SECRET_HEADER,
  USER_ID_HEADER,
  versionHeaderValue,
} from '@print-contracts/client';
import {
  argsProblem,
  listenProblem,
  parseFlags,
  STOP_SIGNALS,
  type StopSources,
  untilStopped,
  usageLine,
} from '@print-contracts/client/kit';
import { isPactOutputError, isStubServerError } from '../errors/index.js';
import { CONTRACTS_DIR, readPact } from '../pact-files.js';
import { INTERACTION_HEADER, NO_INTERACTION_STATUS, STUB_STATE_HEADER } from './stub-front.js';
import { renderStubTable, stubRoutes } from './stub-guide.js';
import { pactFilesIn, type StubServer, startStubServer } from './stub-server.js';

/** Where the command writes and what stops it; tests pass their own. */
export interface StubCliIo {
  readonly stdout: { write(text: string): unknown };
  readonly stderr: { write(text: string): unknown };
  /** Signals and the parent process; default `process`. */
  readonly stop?: StopSources;
}

/** Exit statuses of `print-contracts-stub` (`pnpm stub`). */
export const STUB_EXIT = { stopped: 0, failed: 1, usage: 2 } as const;

const STUB_USAGE = `Usage: print-contracts-stub [options]

Serves the contracts with the official Pact stub server (from @pact-foundation/pact-cli), behind a
loopback front, until stopped: a fake vendor that answers exactly what the contracts promise.

Send ${USER_ID_HEADER} and ${SECRET_HEADER} (any values) and ${DEFAULT_VERSION_HEADER.name}: ${versionHeaderValue('v2')} (or v1), as
the contracts do. Without ${STUB_STATE_HEADER} a request gets the happy path; to get another answer
(unknown order, order in production, wrong secret, …) name a provider state in ${STUB_STATE_HEADER}
(\`^$\` for the interactions without one). --table lists every interaction and how to reach it.
Each answer names its interaction in ${INTERACTION_HEADER}; a request no interaction fits gets ${NO_INTERACTION_STATUS}.

Options:
  --api-version <v1|v2>   Serve one version only (default: both)
  --port <n>              Port to listen on, on 127.0.0.1 (default 0: any free port)
  --contracts-dir <dir>   Folder of the pact files (default: the committed contracts/)
  --table                 Print the table of interactions (request + state → answer) and exit
  -h, --help              Show this help
  --version               Print the package version

It stops on SIGINT (Ctrl-C), SIGTERM or SIGHUP, and when the process that started it exits;
the stub server process it starts never outlives it, even when this one is killed with SIGKILL.
Exit status: 0 stopped, 1 the stub server failed or ended by itself, or --port is in use,
2 bad options or no readable pact file.
`;

/** The `print-contracts-stub` command (`pnpm stub`); resolves to its exit status. */
export async function runStubCli(argv: readonly string[], io: StubCliIo = process): Promise<number> {
  const fail = (reason: string) => {
    io.stderr.write(usageLine('stub', reason));
    return STUB_EXIT.usage;
  };
  let values: ReturnType<typeof parseArgs<{ options: typeof OPTIONS }>>['values'];
  try {
    const args = argv[0] === '--' ? argv.slice(1) : [...argv];
    ({ values } = parseFlags({ args, strict: true, allowPositionals: false, options: OPTIONS }));
  } catch (error) {
    return fail(argsProblem(error, Object.keys(OPTIONS)));
  }
  if (values.help) {
    io.stdout.write(STUB_USAGE);
    return STUB_EXIT.stopped;
  }
  if (values.version) {
    io.stdout.write(`@print-contracts/consumer-contracts ${VERSION}\n`);
    return STUB_EXIT.stopped;
  }
  const version = values['api-version'];
  if (version !== undefined && !API_VERSIONS.includes(version as ApiVersion)) {
    return fail(`--api-version must be ${API_VERSIONS.join(' or ')}, got "${version.slice(0, 20)}"`);
  }
  const port = values.port ?? '0';
  if (!/^\d+$/.test(port) || Number(port) > 65_535)
    return fail(`--port must be 0 to 65535, got "${port.slice(0, 20)}"`);
  const versions = version ? [version as ApiVersion] : API_VERSIONS;
  const contractsDir = values['contracts-dir'] ?? CONTRACTS_DIR;

  let pacts: ReturnType<typeof readPact>[];
  try {
    pacts = pactFilesIn(contractsDir, versions).map(readPact);
  } catch (error) {
    // A missing or unreadable pact file is the user's to fix, like a bad option: one line, exit 2.
    if (!isStubServerError(error) && !isPactOutputError(error)) throw error;
    io.stderr.write(`stub: ${error.message}\n`);
    return STUB_EXIT.usage;
  }
  if (values.table) {
    io.stdout.write(renderStubTable(stubRoutes(pacts)));
    return STUB_EXIT.stopped;
  }
  try {
    return await serve({ versions, port: Number(port), contractsDir }, io);
  } catch (error) {
    if (!isStubServerError(error)) throw error;
    const problem = listenProblem(error.cause, { port: Number(port) });
    io.stderr.write(problem ? usageLine('stub', problem) : `stub: ${error.message}\n`);
    return STUB_EXIT.failed;
  }
}

async function serve(
  options: { versions: readonly ApiVersion[]; port: number; contractsDir: string },
  io: StubCliIo,
): Promise<number> {
  // Listening from the start: a signal during start-up stops it as soon as it is up.
  const watch = untilStopped(io.stop);
  let stub: StubServer | undefined;
  try {
    stub = await startStubServer(options);
    io.stdout.write(
      `Pact stub server for ${stub.versions.join(' and ')} listening at ${stub.url}\n` +
        `Send ${USER_ID_HEADER} and ${SECRET_HEADER} (any values) and ${DEFAULT_VERSION_HEADER.name}: ${versionHeaderValue(stub.versions.at(-1) ?? 'v2')}; a request no interaction fits gets ${NO_INTERACTION_STATUS}.\n` +
        `Without ${STUB_STATE_HEADER} it answers the happy path (states: ${stub.defaultStates.join('; ')}).\n` +
        `Name another provider state in ${STUB_STATE_HEADER} for another answer; \`pnpm stub --table\` lists them.\n` +
        'Ctrl-C stops it.\n',
    );
    const ended = await Promise.race([watch.stopped, stub.exited]);
    await stub.close();
    if (typeof ended === 'string') {
      io.stdout.write(
        ended === 'parent exited'
          ? 'Stopped: the process that started it exited.\n'
          : `Stopped on ${ended}.\n`,
      );
      return STUB_EXIT.stopped;
    }
    // A stop signal sent to the whole process group reaches the stub server too, maybe first.
    if (ended.signal && (STOP_SIGNALS as readonly string[]).includes(ended.signal)) {
      io.stdout.write(`Stopped on ${ended.signal} (received by the stub server).\n`);
      return STUB_EXIT.stopped;
    }
    io.stderr.write(
      `stub: the Pact stub server ended by itself (${ended.signal ? `signal ${ended.signal}` : `exit status ${ended.code}`})\n`,
    );
    return STUB_EXIT.failed;
  } finally {
    await stub?.close();
    watch.dispose();
  }
}

const VERSION = (createRequire(import.meta.url)('../../package.json') as { version: string }).version;

const OPTIONS = {
  'api-version': { type: 'string' },
  port: { type: 'string' },
  'contracts-dir': { type: 'string' },
  table: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
  version: { type: 'boolean' },
} as const;
