import type { Change, Comparison } from '../compare/compare.js';
import { EXIT_CODES } from '../exit-codes.js';
import { VERDICT_WORDS } from '../plan/plan.js';
import { printable, type RunReport } from './model.js';

/** One group of the changes since the last run; `fails`: it makes the run fail, `known`: excused. */
export interface ChangeSection {
  readonly title: string;
  readonly weight: 'fails' | 'known' | 'info';
  readonly items: readonly { readonly name: string; readonly text: string }[];
}

/**
 * The report with its comparison, and the exit status the comparison gives: a signal still
 * wins; then exit 1 when something not excused fails; then an unavailable target; else 0.
 */
export function withComparison(report: RunReport, comparison: Comparison | undefined): RunReport {
  if (comparison === undefined) return report;
  const exitCode = report.stoppedBy
    ? report.exitCode
    : comparison.fails
      ? EXIT_CODES.failed
      : report.totals.targetUnavailable > 0
        ? EXIT_CODES.targetUnavailable
        : EXIT_CODES.passed;
  return { ...report, exitCode, comparison };
}

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
