import { execFileSync } from 'node:child_process';
import { cpSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const packageDir = fileURLToPath(new URL('..', import.meta.url));

/**
 * Builds the package once before the tests: some tests run the built command line as a
 * user does (`node dist/cli.js`), to see its exit statuses, its output and its signals.
 */
export default function setup(): void {
  const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
  execFileSync(process.execPath, [tsc, '-p', 'tsconfig.build.json'], { cwd: packageDir, stdio: 'inherit' });
  cpSync(`${packageDir}/src/replay/pact-worker.cjs`, `${packageDir}/dist/replay/pact-worker.cjs`);
}
