import { parseArgs } from 'node:util';
import { diffSinceRevision } from './diff/git-documents.js';
import { countChanges, renderChangesText } from './diff/render-changes.js';
import { isOpenApiError } from './errors/openapi-error.js';
import { UsageError } from './errors/usage-error.js';
import { generateOpenApiFiles, OPENAPI_DIR, writeOpenApiFiles } from './output/openapi-files.js';

/** Where the command writes, and the directory it runs in; tests pass their own. */
export interface OpenApiCliIo {
  readonly stdout: { write(text: string): unknown };
  readonly stderr: { write(text: string): unknown };
  readonly cwd: string;
}

/** The revision `diff` compares with when none is given. */
export const DEFAULT_DIFF_REVISION = 'main';

/** The help text, printed by `--help`. */
export const OPENAPI_USAGE = `Usage: print-contracts-openapi <command> [options]

Commands:
  generate            Write the OpenAPI documents and their HTML references into
                      contracts/openapi/, from the client's operations table and schemas
                      (pnpm contracts runs it after the pacts)
  diff [git-ref]      List what changed in contracts/openapi/*.json since git-ref
                      (default: ${DEFAULT_DIFF_REVISION}), per operation and field, each marked
                      breaking, additive or compatible for a client

Options:
  -h, --help          Show this help

Exit status: 0 done (diff: nothing breaking), 1 diff found a breaking change,
2 bad usage, an unknown revision or an unreadable document.
`;

function parse(argv: readonly string[]) {
  return parseArgs({
    args: [...argv],
    strict: true,
    allowPositionals: true,
    options: { help: { type: 'boolean', short: 'h' } },
  });
}

async function generate(io: OpenApiCliIo): Promise<number> {
  const files = await generateOpenApiFiles();
  writeOpenApiFiles(files, OPENAPI_DIR);
  io.stdout.write(`Wrote ${[...files.keys()].map((name) => `contracts/openapi/${name}`).join(', ')}\n`);
  return 0;
}

async function diff(positionals: readonly string[], io: OpenApiCliIo): Promise<number> {
  if (positionals.length > 1) throw new UsageError(`diff takes one git revision, got ${positionals.length}`);
  const revision = positionals[0] ?? DEFAULT_DIFF_REVISION;
  const files = await diffSinceRevision(revision, io.cwd);
  io.stdout.write(renderChangesText(files, revision));
  return countChanges(files).breaking > 0 ? 1 : 0;
}

/** The `print-contracts-openapi` command; resolves to its exit status. */
export async function runOpenApiCli(argv: readonly string[], io: OpenApiCliIo): Promise<number> {
  const fail = (reason: string) => {
    io.stderr.write(`print-contracts-openapi: ${reason}\n`);
    return 2;
  };
  let parsed: ReturnType<typeof parse>;
  try {
    parsed = parse(argv[0] === '--' ? argv.slice(1) : argv);
  } catch (error) {
    return fail(
      `${error instanceof Error ? (error.message.split('\n')[0] ?? '') : String(error)} (see --help)`,
    );
  }
  const [command, ...rest] = parsed.positionals;
  if (parsed.values.help) {
    io.stdout.write(OPENAPI_USAGE);
    return 0;
  }
  try {
    switch (command) {
      case 'generate':
        if (rest.length > 0) throw new UsageError('generate takes no arguments');
        return await generate(io);
      case 'diff':
        return await diff(rest, io);
      case undefined:
        throw new UsageError('a command is needed: generate or diff (see --help)');
      default:
        throw new UsageError(`unknown command "${command.slice(0, 40)}": use generate or diff (see --help)`);
    }
  } catch (error) {
    if (isOpenApiError(error)) return fail(error.message);
    throw error;
  }
}
