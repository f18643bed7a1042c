import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REPORT_FILES, type RunReport } from '@print-contracts/verifier';
import { REPO_ROOT, run, VERIFIER_CLI } from './processes.js';
import { round } from './stats.js';
import { checkKitReport, readContracts } from './verify-checks.js';

interface PactFile {
  interactions: { description: string }[];
  [key: string]: unknown;
}

/**
 * The pact with its interactions repeated, in order, until there are `count`; every copy gets
 * ` (copy n)` after its description, so each is its own interaction (same states, requests and
 * expected answers as the original).
 */
export function repeatInteractions<P extends PactFile>(pact: P, count: number): P {
  const source = pact.interactions;
  if (source.length === 0) throw new RangeError('a pact without interactions cannot be repeated');
  const interactions = Array.from({ length: count }, (_, i) => {
    const original = source[i % source.length] as PactFile['interactions'][number];
    const copy = structuredClone(original);
    copy.description = `${original.description} (copy ${Math.floor(i / source.length)})`;
    return copy;
  });
  return { ...pact, interactions };
}

/**
 * One run of the default `pnpm verify` (embedded sample API) on the v2 pact repeated to 1,000
 * interactions; a line for the notes, set against a linear extrapolation of figure (a).
 */
export async function thousandInteractionsNote(real: {
  seconds: number;
  interactions: number;
}): Promise<string> {
  const count = 1000;
  const v2 = (await readContracts(REPO_ROOT)).find((committed) => committed.provider.endsWith('-v2'));
  if (!v2) throw new Error('contracts/ has no v2 pact');
  const pact = JSON.parse(await readFile(join(REPO_ROOT, v2.file), 'utf8')) as PactFile;
  const work = await mkdtemp(join(tmpdir(), 'bench-1000-'));
  try {
    const file = join(work, 'repeated.json');
    await writeFile(file, JSON.stringify(repeatInteractions(pact, count)));
    const reportDir = join(work, 'reports');
    const { seconds } = await run(process.execPath, [
      VERIFIER_CLI,
      ...['--pact', file, '--report-dir', reportDir, '--quiet'],
    ]);
    const report = JSON.parse(await readFile(join(reportDir, REPORT_FILES.json), 'utf8')) as RunReport;
    checkKitReport(report, { interactions: count });
    const linear = (real.seconds / real.interactions) * count;
    const growth = seconds / linear;
    const verdict =
      growth > 1.25
        ? `so the cost per interaction grows with the pact's size (${round(growth, 1)}× the linear figure)`
        : 'so the cost is about linear in the number of interactions';
    return `1,000 interactions (the v2 pact's ${pact.interactions.length} repeated, all verified, ${report.teardown.created} orders created), one run of the default \`pnpm verify --pact\`: ${round(seconds, 1)} s wall, ${round((seconds / count) * 1000, 1)} ms per interaction; scaled linearly from the real contracts (${round(real.seconds)} s for ${real.interactions}, start-up included, so an upper bound for linear cost) it would be ${round(linear, 1)} s, ${verdict}`;
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}
