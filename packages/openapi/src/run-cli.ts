import { createRequire } from 'node:module';
import { join, relative, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { argsProblem, usageLine } from '@print-contracts/client';
import { diffSinceRevision } from './diff/git-documents.js';
import { countChanges, renderChangesText } from './diff/render-changes.js';
import { isOpenApiError } from './errors/openapi-error.js';
import { isUsageError, UsageError } from './errors/usage-error.js';
import { writeGenerated } from './output/generated-folder.js';
import {
  generateHtmlReferences,
  generateOpenApiDocuments,
  HTML_DIR,
  OPENAPI_DIR,
  readOpenApiFiles,
  writeOpenApiFiles,
} from './output/openapi-files.js';

/** Where the command writes, and the directory it runs in; tests pass their own. */
export interface OpenApiCliIo {
  readonly stdout: { write(text: string): unknown };
  readonly stderr: { write(text: string): unknown };
  readonly cwd: string;
  /** The environment, read for the pnpm script that ran the command (`npm_lifecycle_event`). */
  readonly env?: Readonly<Record<string, string | undefined>>;
}

/** The command's own name, used in its messages when no root pnpm script ran it. */
export const OPENAPI_BIN = 'print-contracts-openapi';

/** The root scripts that run this command, which its messages name when one ran it. */
const ROOT_SCRIPTS = new Set(['contracts:diff', 'contracts:html']);

/** The root script that ran the command, when one did. */
function rootScript(env: OpenApiCliIo['env']): string | undefined {
  const script = env?.npm_lifecycle_event;
  return script !== undefined && ROOT_SCRIPTS.has(script) ? script : undefined;
}

/** The revision `diff` compares with when none is given. */
export const DEFAULT_DIFF_REVISION = 'main';

/** The help text, printed by `--help`. */
export const OPENAPI_USAGE = `Usage: print-contracts-openapi <command> [options]

Commands:
  generate            Write the OpenAPI documents into contracts/openapi/, from the
                      client's operations table and schemas (pnpm contracts runs it
                      after the pacts)
  html [--out DIR]    Write a browsable HTML reference of each document in
                      contracts/openapi/ (Redoc, one self-contained file each) into DIR
                      (default: reports/openapi-html/, git-ignored; pnpm contracts:html)
  diff [git-ref]      List what changed in contracts/openapi/*.json since git-ref
                      (default: ${DEFAULT_DIFF_REVISION}), per operation and field, each marked
                      breaking, additive or compatible for a client

Options:
      --out DIR       Where html writes (relative to the current directory)
  -h, --help          Show this help
  --version           Print the package version

Exit status: 0 done (diff: nothing breaking), 1 diff found a breaking change,
2 bad usage, an unknown revision or an unreadable document.
`;

const OPTIONS = {
  help: { type: 'boolean', short: 'h' },
  out: { type: 'string' },
  version: { type: 'boolean' },
} as const;

const VERSION = (createRequire(import.meta.url)('../package.json') as { version: string }).version;

function parse(argv: readonly string[]) {
  return parseArgs({
    args: [...argv],
    strict: true,
    allowPositionals: true,
    options: OPTIONS,
  });
}

function generate(io: OpenApiCliIo): number {
  const files = generateOpenApiDocuments();
  writeOpenApiFiles(files, OPENAPI_DIR);
  io.stdout.write(`Wrote ${[...files.keys()].map((name) => `contracts/openapi/${name}`).join(', ')}\n`);
  return 0;
}

async function html(out: string | undefined, io: OpenApiCliIo): Promise<number> {
  const documents = readOpenApiFiles(OPENAPI_DIR);
  if (documents.size === 0)
    throw new UsageError('contracts/openapi/ holds no document: run pnpm contracts first');
  const dir = out === undefined ? HTML_DIR : resolve(io.cwd, out);
  const pages = await generateHtmlReferences(documents);
  writeGenerated(dir, pages, (file) => file.endsWith('.html'));
  const shown = relative(io.cwd, dir) || '.';
  io.stdout.write(`Wrote ${[...pages.keys()].map((name) => join(shown, name)).join(', ')}\n`);
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
  const script = rootScript(io.env);
  /** The kit's one usage error shape: `contracts:diff: <problem> (see pnpm contracts:diff --help)`. */
  const usage = (problem: string) => {
    io.stderr.write(
      script ? usageLine(script, problem) : `${OPENAPI_BIN}: ${problem} (see ${OPENAPI_BIN} --help)\n`,
    );
    return 2;
  };
  let parsed: ReturnType<typeof parse>;
  try {
    parsed = parse(argv[0] === '--' ? argv.slice(1) : argv);
  } catch (error) {
    return usage(argsProblem(error, Object.keys(OPTIONS)));
  }
  const [command, ...rest] = parsed.positionals;
  if (parsed.values.help) {
    io.stdout.write(OPENAPI_USAGE);
    return 0;
  }
  if (parsed.values.version) {
    io.stdout.write(`@print-contracts/openapi ${VERSION}\n`);
    return 0;
  }
  try {
    if (parsed.values.out !== undefined && command !== 'html') {
      throw new UsageError('--out belongs to the html command');
    }
    switch (command) {
      case 'generate':
        if (rest.length > 0) throw new UsageError('generate takes no arguments');
        return generate(io);
      case 'html':
        if (rest.length > 0) throw new UsageError('html takes no arguments; choose the folder with --out');
        return await html(parsed.values.out, io);
      case 'diff':
        return await diff(rest, io);
      case undefined:
        throw new UsageError('a command is needed: generate, html or diff');
      default:
        throw new UsageError(`unknown command "${command.slice(0, 40)}": use generate, html or diff`);
    }
  } catch (error) {
    if (isUsageError(error)) return usage(error.message);
    if (isOpenApiError(error)) {
      io.stderr.write(`${script ?? OPENAPI_BIN}: ${error.message}\n`);
      return 2;
    }
    throw error;
  }
}
