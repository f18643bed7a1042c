import { accessSync, constants, mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, relative, resolve } from 'node:path';
import { argsProblem, parseFlags, usageLine } from '@print-contracts/client/kit';
import { diffSinceRevision } from './diff/git-documents.js';
import { countChanges, renderChangesText } from './diff/render-changes.js';
import { isOpenApiError } from './errors/openapi-error.js';
import {
  generateOpenApiDocuments,
  HTML_DIR,
  readOpenApiFiles,
  writeGenerated,
  writeOpenApiFiles,
} from './output/files.js';
import { renderHtmlReferences } from './tools/redocly.js';

/** Where the command writes, and the directory it runs in; tests pass their own. */
export interface OpenApiCliIo {
  readonly stdout: { write(text: string): unknown };
  readonly stderr: { write(text: string): unknown };
  readonly cwd: string;
  /** The environment, read for the pnpm script that ran the command (`npm_lifecycle_event`). */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** Aborted with the signal's name (`SIGINT`, `SIGTERM`, …): a rendering stops, its Redocly processes with it. */
  readonly signal?: AbortSignal;
}

/** The command's own name, used in its messages when no root pnpm script ran it. */
export const OPENAPI_BIN = 'print-contracts-openapi';

/** The root scripts that run this command, which its messages name when one ran it. */
const ROOT_SCRIPTS = new Set(['contracts:diff', 'contracts:html']);

function rootScript(env: OpenApiCliIo['env']): string | undefined {
  const script = env?.npm_lifecycle_event;
  return script !== undefined && ROOT_SCRIPTS.has(script) ? script : undefined;
}

/** The revision `diff` compares with when none is given. */
export const DEFAULT_DIFF_REVISION = 'main';

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
2 bad usage, an unknown revision or an unreadable document, 130 stopped by SIGINT,
143 by SIGTERM (or SIGHUP, or the exit of its parent).
`;

const OPTIONS = {
  help: { type: 'boolean', short: 'h' },
  out: { type: 'string' },
  version: { type: 'boolean' },
} as const;

const parse = (args: string[]) =>
  parseFlags({ args, strict: true, allowPositionals: true, options: OPTIONS });

const VERSION = (createRequire(import.meta.url)('../package.json') as { version: string }).version;

function generate(io: OpenApiCliIo): number {
  const files = generateOpenApiDocuments();
  writeOpenApiFiles(files);
  io.stdout.write(`Wrote ${[...files.keys()].map((name) => `contracts/openapi/${name}`).join(', ')}\n`);
  return 0;
}

/** Why `dir` cannot take the pages (an error code), checked before half a minute of rendering; undefined when it can. */
function unwritable(dir: string): string | undefined {
  try {
    mkdirSync(dir, { recursive: true });
    accessSync(dir, constants.W_OK);
    return undefined;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code ?? 'error';
  }
}

async function html(documents: ReadonlyMap<string, string>, dir: string, io: OpenApiCliIo) {
  const pages = await renderHtmlReferences(documents, io.signal);
  // --out may name a folder of other pages: only a page of a document (a retired version's too) is removed.
  writeGenerated(dir, pages, (file) => /^print-order-api-v\d+\.html$/.test(file));
  const shown = relative(io.cwd, dir) || '.';
  io.stdout.write(`Wrote ${[...pages.keys()].map((name) => join(shown, name)).join(', ')}\n`);
  return 0;
}

async function diff(revision: string, io: OpenApiCliIo): Promise<number> {
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
    parsed = parse(argv[0] === '--' ? argv.slice(1) : [...argv]);
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
  if (parsed.values.out !== undefined && command !== 'html')
    return usage('--out belongs to the html command');
  try {
    switch (command) {
      case 'generate':
        return rest.length > 0 ? usage('generate takes no arguments') : generate(io);
      case 'html': {
        if (rest.length > 0) return usage('html takes no arguments; choose the folder with --out');
        const documents = readOpenApiFiles();
        if (documents.size === 0)
          return usage('contracts/openapi/ holds no document: run pnpm contracts first');
        const dir = parsed.values.out === undefined ? HTML_DIR : resolve(io.cwd, parsed.values.out);
        const why = unwritable(dir);
        if (why) return usage(`--out: cannot write into ${dir} (${why}); give a folder you can write`);
        return await html(documents, dir, io);
      }
      case 'diff':
        if (rest.length > 1) return usage(`diff takes one git revision, got ${rest.length}`);
        return await diff(rest[0] ?? DEFAULT_DIFF_REVISION, io);
      case undefined:
        return usage('a command is needed: generate, html or diff');
      default:
        return usage(`unknown command "${command.slice(0, 40)}": use generate, html or diff`);
    }
  } catch (error) {
    if (io.signal?.aborted) {
      const reason = String(io.signal.reason);
      io.stderr.write(`${script ?? OPENAPI_BIN}: stopped by ${reason}; nothing written\n`);
      return reason === 'SIGINT' ? 130 : 143;
    }
    if (!isOpenApiError(error)) throw error;
    io.stderr.write(`${script ?? OPENAPI_BIN}: ${error.message}\n`);
    return 2;
  }
}
