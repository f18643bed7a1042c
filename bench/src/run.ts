/**
 * `pnpm bench`: measures the kit where speed matters, each figure side by side with its
 * reference in the same run, and writes bench/results.json and bench/RESULTS.md.
 * No test checks a timing; this is where timings live.
 */
import { writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { benchClientThroughput } from './client-throughput.js';
import { benchConsumerSuite } from './consumer-suite.js';
import { type BenchReport, describeMachine, renderMarkdown } from './report.js';
import type { BenchRow } from './results.js';
import { benchSampleApiThroughput } from './sample-api-throughput.js';
import { benchSoak } from './soak-bench.js';
import { benchVerifierScale } from './verifier-scale.js';
import { benchVerifyWall } from './verify-wall.js';

process.env.PACT_DO_NOT_TRACK = 'true';
const BENCH_DIR = fileURLToPath(new URL('../', import.meta.url));

const sections: [string, () => Promise<BenchRow[]>][] = [
  ['client', () => benchClientThroughput(5, 2_000)],
  ['sample API', () => benchSampleApiThroughput(3, 2)],
  ['verifier at scale', () => benchVerifierScale({ 10: 5, 100: 3, 1000: 2 })],
  ['verify wall time', () => benchVerifyWall(3)],
  ['consumer suite', () => benchConsumerSuite(3)],
  ['soak', async () => (await benchSoak(2_000, 32)).rows],
];

const started = process.hrtime.bigint();
const rows: BenchRow[] = [];
for (const [name, measure] of sections) {
  process.stdout.write(`measuring ${name}…\n`);
  rows.push(...(await measure()));
}
const report: BenchReport = {
  date: new Date().toISOString(),
  machine: describeMachine(),
  node: process.version,
  seconds: Number(process.hrtime.bigint() - started) / 1e9,
  rows,
};
const misses = rows.filter((row) => !row.met);
const missText = misses.length
  ? `## Budgets missed\n\n${misses.map((row) => `- ${row.area}, ${row.what}: ${row.note ?? 'no explanation recorded'}`).join('\n')}\n`
  : 'Every budget was met in this run.\n';

await writeFile(`${BENCH_DIR}results.json`, `${JSON.stringify(report, null, 2)}\n`);
await writeFile(`${BENCH_DIR}RESULTS.md`, renderMarkdown(report, missText));
console.table(
  rows.map((row) => ({
    what: `${row.area}: ${row.what}`.slice(0, 70),
    figure: `${row.value} ${row.unit}`,
    reference: row.reference ? `${row.reference.value}` : '',
    ratio: row.ratio ?? '',
    met: row.met ? 'yes' : 'NO',
  })),
);
console.log(`wrote bench/results.json and bench/RESULTS.md in ${Math.round(report.seconds)} s`);
