import { execFileSync } from 'node:child_process';
import { cpSync, readdirSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const packageDir = fileURLToPath(new URL('..', import.meta.url));

/** The newest modification time of the files below `dir`. */
const newest = (dir: string) =>
  Math.max(
    ...readdirSync(dir, { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile())
      .map((entry) => statSync(join(entry.parentPath, entry.name)).mtimeMs),
  );

/**
 * Some tests run the built command line as a user does (`node dist/cli.js`), to see its exit
 * statuses, its output and its signals. `pnpm test` builds it first (turbo); run alone, the
 * tests build it here when the sources are newer. A fresh build is never rewritten: other
 * suites may be running it at the same time.
 */
export default function setup(): void {
  let built = 0;
  try {
    built = statSync(join(packageDir, 'dist/cli.js')).mtimeMs;
  } catch {
    // Not built yet.
  }
  if (built >= newest(join(packageDir, 'src'))) return;
  const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
  execFileSync(process.execPath, [tsc, '-p', 'tsconfig.build.json'], { cwd: packageDir, stdio: 'inherit' });
  cpSync(`${packageDir}/src/replay/pact-worker.cjs`, `${packageDir}/dist/replay/pact-worker.cjs`);
}
