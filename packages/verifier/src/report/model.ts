import { API_VERSIONS, type ApiVersion } from '@print-contracts/client';
import { EXIT_CODES, type ExitCode, SIGNAL_EXIT_CODES, type StopSignal } from '../exit-codes.js';
import type { Verdict } from '../plan/plan.js';
import type { Settlement } from '../settle/settle.js';
import type { Target } from '../target/target.js';

export interface InteractionReport {
  readonly version: ApiVersion;
  readonly consumer: string;
  readonly provider: string;
  /** The pact file (or broker URL) it came from. */
  readonly pact: string;
  readonly description: string;
  /** Its provider states with parameters filled in, `;`-separated. */
  readonly states: string;
  /** How each state was arranged (a listed order, one the run created, a check). */
  readonly arranged: readonly string[];
  /** `GET /api/orders/${id}` */
  readonly request: string;
  readonly verdict: Verdict;
  /** One line: why it failed, why it is not verifiable here, or why the target was unavailable. */
  readonly reason: string | undefined;
  /** Pact's mismatches, shortened. */
  readonly mismatches: readonly string[];
  readonly ms: number | undefined;
}

export interface Counts {
  verified: number;
  failed: number;
  notVerifiable: number;
  targetUnavailable: number;
  total: number;
}

/** Something the run learned about an API version as a whole, beside the per-interaction verdicts. */
export interface VersionFinding {
  readonly version: ApiVersion;
  /** `retired`: every request of the version with real credentials was refused with one status. */
  readonly kind: 'retired';
  readonly status: number;
  readonly requests: number;
  readonly text: string;
}

/** Everything a run found: the source of the console matrix, the JSON, JUnit and Markdown reports. */
export interface RunReport {
  readonly tool: string;
  readonly startedAt: string;
  readonly durationMs: number;
  readonly target: Pick<Target, 'kind' | 'baseUrl' | 'mode'> & { readonly control: boolean };
  readonly strict: boolean;
  /** The signal that stopped the run early, if one did. */
  readonly stoppedBy: StopSignal | undefined;
  readonly exitCode: ExitCode;
  readonly totals: Counts;
  readonly byVersion: Readonly<Partial<Record<ApiVersion, Counts>>>;
  readonly interactions: readonly InteractionReport[];
  /** What the run learned of whole versions (one no longer served). */
  readonly findings: readonly VersionFinding[];
  /** Never failures: a version the target says is deprecated, or will be shut down. */
  readonly warnings: readonly string[];
  readonly teardown: Settlement;
  /** Things that went wrong beside the interactions (Pact out of step, a crashed verifier). */
  readonly problems: readonly string[];
}

const COUNTED_AS = {
  verified: 'verified',
  failed: 'failed',
  'not-verifiable': 'notVerifiable',
  'target-unavailable': 'targetUnavailable',
} as const;

export function countVerdicts(interactions: readonly InteractionReport[]): Counts {
  const counts = {
    verified: 0,
    failed: 0,
    notVerifiable: 0,
    targetUnavailable: 0,
    total: interactions.length,
  };
  for (const { verdict } of interactions) counts[COUNTED_AS[verdict]]++;
  return counts;
}

export function countByVersion(
  interactions: readonly InteractionReport[],
): Partial<Record<ApiVersion, Counts>> {
  const result: Partial<Record<ApiVersion, Counts>> = {};
  for (const version of API_VERSIONS) {
    const mine = interactions.filter((item) => item.version === version);
    if (mine.length > 0) result[version] = countVerdicts(mine);
  }
  return result;
}

/** The exit status: a signal, a broken contract (with `strict`, also one not verifiable), a target down. */
export function exitCodeFor(totals: Counts, strict: boolean, stoppedBy: StopSignal | undefined): ExitCode {
  if (stoppedBy) return SIGNAL_EXIT_CODES[stoppedBy];
  if (totals.failed > 0 || (strict && totals.notVerifiable > 0)) return EXIT_CODES.failed;
  if (totals.targetUnavailable > 0) return EXIT_CODES.targetUnavailable;
  return EXIT_CODES.passed;
}

/** One row of the matrix: an interaction (by consumer and description), and its verdict per version. */
export interface MatrixRow {
  readonly label: string;
  readonly cells: Readonly<Partial<Record<ApiVersion, InteractionReport>>>;
}

/** Interactions × versions, rows in the order they first appear. */
export function matrixRows(interactions: readonly InteractionReport[]): MatrixRow[] {
  const consumers = new Set(interactions.map((item) => item.consumer));
  const rows = new Map<string, { label: string; cells: Partial<Record<ApiVersion, InteractionReport>> }>();
  for (const item of interactions) {
    const label = consumers.size > 1 ? `${item.consumer}: ${item.description}` : item.description;
    const key = `${label}|${item.states}`;
    const row = rows.get(key) ?? { label, cells: {} };
    row.cells[item.version] ??= item;
    rows.set(key, row);
  }
  return [...rows.values()];
}

// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what this finds.
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/g;

/** Text from a pact or a target, its control characters (a forged line, an ANSI escape) made visible. */
export function printable(text: string): string {
  return text.replace(CONTROL, (char) => {
    if (char === '\n') return '\\n';
    if (char === '\r') return '\\r';
    if (char === '\t') return '\\t';
    return `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`;
  });
}
