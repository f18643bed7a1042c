import { once } from 'node:events';
import { parseArgs } from 'node:util';
import { API_VERSIONS, type ApiVersion, SECRET_HEADER, USER_ID_HEADER } from '@print-contracts/client';
import { isStubServerError } from '../errors/stub-server-error.js';
import { STUB_STATE_HEADER, startStubServer } from './stub-server.js';

/** Where the command writes and what stops it; tests pass their own. */
export interface StubCliIo {
  readonly stdout: { write(text: string): unknown };
  readonly stderr: { write(text: string): unknown };
  /** Resolves when the server should stop; default: SIGINT or SIGTERM. */
  readonly stopped?: Promise<unknown>;
}

export const STUB_USAGE = `Usage: print-contracts-stub [options]

Serves the contracts with the official Pact stub server (from @pact-foundation/pact-cli) until
Ctrl-C: a fake vendor that answers exactly what the contracts promise.

Options:
  --api-version <v1|v2>   Serve one version only (default: both)
  --port <n>              Port to listen on (default 0: any free port)
  --contracts-dir <dir>   Folder of the pact files (default: the committed contracts/)
  -h, --help              Show this help

Exit status: 0 stopped cleanly, 1 the stub server failed, 2 bad options.
`;

const untilSignal = () => Promise.race([once(process, 'SIGINT'), once(process, 'SIGTERM')]);

/** The `print-contracts-stub` command (`pnpm stub`); resolves to its exit status. */
export async function runStubCli(argv: readonly string[], io: StubCliIo = process): Promise<number> {
  const fail = (reason: string) => {
    io.stderr.write(`print-contracts-stub: ${reason}\n\n${STUB_USAGE}`);
    return 2;
  };
  let values: ReturnType<typeof parse>['values'];
  try {
    values = parse(argv[0] === '--' ? argv.slice(1) : argv).values;
  } catch (error) {
    return fail(error instanceof Error ? (error.message.split('\n')[0] ?? '') : String(error));
  }
  if (values.help) {
    io.stdout.write(STUB_USAGE);
    return 0;
  }
  const version = values['api-version'];
  if (version !== undefined && !API_VERSIONS.includes(version as ApiVersion)) {
    return fail(`--api-version must be ${API_VERSIONS.join(' or ')}, got "${version.slice(0, 20)}"`);
  }
  const port = values.port ?? '0';
  if (!/^\d+$/.test(port) || Number(port) > 65_535)
    return fail(`--port must be 0 to 65535, got "${port.slice(0, 20)}"`);

  try {
    const stub = await startStubServer({
      versions: version ? [version as ApiVersion] : API_VERSIONS,
      port: Number(port),
      ...(values['contracts-dir'] ? { contractsDir: values['contracts-dir'] } : {}),
    });
    io.stdout.write(
      `Pact stub server for ${stub.versions.join(' and ')} listening at ${stub.url}\n` +
        `Send any ${USER_ID_HEADER} and ${SECRET_HEADER} (matched by type) and the version header.\n` +
        `Where one request fits several interactions, name the provider state in ${STUB_STATE_HEADER} (a regex).\n` +
        'Ctrl-C stops it.\n',
    );
    await (io.stopped ?? untilSignal());
    await stub.close();
    return 0;
  } catch (error) {
    if (!isStubServerError(error)) throw error;
    io.stderr.write(`print-contracts-stub: ${error.message}\n`);
    return 1;
  }
}

function parse(args: readonly string[]) {
  return parseArgs({
    args: [...args],
    strict: true,
    allowPositionals: false,
    options: {
      'api-version': { type: 'string' },
      port: { type: 'string' },
      'contracts-dir': { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
}
