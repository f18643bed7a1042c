import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { spawnTracked } from './processes.js';

const BENCH_DIR = fileURLToPath(new URL('../', import.meta.url));

/**
 * `pnpm bench --mutations`: the mutation harness (bench/mutations.measure.ts) through vitest,
 * which loads the kit's TypeScript-only test support; it writes bench/mutations.json and its
 * section of bench/RESULTS.md. Resolves to the exit status of the run.
 */
export async function benchMutations(): Promise<number> {
  const vitest = join(dirname(createRequire(import.meta.url).resolve('vitest/package.json')), 'vitest.mjs');
  const child = spawnTracked(process.execPath, [vitest, 'run', '--config', 'vitest.mutations.config.ts'], {
    cwd: BENCH_DIR,
    env: { ...process.env, PACT_DO_NOT_TRACK: 'true' },
    stderr: 'inherit',
  });
  child.stdout.pipe(process.stdout);
  return new Promise((resolve) => child.once('exit', (code) => resolve(code ?? 1)));
}
