import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { UsageError } from '../errors/index.js';

const errorCode = (error: unknown) => (error as NodeJS.ErrnoException).code ?? 'error';

function workspaceRoot(start: string): string | undefined {
  for (let dir = resolve(start); ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'pnpm-workspace.yaml'))) return dir;
    if (dirname(dir) === dir) return undefined;
  }
}

/** `contracts/` at the monorepo's root, found above `cwd`, else above this package. */
export function defaultContractsDir(cwd: string): string {
  const root = workspaceRoot(cwd) ?? workspaceRoot(fileURLToPath(new URL('.', import.meta.url)));
  return join(root ?? cwd, 'contracts');
}

/** `openapi/` in the default contracts folder, when it is there: the documents the drift check reads. */
export function defaultOpenApiDir(cwd: string): string | undefined {
  const dir = join(defaultContractsDir(cwd), 'openapi');
  return existsSync(dir) ? dir : undefined;
}

/** The text of a file a flag names; the message names the flag and the path, never the content. */
export function readFlagFile(flag: string, path: string, cwd: string, fix?: string): string {
  try {
    // An editor's byte order mark is no part of the text (JSON.parse refuses it).
    return readFileSync(resolve(cwd, path), 'utf8').replace(/^\uFEFF/, '');
  } catch (error) {
    throw new UsageError(`${flag} ${path} cannot be read (${errorCode(error)})${fix ? `; ${fix}` : ''}`);
  }
}

/** Checked before anything is sent: a run that could not ledger the orders it created would lose them. */
export function checkWritable(reportDir: string, ledgerPath: string): void {
  for (const [flag, dir] of [
    ['--report-dir', reportDir],
    ['--ledger', dirname(ledgerPath)],
  ] as const) {
    try {
      mkdirSync(dir, { recursive: true });
      const probe = join(dir, `.verify-write-check-${process.pid}`);
      writeFileSync(probe, '');
      rmSync(probe, { force: true });
    } catch (error) {
      throw new UsageError(
        `${flag}: cannot write into ${dir} (${errorCode(error)}); give a folder you can write`,
      );
    }
  }
}
