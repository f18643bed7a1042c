import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PLACEHOLDER_CREDENTIALS } from '@print-contracts/client/kit';
import { pactCliBinary } from '@print-contracts/consumer-contracts/pact-cli';
import { PROVIDER_STATES_PATH } from '@print-contracts/sample-api/control-surface';
import { REPORT_FILES, type RunReport } from '@print-contracts/verifier';
import { REPO_ROOT, run, startSampleApiProcess, stopProcess, VERIFIER_CLI } from './processes.js';
import type { BenchRow } from './results.js';
import { median, round } from './stats.js';
import { checkKitReport, checkPactCliReport, type PactCliReport, readContracts } from './verify-checks.js';

/** What figure (a) measured, for the rows and for the 1,000-interaction note. */
export interface VerifyWall {
  readonly rows: BenchRow[];
  /** Median wall of the default `pnpm verify` (node on the built CLI). */
  readonly kitSeconds: number;
  readonly interactions: number;
}

/**
 * The real contracts, as a user runs them: the default `pnpm verify` (it starts the embedded
 * sample API and replays contracts/*.json, v1 and v2) against the same work done the standard
 * way: `pnpm sample-api --control` started (a fresh one per round), then the official
 * `pact verifier` CLI with the README's flags (the API's standard provider-state endpoint, the
 * contracts' placeholder credentials accepted as sent). Each round runs the reference first,
 * then the kit; every run of either must verify every interaction, or the figure fails.
 */
export async function benchVerifyVsPactCli(runs: number): Promise<VerifyWall> {
  const contracts = await readContracts(REPO_ROOT);
  const descriptions = contracts.flatMap((pact) => pact.descriptions);
  const work = await mkdtemp(join(tmpdir(), 'bench-verify-'));
  // Only for a note: the same reference with an empty CA store, as the kit gives its own Pact child.
  const emptyCa = { SSL_CERT_FILE: join(work, 'empty-ca.pem'), SSL_CERT_DIR: join(work, 'empty-ca') };
  await writeFile(emptyCa.SSL_CERT_FILE, '');
  await mkdir(emptyCa.SSL_CERT_DIR);
  const baseEnv = { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', PACT_DO_NOT_TRACK: 'true' };

  const kitRun = async (command: string, args: readonly string[], i: number) => {
    const reportDir = join(work, `kit-${command === 'pnpm' ? 'pnpm' : 'node'}-${i}`);
    const { seconds } = await run(command, [...args, '--report-dir', reportDir]);
    const report = JSON.parse(await readFile(join(reportDir, REPORT_FILES.json), 'utf8')) as RunReport;
    checkKitReport(report, { interactions: descriptions.length });
    return seconds;
  };
  const referenceRun = async (port: string, name: string, env: Record<string, string> = {}) => {
    const reportFile = join(work, `${name}.json`);
    const { seconds } = await run(
      pactCliBinary(),
      [
        'verifier',
        ...['--hostname', '127.0.0.1', '--port', port],
        ...[
          '--state-change-url',
          `http://127.0.0.1:${port}${PROVIDER_STATES_PATH}`,
          '--state-change-teardown',
        ],
        ...contracts.flatMap((pact) => ['--file', pact.file]),
      ],
      { cleanEnv: { ...baseEnv, ...env, PACT_VERIFIER_JSON_REPORT: reportFile } },
    );
    checkPactCliReport(JSON.parse(await readFile(reportFile, 'utf8')) as PactCliReport, descriptions);
    return seconds;
  };

  const kit: number[] = [];
  const throughPnpm: number[] = [];
  /** The sample API's start to ready plus the verifier: the same work as the kit's default run. */
  const reference: number[] = [];
  const referenceVerifier: number[] = [];
  const referenceEmptyCa: number[] = [];
  const sampleApiStart: number[] = [];
  try {
    for (let i = 0; i < runs; i++) {
      const api = await startSampleApiProcess([
        '--control',
        ...['--port', '0'],
        ...['--credentials', `${PLACEHOLDER_CREDENTIALS.userId}:${PLACEHOLDER_CREDENTIALS.secret}`],
        ...['--credentials', 'other-user-id:other-api-secret'],
      ]);
      sampleApiStart.push(api.seconds);
      try {
        const port = new URL(api.url).port;
        const verifierOnly = await referenceRun(port, `reference-${i}`);
        referenceVerifier.push(verifierOnly);
        reference.push(api.seconds + verifierOnly);
        referenceEmptyCa.push(await referenceRun(port, `reference-empty-ca-${i}`, emptyCa));
      } finally {
        await stopProcess(api.child);
      }
      kit.push(await kitRun(process.execPath, [VERIFIER_CLI], i));
      throughPnpm.push(await kitRun('pnpm', ['verify'], i));
    }
  } finally {
    await rm(work, { recursive: true, force: true });
  }
  const kitSeconds = median(kit);
  const referenceSeconds = median(reference);
  const ratio = kitSeconds / referenceSeconds;
  return {
    kitSeconds,
    interactions: descriptions.length,
    rows: [
      {
        area: 'verify',
        what: `default \`pnpm verify\`: ${contracts.length} pacts, ${descriptions.length} interactions, embedded sample API started and stopped`,
        unit: 's wall',
        value: round(kitSeconds),
        reference: {
          what: '`pnpm sample-api --control` started, then `pact verifier` (pact-cli) with the README flags on the same pacts',
          value: round(referenceSeconds),
        },
        ratio: round(ratio),
        budget: '≤ 1.0× reference',
        met: ratio <= 1,
        note: [
          `median of ${runs}; every run of both verified all ${descriptions.length} interactions (checked in their JSON reports)`,
          `both start a sample API: the reference's wall is \`pnpm sample-api --control\` to ready (${round(median(sampleApiStart))} s) plus \`pact verifier\` (${round(median(referenceVerifier))} s alone, against the API already listening)`,
          `through \`pnpm verify\` itself (pnpm, then turbo finding the build cached): ${round(median(throughPnpm))} s`,
          `the reference spends most of its wall loading the system's CA store: with an empty one (SSL_CERT_FILE/SSL_CERT_DIR), as the kit gives its own Pact child, it takes ${round(median(referenceEmptyCa))} s`,
        ].join('; '),
      },
    ],
  };
}
