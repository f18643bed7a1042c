import { execFileSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const packageDir = fileURLToPath(new URL('..', import.meta.url));

/**
 * The signal tests run the built command line as a user does (`node dist/can-i-deploy-cli.js`).
 * `pnpm test` builds it first (turbo); run alone, the tests build it here when the sources are newer.
 */
export default function setup(): void {
  const mtime = (path: string) => statSync(path, { throwIfNoEntry: false })?.mtimeMs ?? 0;
  const sources = readdirSync(join(packageDir, 'src'), { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => mtime(join(entry.parentPath, entry.name)));
  if (mtime(join(packageDir, 'dist/can-i-deploy-cli.js')) >= Math.max(...sources)) return;
  const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
  execFileSync(process.execPath, [tsc, '-p', 'tsconfig.build.json'], { cwd: packageDir, stdio: 'inherit' });
}
