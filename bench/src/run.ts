/**
 * `pnpm bench`: measures what users of the kit wait for, each figure side by side with its
 * reference in the same run, and writes bench/results.json and bench/RESULTS.md. Progress goes
 * to stderr, one line as each section starts and ends. No test checks a timing; this is where
 * timings live. Exits 1 when a section could not measure (its row says why).
 */
import { readFile, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { argsProblem, untilStopped, usageLine } from '@print-contracts/client/kit';
import { benchClientThroughput } from './client-throughput.js';
import { benchConsumerSuite } from './consumer-suite.js';
import { sectionOf, withSection } from './mutations/summary.js';
import { benchMutations } from './mutations-bench.js';
import { benchPnpmTest } from './pnpm-test.js';
import { stopAll } from './processes.js';
import { type BenchReport, describeMachine, duration, loadNow, renderMarkdown } from './report.js';
import type { BenchRow } from './results.js';
import { benchSampleApiThroughput } from './sample-api-throughput.js';
import { benchSoak } from './soak-bench.js';
import { benchStandInVerify } from './stand-in-verify.js';
import { thousandInteractionsNote } from './thousand-interactions.js';
import { benchVerifyVsPactCli, type VerifyWall } from './verify-vs-pact-cli.js';

process.env.PACT_DO_NOT_TRACK = 'true';

const USAGE = `Usage: pnpm bench [--mutations]

Measures what users of the kit wait for, each figure beside its reference in the same run, and
writes bench/results.json and bench/RESULTS.md (about 5 minutes).

  --mutations   only the mutation harness: bench/mutations.json and its section of RESULTS.md (about 40 minutes)
  --help        this text
`;
// Checked before anything starts: a mistyped flag must not run the whole bench.
const options = { mutations: { type: 'boolean' }, help: { type: 'boolean' } } as const;
const flags = (() => {
  try {
    return parseArgs({ args: process.argv.slice(2), options, strict: true, allowPositionals: false }).values;
  } catch (error) {
    process.stderr.write(usageLine('bench', argsProblem(error, Object.keys(options))));
    process.exit(2);
  }
})();
if (flags.help) {
  process.stdout.write(USAGE);
  process.exit(0);
}

// Stopped (Ctrl-C, a cancelled job, the parent gone): every command the bench started goes
// with it, process group and all, and it exits 130 (SIGINT) or 143.
void untilStopped().stopped.then(async (reason) => {
  process.stderr.write(`\n[bench] ${reason}: stopping the commands it started…\n`);
  await stopAll();
  process.exit(reason === 'SIGINT' ? 130 : 143);
});
const BENCH_DIR = fileURLToPath(new URL('../', import.meta.url));

// `pnpm bench --mutations`: only the mutation harness, which writes its own section of RESULTS.md.
if (flags.mutations) process.exit(await benchMutations());

interface Section {
  readonly name: string;
  /** What to expect, for the progress line. */
  readonly about: string;
  readonly measure: () => Promise<{ rows?: BenchRow[]; notes?: string[] }>;
}

let verifyWall: VerifyWall | undefined;
const sections: Section[] = [
  {
    name: 'client throughput',
    about: 'about 5 s',
    measure: async () => ({ rows: await benchClientThroughput(5, 2_000) }),
  },
  {
    name: 'sample API throughput',
    about: 'about 30 s',
    measure: async () => ({ rows: await benchSampleApiThroughput(3, 2) }),
  },
  {
    name: '`pnpm verify` vs `pact verifier` on contracts/',
    about: '5 rounds, about 20 s',
    measure: async () => {
      verifyWall = await benchVerifyVsPactCli(5);
      return { rows: verifyWall.rows };
    },
  },
  {
    name: '1,000 interactions',
    about: 'one run, about 30 s',
    measure: async () => {
      if (!verifyWall) return { notes: ['1,000 interactions: not measured, as the real contracts were not'] };
      const real = { seconds: verifyWall.kitSeconds, interactions: verifyWall.interactions };
      return { notes: [await thousandInteractionsNote(real)] };
    },
  },
  {
    name: '`pnpm verify --base-url` against a stand-in vendor',
    about: '2 runs of about 65 s',
    measure: async () => ({ rows: await benchStandInVerify(2) }),
  },
  {
    name: 'consumer suite',
    about: '3 runs, about 30 s',
    measure: async () => ({ rows: await benchConsumerSuite(3) }),
  },
  {
    name: 'soak',
    about: 'about 5 s',
    measure: async () => ({ rows: await benchSoak(2_000, 32) }),
  },
  {
    name: '`pnpm test`',
    about: 'one cold run, about 3 min',
    measure: async () => ({ rows: await benchPnpmTest() }),
  },
];

const started = process.hrtime.bigint();
const elapsed = () => Number(process.hrtime.bigint() - started) / 1e9;
const say = (line: string) => process.stderr.write(`[bench ${duration(elapsed())}] ${line}\n`);
const startLoad = loadNow();
const report: BenchReport = {
  date: new Date().toISOString(),
  machine: describeMachine(),
  node: process.version,
  load: { start: startLoad, end: startLoad },
  seconds: 0,
  sections: [],
  rows: [],
  notes: [],
};

for (const [index, section] of sections.entries()) {
  const label = `${index + 1}/${sections.length} ${section.name}`;
  say(`▶ ${label} (${section.about})`);
  const sectionStart = elapsed();
  try {
    const { rows = [], notes = [] } = await section.measure();
    report.rows.push(...rows);
    report.notes.push(...notes);
    report.sections.push({ name: section.name, seconds: elapsed() - sectionStart, failed: false });
    say(`✓ ${label} in ${duration(elapsed() - sectionStart)}`);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    report.rows.push({
      area: section.name,
      what: 'could not be measured',
      unit: '',
      value: null,
      budget: '—',
      met: false,
      note: `failed: ${message.replaceAll('\n', ' ⏎ ').slice(0, 1500)}`,
    });
    report.sections.push({ name: section.name, seconds: elapsed() - sectionStart, failed: true });
    process.exitCode = 1;
    say(`✗ ${label} failed after ${duration(elapsed() - sectionStart)}: ${message.split('\n')[0]}`);
  }
}
report.seconds = elapsed();
report.load.end = loadNow();

await writeFile(`${BENCH_DIR}results.json`, `${JSON.stringify(report, null, 2)}\n`);
// The mutation harness's section is written by `pnpm bench --mutations`: kept as it was.
const harness = sectionOf(await readFile(`${BENCH_DIR}RESULTS.md`, 'utf8').catch(() => ''));
await writeFile(
  `${BENCH_DIR}RESULTS.md`,
  harness ? withSection(renderMarkdown(report), harness) : renderMarkdown(report),
);
console.table(
  report.rows.map((row) => ({
    what: `${row.area}: ${row.what}`.slice(0, 70),
    figure: row.value === null ? 'not measured' : `${row.value} ${row.unit}`,
    reference: row.reference ? `${row.reference.value}` : '',
    ratio: row.ratio ?? '',
    met: row.met ? 'yes' : 'NO',
  })),
);
console.log(`wrote bench/results.json and bench/RESULTS.md; the whole run took ${duration(report.seconds)}`);
