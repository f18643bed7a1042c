import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const WORKSPACE_MARKER = 'pnpm-workspace.yaml';

function findUp(start: string): string | undefined {
  let dir = resolve(start);
  for (;;) {
    if (existsSync(join(dir, WORKSPACE_MARKER))) return dir;
    const parent = dirname(dir);
    if (parent === dir) return undefined;
    dir = parent;
  }
}

/**
 * The monorepo's root: the nearest folder holding `pnpm-workspace.yaml` above `cwd`, else
 * above this package (so the command finds `contracts/` from any working directory).
 */
export function repoRoot(cwd: string): string | undefined {
  return findUp(cwd) ?? findUp(fileURLToPath(new URL('.', import.meta.url)));
}

/** `contracts/` at the repository root: where the consumer suite writes the pacts. */
export function defaultContractsDir(cwd: string): string {
  return join(repoRoot(cwd) ?? cwd, 'contracts');
}
