import { run } from './processes.js';
import type { BenchRow } from './results.js';
import { round } from './stats.js';

/**
 * The whole repository's `pnpm test` (turbo: lint, typecheck, build and every test suite),
 * once, cold: `--force` makes turbo ignore its cache, as on a fresh CI runner, so the figure
 * does not depend on what ran before. It must pass.
 */
export async function benchPnpmTest(): Promise<BenchRow[]> {
  const { seconds, lines } = await run('pnpm', ['test', '--force']);
  const tasks = lines.map(({ text }) => /Tasks:\s+(.+)$/.exec(text)?.[1]).find(Boolean);
  return [
    {
      area: 'repository',
      what: '`pnpm test --force`: lint, typecheck, build and every test suite, turbo cache bypassed',
      unit: 's wall',
      value: round(seconds, 1),
      budget: 'passes (no time budget)',
      met: true, // run() rejects when it fails, and the section is then reported failed
      note: `one run (it is long)${tasks ? `; turbo: ${tasks}` : ''}. Warm, turbo replays lint, typecheck and build from its cache; the test suites always run`,
    },
  ];
}
