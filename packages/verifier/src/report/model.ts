import { API_VERSIONS, type ApiVersion } from '@print-contracts/client';
import type { Change, Comparison } from '../compare/compare.js';
import type { DriftReport } from '../drift/observe-drift.js';
import { EXIT_CODES } from '../exit-codes.js';
import type { LedgerOutcome } from '../ledger/ledger.js';
import { VERDICT_WORDS, type Verdict } from '../plan/plan.js';
import type { Settlement } from '../settle/settle.js';
import type { RetrySummary } from '../target/transport.js';
import type { buildReport } from './build-report.js';

/**
 * Everything a run found: the JSON report, and what the console, JUnit and Markdown reports
 * render; with a baseline or known findings, what changed (`withComparison`).
 */
export type RunReport = ReturnType<typeof buildReport> & { readonly comparison?: Comparison };
export type InteractionReport = RunReport['interactions'][number];
export type Counts = RunReport['totals'];

/** How each verdict looks: its mark and colour on the console, its cell in Markdown. */
export const LOOKS: Readonly<
  Record<Verdict, { mark: string; style: 'green' | 'red' | 'yellow' | 'dim'; markdown: string }>
> = {
  verified: { mark: '✓', style: 'green', markdown: '✅ verified' },
  failed: { mark: '✗', style: 'red', markdown: '❌ **FAILED**' },
  'not-verifiable': { mark: '○', style: 'yellow', markdown: '⚪ not verifiable here' },
  'target-unavailable': { mark: '⚠', style: 'yellow', markdown: '⚠️ target unavailable' },
  'not-run': { mark: '·', style: 'dim', markdown: '⏹️ not run' },
};

/** The verdicts listed after the failures, with their reasons: the section's title, and what the console adds. */
export const LISTED = [
  { verdict: 'not-run', title: 'Not run (the run was stopped)', why: '' },
  { verdict: 'target-unavailable', title: 'Target unavailable', why: ' (not a broken contract)' },
  { verdict: 'not-verifiable', title: 'Not verifiable here', why: '' },
] as const;

/** The title of the drift section, in the console and in Markdown. */
export const DRIFT_HEADING = 'Drift from the OpenAPI description';

/** The versions the run verified, in order, each with its counts. */
export const versionsOf = (report: RunReport) =>
  API_VERSIONS.flatMap((version) => {
    const counts = report.byVersion[version];
    return counts ? [{ version, counts }] : [];
  });

/** Interactions (by consumer and description) × versions, rows in the order they first appear. */
export function matrixRows(interactions: readonly InteractionReport[]) {
  const consumers = new Set(interactions.map((item) => item.consumer));
  const rows = new Map<string, { label: string; cells: Partial<Record<ApiVersion, InteractionReport>> }>();
  for (const item of interactions) {
    const named = consumers.size > 1 ? `${item.consumer}: ${item.description}` : item.description;
    const label = item.from === undefined ? named : `${named} (${item.from})`;
    const row = rows.get(`${label}|${item.states}`) ?? { label, cells: {} };
    row.cells[item.version] ??= item;
    rows.set(`${label}|${item.states}`, row);
  }
  return [...rows.values()];
}

/** The interactions with one verdict, for the writers' sections. */
export const withVerdict = (report: RunReport, verdict: Verdict) =>
  report.interactions.filter((item) => item.verdict === verdict);

// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what this finds.
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/g;
const ESCAPES: Readonly<Record<string, string>> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };

/** Text from a pact or a target, its control characters (a forged line, an ANSI escape) made visible. */
export const printable = (text: string): string =>
  text.replace(CONTROL, (char) => ESCAPES[char] ?? `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`);

/**
 * Drift fails a run only when the user asked for it (`--fail-on-drift`), and against a baseline
 * only drift the baseline did not show: a night is red on what is new.
 */
export const driftFails = (failOnDrift: boolean, drift: DriftReport | undefined): boolean =>
  failOnDrift && (drift?.findings ?? []).some((finding) => finding.change !== 'known');

/**
 * Why a run exits 1 though no interaction failed: `--strict` counting the not verifiable ones,
 * or `--fail-on-drift`. Undefined when a contract broke (the failures say it) or the run passed.
 */
export function failedWithoutBreak(report: RunReport): string | undefined {
  const { totals } = report;
  if (report.exitCode !== EXIT_CODES.failed || totals.failed > totals.pendingFailed) return undefined;
  // Against a baseline, what is new decides, and the changes since the baseline say it.
  if (report.comparison?.fails) return undefined;
  if (report.strict && totals.notVerifiable > 0) {
    const many =
      totals.notVerifiable === 1 ? '1 interaction was' : `${totals.notVerifiable} interactions were`;
    return `Exit 1: no contract broke, but ${many} not verifiable here and --strict counts them as failures.`;
  }
  if (driftFails(report.failOnDrift, report.drift)) {
    return 'Exit 1: no contract broke, but answers drifted from the OpenAPI description and --fail-on-drift counts that.';
  }
  return undefined;
}

/** How an order's end reads in the summary, in the order the summary lists them. */
const ENDINGS: Readonly<Record<Exclude<LedgerOutcome, 'not-created'>, string>> = {
  cancelled: 'cancelled',
  'settled-by-reference': 'unanswered at creation, settled by a scan for the run reference',
  'creation-failed': 'failed creation at the vendor (nothing to cancel)',
  'not-found': 'never placed (404 past their creation window)',
  gone: 'gone with the embedded sample API',
};

