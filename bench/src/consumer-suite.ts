import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REPO_ROOT, timed } from './processes.js';
import type { BenchRow } from './results.js';
import { median, round } from './stats.js';
import { writeSyntheticContracts } from './synthetic-contracts.js';

const VITEST = `${REPO_ROOT}packages/consumer-contracts/node_modules/vitest/vitest.mjs`;

/** The consumer suite's wall time (both versions, contract check included) and a synthetic 1,000-interaction suite. */
export async function benchConsumerSuite(runs: number): Promise<BenchRow[]> {
  const suite: number[] = [];
  for (let i = 0; i < runs; i++) {
    suite.push(
      await timed(process.execPath, [VITEST, 'run'], { cwd: `${REPO_ROOT}packages/consumer-contracts` }),
    );
  }
  const dir = await mkdtemp(join(tmpdir(), 'bench-consumer-'));
  try {
    const perFile = await writeSyntheticContracts(1000, dir, { perFile: 10, concurrency: 2 });
    const wall = median(suite);
    return [
      {
        area: 'consumer suite',
        what: 'all interactions, v1 + v2, with the contract check (vitest run)',
        unit: 's wall',
        value: round(wall),
        budget: '< 10 s',
        met: wall < 10,
      },
      {
        area: 'consumer suite',
        what: 'synthetic 1,000 interactions, one pact file per 10 (as per test file), 2 at a time',
        unit: 's wall',
        value: round(perFile),
        budget: '< 15 s',
        met: perFile < 15,
        note: 'pact-js rewrites a pact file after each interaction, so one file costs time quadratic in its size',
      },
    ];
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
