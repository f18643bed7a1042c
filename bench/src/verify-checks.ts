import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { RunReport } from '@print-contracts/verifier';

/** One committed pact: its file (relative to the repository root), provider and interaction descriptions. */
export interface CommittedPact {
  readonly file: string;
  readonly provider: string;
  readonly descriptions: readonly string[];
}

/** The pacts in `contracts/`, as both verifiers are given them. */
export async function readContracts(root: string): Promise<CommittedPact[]> {
  const names = (await readdir(join(root, 'contracts'))).filter((name) => name.endsWith('.json')).sort();
  return Promise.all(
    names.map(async (name) => {
      const file = `contracts/${name}`;
      const pact = JSON.parse(await readFile(join(root, file), 'utf8')) as {
        provider: { name: string };
        interactions: { description: string }[];
      };
      return {
        file,
        provider: pact.provider.name,
        descriptions: pact.interactions.map((interaction) => interaction.description),
      };
    }),
  );
}

/** What a kit run must show for its time to count. */
export interface KitExpectation {
  /** Interactions in the pacts it was given. */
  readonly interactions: number;
  /** Interactions allowed to be not verifiable here (a target without the control surface); default 0. */
  readonly notVerifiable?: number;
}

/**
 * Throws unless the kit's report (verify-report.json) shows a passing run that replayed every
 * interaction it was given, verified all but the allowed not-verifiable ones, and left no order open.
 */
export function checkKitReport(report: RunReport, expected: KitExpectation): void {
  const { totals, teardown } = report;
  const problems = [
    report.exitCode !== 0 && `exit code ${report.exitCode}`,
    totals.total !== expected.interactions &&
      `${totals.total} interactions in the report, ${expected.interactions} in the pacts`,
    totals.failed > 0 && `${totals.failed} failed`,
    totals.targetUnavailable > 0 && `${totals.targetUnavailable} target unavailable`,
    totals.notVerifiable !== (expected.notVerifiable ?? 0) &&
      `${totals.notVerifiable} not verifiable here (expected ${expected.notVerifiable ?? 0})`,
    totals.verified + totals.notVerifiable !== totals.total &&
      `only ${totals.verified} of ${totals.total} verified`,
    teardown.open > 0 && `${teardown.open} orders left open`,
  ].filter((problem): problem is string => typeof problem === 'string');
  if (problems.length > 0) throw new Error(`the kit's run does not count: ${problems.join('; ')}`);
}

/** The JSON report the official `pact verifier` writes to PACT_VERIFIER_JSON_REPORT. */
export interface PactCliReport {
  readonly result: boolean;
  readonly errors: readonly unknown[];
  readonly interactionResults: readonly { readonly description: string; readonly result: string }[];
}

/** Throws unless the official verifier passed and verified OK exactly the interactions of the pacts. */
export function checkPactCliReport(report: PactCliReport, descriptions: readonly string[]): void {
  const notOk = report.interactionResults.filter(({ result }) => result !== 'OK');
  const seen = report.interactionResults.map(({ description }) => description).sort();
  const wanted = [...descriptions].sort();
  const problems = [
    !report.result && 'result false',
    report.errors.length > 0 && `${report.errors.length} errors`,
    notOk.length > 0 && `not OK: ${notOk.map(({ description }) => description).join(', ')}`,
    (seen.length !== wanted.length || seen.some((description, i) => description !== wanted[i])) &&
      `${seen.length} interactions replayed, ${wanted.length} in the pacts`,
  ].filter((problem): problem is string => typeof problem === 'string');
  if (problems.length > 0) throw new Error(`the pact verifier's run does not count: ${problems.join('; ')}`);
}

/** Where a kit run's wall time went, from the second each progress line came. */
export interface Phases {
  /** Start-up, the pacts, the preflight and the first wave's states (lists, checks, creates sent). */
  readonly arrange: number;
  /** From the first replayed request to the start of teardown: both waves, and the wait between them. */
  readonly replay: number;
  /** Cancelling the orders the run created, reports, exit. */
  readonly settle: number;
}

/**
 * Splits a kit run (not `--quiet`) at its first replayed request (`→ v1 GET …`) and at
 * `Teardown:`; undefined when the output has neither (the phases cannot be told apart).
 */
export function phasesOf(
  lines: readonly { at: number; text: string }[],
  seconds: number,
): Phases | undefined {
  const replayStart = lines.find(({ text }) => /^\s*→ v\d+ [A-Z]+ /.test(text))?.at;
  const teardown = lines.find(({ text }) => text.startsWith('Teardown:'))?.at;
  if (replayStart === undefined || teardown === undefined || teardown < replayStart) return undefined;
  return { arrange: replayStart, replay: teardown - replayStart, settle: seconds - teardown };
}