/** Every order the run created, accounted for in one line: `Orders: 24 created at the target: 22 cancelled, …`. */
export function teardownText(teardown: Settlement): string {
  const ends = Object.entries(ENDINGS).flatMap(([outcome, words]) => {
    const count = teardown.ended[outcome as LedgerOutcome];
    return count ? [`${count} ${words}`] : [];
  });
  // A ledger reused from run to run also holds what an earlier run left: said apart.
  const { openEarlier: earlier, unconfirmed } = teardown;
  const maybe = unconfirmed ? `${unconfirmed} maybe never made: their creates got no usable answer; ` : '';
  const counts = [
    ...(teardown.open > earlier ? [`${teardown.open - earlier} still open`] : []),
    ...(earlier > 0 ? [`${earlier} left open by an earlier run`] : []),
  ];
  const open =
    counts.length > 0
      ? `${counts.join(' and ')} in ${teardown.ledger ?? 'the ledger'} (${maybe}run \`pnpm verify --cleanup\`)`
      : 'none left open';
  const unledgered = teardown.unledgered
    ? ` (${teardown.unledgered} of them made beyond what its creates answered, found by the run's reference)`
    : '';
  return `Orders: ${teardown.created} created at the target${unledgered}${ends.length > 0 ? `: ${ends.join(', ')}` : ''}; ${open}.`;
}

/** One group of the changes since the last run; `fails`: it makes the run fail, `known`: excused. */

const word = (verdict: string | undefined) =>
  verdict === undefined ? 'absent' : (VERDICT_WORDS[verdict as keyof typeof VERDICT_WORDS] ?? verdict);
// A gone interaction's description comes from the baseline file: shown printable, like the run's own.
const name = (row: Change) => printable(`${row.version} ${row.description}`);
const moved = (row: Change) => `${name(row)}: ${word(row.before)} before, ${word(row.now)} now`;
const knownText = (row: Change) =>
  `${name(row)}: ${word(row.now)}, known until ${row.known?.expires}: ${row.known?.reason}`;

/** `Since the baseline …: 1 new failure, …`: the first line of the changes, or none without a comparison. */
export function changesHeadline(report: RunReport): string | undefined {
  const comparison = report.comparison;
  if (comparison === undefined) return undefined;
  const { counts, baseline, knownFindingsFile } = comparison;
  const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;
  const since = baseline
    ? `Since the baseline ${baseline.file} (run of ${baseline.startedAt}): ${plural(counts.newFailures, 'new failure')}, ${plural(counts.regressions, 'regression')}, ${counts.fixed} fixed`
    : 'No baseline';
  const known = knownFindingsFile
    ? `; ${plural(counts.known, 'known finding')} (${knownFindingsFile}), ${plural(counts.expired, 'expired acknowledgement')}, ${plural(counts.unused, 'unused acknowledgement')}`
    : '';
  return `${since}${known}.`;
}

/** The changes in the order every report leads with them: what fails the run first. */
interface ChangeSection {
  readonly title: string;
  readonly weight: 'fails' | 'known' | 'info';
  readonly items: readonly { readonly name: string; readonly text: string }[];
}

export function changeSections(report: RunReport): ChangeSection[] {
  const comparison = report.comparison;
  if (comparison === undefined) return [];
  const rows = comparison.changes;
  const of = (kind: Change['kind']) => rows.filter((row) => row.kind === kind && row.known === undefined);
  const items = (list: readonly Change[], text = moved) =>
    list.map((row) => ({ name: name(row), text: printable(text(row)) }));
  const acknowledged = (status: 'expired' | 'unused') =>
    comparison.acknowledgements
      .filter((item) => item.status === status)
      .map((item) => ({
        name: printable(`${item.version} ${item.interaction}`),
        text: printable(item.text),
      }));
  const sections: ChangeSection[] = [
    { title: 'New failures', weight: 'fails', items: items(of('new-failure')) },
    { title: 'Regressions', weight: 'fails', items: items(of('regression')) },
    { title: 'Expired acknowledgements', weight: 'fails', items: acknowledged('expired') },
    { title: 'Fixed', weight: 'info', items: items(of('fixed')) },
    {
      title: 'Known findings (acknowledged)',
      weight: 'known',
      items: items(
        rows.filter((row) => row.known !== undefined),
        knownText,
      ),
    },
    { title: 'Unused acknowledgements', weight: 'info', items: acknowledged('unused') },
    { title: 'New interactions', weight: 'info', items: items(of('new-interaction')) },
    { title: 'Gone interactions', weight: 'info', items: items(of('gone')) },
  ];
  return sections.filter((section) => section.items.length > 0);
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

/**
 * One line on what the run waited out: 429 and 503 answers, requests retried after no answer,
 * and the waits added up. Undefined when nothing was retried. Information, never a verdict.
 */
export function retriesText(summary: RetrySummary | undefined): string | undefined {
  if (!summary) return undefined;
  const { answers429, answers503, unanswered, waitedMs } = summary;
  const parts = [
    ...(answers429 > 0 ? [`${answers429} answers 429`] : []),
    ...(answers503 > 0 ? [`${answers503} answers 503`] : []),
    ...(unanswered > 0 ? [`${unanswered} requests without an answer`] : []),
  ];
  if (parts.length === 0) return undefined;
  return `Retries: the target throttled or missed requests (${parts.join(', ')}); the run waited ${seconds(waitedMs)} in all and retried each (not a verdict)`;
}
