import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { timed, VERIFIER_CLI } from './processes.js';
import type { BenchRow } from './results.js';
import { median, round } from './stats.js';

/** Wall time of the default `pnpm verify` (both versions, sample API start included), and with a 2 s processing delay. */
export async function benchVerifyWall(runs: number): Promise<BenchRow[]> {
  const reports = await mkdtemp(join(tmpdir(), 'bench-verify-'));
  const verify = (extra: string[] = []) =>
    timed(process.execPath, [VERIFIER_CLI, '--quiet', '--report-dir', reports, ...extra]);
  try {
    const plain: number[] = [];
    const delayed: number[] = [];
    for (let i = 0; i < runs; i++) {
      plain.push(await verify());
      delayed.push(await verify(['--processing-delay', '2000']));
    }
    const wall = median(plain);
    const delayedWall = median(delayed);
    return [
      {
        area: 'verify',
        what: 'default `pnpm verify` (v1 + v2, embedded sample API)',
        unit: 's wall',
        value: round(wall),
        budget: '< 3 s',
        met: wall < 3,
      },
      {
        area: 'verify',
        what: 'verify with the processing delay at 2 s',
        unit: 's wall',
        value: round(delayedWall),
        reference: { what: 'the delay itself', value: 2 },
        ratio: round(delayedWall / 2),
        budget: '≤ delay + 3 s',
        met: delayedWall <= 5,
      },
    ];
  } finally {
    await rm(reports, { recursive: true, force: true });
  }
}
