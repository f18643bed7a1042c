import type { DriftFinding } from './observe-drift.js';
import { isObject } from './schema-walk.js';

/** A finding of this run, marked against an earlier run's report. */
export type MarkedDriftFinding = DriftFinding & { readonly change: 'new' | 'known' };

/** This run's findings against an earlier report's: which are new, and which disappeared. */
export interface DriftChanges {
  readonly findings: readonly MarkedDriftFinding[];
  /** Findings of the earlier report this run no longer showed. */
  readonly disappeared: readonly DriftFinding[];
}

/** What makes two findings the same, across runs: not the example, not how many answers showed it. */
const identity = (finding: Pick<DriftFinding, 'kind' | 'operation' | 'version' | 'status' | 'path'>) =>
  [finding.kind, finding.operation, finding.version, finding.status, finding.path].join('|');

/** The drift findings an earlier JSON report holds (`drift.findings`); none when it has no drift section. */
export function earlierDriftFindings(earlierReport: unknown): DriftFinding[] {
  if (!isObject(earlierReport) || !isObject(earlierReport.drift)) return [];
  const findings = earlierReport.drift.findings;
  if (!Array.isArray(findings)) return [];
  return findings.filter(
    (finding): finding is DriftFinding =>
      isObject(finding) &&
      typeof finding.kind === 'string' &&
      typeof finding.operation === 'string' &&
      typeof finding.version === 'string' &&
      typeof finding.status === 'number' &&
      typeof finding.path === 'string',
  );
}

/**
 * Marks each current finding `new` or `known` against an earlier run's findings (read from its
 * JSON report by `earlierDriftFindings`), and lists the earlier findings that disappeared.
 */
export function compareDriftWithBaseline(
  current: readonly DriftFinding[],
  earlier: readonly DriftFinding[],
): DriftChanges {
  const before = new Set(earlier.map(identity));
  const now = new Set(current.map(identity));
  return {
    findings: current.map((finding) => ({
      ...finding,
      change: before.has(identity(finding)) ? 'known' : 'new',
    })),
    disappeared: earlier.filter((finding) => !now.has(identity(finding))),
  };
}
