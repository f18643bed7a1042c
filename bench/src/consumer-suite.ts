import { REPO_ROOT, run } from './processes.js';
import type { BenchRow } from './results.js';
import { median, round } from './stats.js';

const VITEST = `${REPO_ROOT}packages/consumer-contracts/node_modules/vitest/vitest.mjs`;

/** The consumer suite's wall time: every interaction of both versions through Pact's mock server, contract check included. */
export async function benchConsumerSuite(runs: number): Promise<BenchRow[]> {
  const walls: number[] = [];
  for (let i = 0; i < runs; i++) {
    // The interactions write the pacts, the contract checks compare them with contracts/; the stub's own tests are left out.
    const args = [VITEST, 'run', '--project', 'interactions', '--project', 'contracts'];
    walls.push(
      (await run(process.execPath, args, { cwd: `${REPO_ROOT}packages/consumer-contracts` })).seconds,
    );
  }
  const wall = median(walls);
  return [
    {
      area: 'consumer suite',
      what: 'all interactions, v1 + v2, with the contract check (vitest run, projects interactions and contracts)',
      unit: 's wall',
      value: round(wall),
      budget: '< 10 s',
      met: wall < 10,
      note: `median of ${runs}`,
    },
  ];
}
