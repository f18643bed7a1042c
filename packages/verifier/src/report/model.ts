import { API_VERSIONS, type ApiVersion } from '@print-contracts/client';

/** How one interaction of one API version came out. */
export type Verdict = 'verified' | 'failed' | 'not-verifiable';

export interface InteractionReport {
  readonly version: ApiVersion;
  readonly consumer: string;
  readonly provider: string;
  /** The pact file (or broker URL) it came from. */
  readonly pact: string;
  readonly description: string;
  /** Its provider states with parameters filled in, `;`-separated. */
  readonly states: string;
  /** `GET /api/orders/${id}` */
  readonly request: string;
  readonly verdict: Verdict;
  /** One line: why it failed or why it is not verifiable here. */
  readonly reason: string | undefined;
  /** Pact's mismatches, shortened. */
  readonly mismatches: readonly string[];
  readonly ms: number | undefined;
}

export interface Counts {
  verified: number;
  failed: number;
  notVerifiable: number;
  total: number;
}

export interface TeardownReport {
  /** Orders crossed off the ledger by this run. */
  readonly settled: number;
  /** Orders still open in the ledger (this run's and earlier ones'). */
  readonly open: number;
  readonly problems: readonly string[];
  /** The ledger file, when it still exists. */
  readonly ledger: string | undefined;
}

/** Everything a run found: the source of the console matrix, the JSON, JUnit and Markdown reports. */
export interface RunReport {
  readonly tool: string;
  readonly startedAt: string;
  readonly durationMs: number;
  readonly target: {
    readonly kind: 'embedded' | 'url';
    readonly baseUrl: string;
    readonly mode: 'sample' | 'live';
    readonly control: boolean;
  };
  readonly strict: boolean;
  readonly interrupted: boolean;
  readonly exitCode: number;
  readonly totals: Counts;
  readonly byVersion: Readonly<Partial<Record<ApiVersion, Counts>>>;
  readonly interactions: readonly InteractionReport[];
  readonly teardown: TeardownReport;
  /** Things that went wrong beside the interactions (a shard out of step, a crashed verifier). */
  readonly problems: readonly string[];
}

export function countVerdicts(interactions: readonly InteractionReport[]): Counts {
  const counts: Counts = { verified: 0, failed: 0, notVerifiable: 0, total: interactions.length };
  for (const { verdict } of interactions) {
    if (verdict === 'verified') counts.verified++;
    else if (verdict === 'failed') counts.failed++;
    else counts.notVerifiable++;
  }
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

/**
 * The exit status: 1 when any interaction failed (or, with `strict`, was not verifiable
 * here), else 0. Interactions not verifiable here never count as passed.
 */
export function exitCodeFor(totals: Counts, strict: boolean): 0 | 1 {
  return totals.failed > 0 || (strict && totals.notVerifiable > 0) ? 1 : 0;
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

export const VERDICT_WORDS: Readonly<Record<Verdict, string>> = {
  verified: 'verified',
  failed: 'FAILED',
  'not-verifiable': 'not verifiable here',
};
