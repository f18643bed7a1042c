import { run } from './processes.js';
import type { BenchRow } from './results.js';
import { round } from './stats.js';

/**
 * The whole repository's `pnpm test` (turbo: lint, typecheck, build and every test suite),
 * once, cold: `--force` makes turbo ignore its cache, as on a fresh CI runner, so the figure
 * does not depend on what ran before. It must pass.
 */
export async function benchPnpmTest(): Promise<BenchRow[]> {
  const { seconds, code, lines } = await run('pnpm', ['test', '--force'], { check: false });
  if (code !== 0) {
    // What failed: vitest's failed files and tests, and turbo's failed tasks.
    const failed = lines
      .map(({ text }) => text.trim())
      .filter((text) => /(\bFAIL\b| × |Test timed out|Failed:)/.test(text));
    throw new Error(
      `pnpm test --force exited ${code} after ${round(seconds)} s: ${[...new Set(failed)].slice(0, 20).join(' | ')}`,
    );
  }
  const tasks = lines.map(({ text }) => /Tasks:\s+(.+)$/.exec(text)?.[1]).find(Boolean);
  return [
    {
      area: 'repository',
      what: '`pnpm test --force`: lint, typecheck, build and every test suite, turbo cache bypassed',
      unit: 's wall',
      value: round(seconds, 1),
      budget: 'passes (no time budget)',
      met: true, // a failing run throws above, and the section is reported failed
      note: `one run (it is long)${tasks ? `; turbo: ${tasks}` : ''}. Warm, turbo replays lint, typecheck and build from its cache; the test suites always run`,
    },
  ];
}
