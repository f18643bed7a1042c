import { API_VERSIONS, type ApiVersion } from '@print-contracts/client';
import type { Comparison } from '../compare/compare.js';
import type { Verdict } from '../plan/plan.js';
import type { buildReport } from './build-report.js';

/**
 * Everything a run found: the JSON report, and what the console, JUnit and Markdown reports
 * render; with a baseline or known findings, what changed (`withComparison`).
 */
export type RunReport = ReturnType<typeof buildReport> & { readonly comparison?: Comparison };
export type InteractionReport = RunReport['interactions'][number];
export type Counts = RunReport['totals'];

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
    const label = consumers.size > 1 ? `${item.consumer}: ${item.description}` : item.description;
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
