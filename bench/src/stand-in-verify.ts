import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ENV } from '@print-contracts/client';
import { startSampleApi } from '@print-contracts/sample-api';
import { OTHER_SECRET_ENV, OTHER_USER_ID_ENV, REPORT_FILES, type RunReport } from '@print-contracts/verifier';
import { REPO_ROOT, run, VERIFIER_CLI } from './processes.js';
import type { BenchRow } from './results.js';
import { median, round } from './stats.js';
import { checkKitReport, type Phases, phasesOf, readContracts } from './verify-checks.js';

/** The stand-in vendor: every API request answered this much later, created orders processing this long. */
const STAND_IN = { latencyMs: 100, processingDelayMs: 30_000 } as const;

const MAIN = { userId: 'bench-user', secret: 'bench-secret-0000' };
const OTHER = { userId: 'bench-other-user', secret: 'bench-other-secret-0000' };

/**
 * A full `pnpm verify --base-url … --mode sample` against a stand-in for the vendor: the sample
 * API with 100 ms added to every API answer and orders that stay processing for 30 s, and no
 * control surface (the vendor has none). A fresh stand-in per run. The run must pass and
 * leave no order open; the interactions that need the control surface are not verifiable here.
 */
export async function benchStandInVerify(runs: number): Promise<BenchRow[]> {
  const interactions = (await readContracts(REPO_ROOT)).flatMap((pact) => pact.descriptions).length;
  const work = await mkdtemp(join(tmpdir(), 'bench-stand-in-'));
  const results: { seconds: number; phases: Phases | undefined; report: RunReport }[] = [];
  try {
    for (let i = 0; i < runs; i++) {
      const api = await startSampleApi({
        credentials: [MAIN, OTHER],
        processingDelayMs: STAND_IN.processingDelayMs,
        faults: [{ latencyMs: STAND_IN.latencyMs }],
      });
      try {
        const reportDir = join(work, `run-${i}`);
        const { seconds, lines } = await run(
          process.execPath,
          // --verbose: its lines of each replayed request and of the teardown tell where the time went.
          [VERIFIER_CLI, '--base-url', api.url, '--mode', 'sample', '--report-dir', reportDir, '--verbose'],
          {
            env: {
              [ENV.userId]: MAIN.userId,
              [ENV.secret]: MAIN.secret,
              [OTHER_USER_ID_ENV]: OTHER.userId,
              [OTHER_SECRET_ENV]: OTHER.secret,
            },
          },
        );
        const report = JSON.parse(await readFile(join(reportDir, REPORT_FILES.json), 'utf8')) as RunReport;
        // Without the control surface, only the interactions whose state needs it may go unverified.
        const needControl = report.interactions.filter(
          (item) => item.verdict === 'not-verifiable' && /control surface/.test(item.reason ?? ''),
        ).length;
        checkKitReport(report, { interactions, notVerifiable: needControl });
        results.push({ seconds, phases: phasesOf(lines, seconds), report });
      } finally {
        await api.close();
      }
    }
  } finally {
    await rm(work, { recursive: true, force: true });
  }

  const delay = STAND_IN.processingDelayMs / 1000;
  const wall = median(results.map((result) => result.seconds));
  const created = results.map((result) => result.report.teardown.created);
  const open = results.reduce((sum, result) => sum + result.report.teardown.open, 0);
  const [first] = results;
  const totals = first?.report.totals;
  const timed = results.flatMap((result) => (result.phases ? [result.phases] : []));
  const phase = (key: keyof Phases) => round(median(timed.map((phases) => phases[key])), 1);
  const where = timed.length
    ? `; where it went (median): ${phase('arrange')} s from start to the first replayed request (pacts, preflight, lists, checks, the creates sent), ${phase('replay')} s replaying the first wave and waiting for the vendor to process the run's orders, then the second wave, ${phase('settle')} s cancelling what the run created and reports`
    : '';
  const runsText = `median of ${runs} runs (${results.map((result) => `${round(result.seconds, 1)} s`).join(', ')})`;
  return [
    {
      area: 'verify',
      what: `\`pnpm verify --base-url … --mode sample\` against a stand-in vendor: ${STAND_IN.latencyMs} ms per request, orders processing ${delay} s`,
      unit: 's wall',
      value: round(wall, 1),
      reference: { what: 'the processing delay itself', value: delay },
      ratio: round(wall / delay),
      budget: '≤ delay + 3 s',
      met: wall <= delay + 3,
      note: `${runsText}; ${totals?.verified} of ${totals?.total} interactions verified, ${totals?.notVerifiable} not verifiable here (their state needs the control surface the vendor lacks), 0 failed${where}. The run waits for the vendor once: the interactions that need no order of the run's, the creates among them, are replayed while the vendor processes the run's own orders; what the wall holds over the delay is the time before the run's creates are sent, the second wave and the teardown, which reads every order back before it counts it settled`,
    },
    {
      area: 'verify',
      what: 'orders that run created at the stand-in vendor',
      unit: 'orders',
      value: median(created),
      budget: 'every one settled (cancelled or failed), none left open',
      met: open === 0,
      note: `from each run's report (its ledger records each create before it is sent), per run: ${created.join(', ')}; ${open} left open`,
    },
  ];
}
