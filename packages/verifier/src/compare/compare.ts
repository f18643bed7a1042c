import { type ChangeKind, classify } from './classify.js';
import type { Baseline, KnownFinding, KnownFindings } from './comparison-files.js';

/** What the run compares itself with: read by the options stage, both optional. */
export interface ComparisonInputs {
  readonly baseline: Baseline | undefined;
  readonly knownFindings: KnownFindings | undefined;
}

/** One interaction × version of this run, as the report names it. */
export interface CurrentVerdict {
  readonly key: string;
  readonly version: string;
  readonly description: string;
  readonly verdict: string;
}

/** One interaction × version of either run that moved, is excused, or makes the run fail. */
export interface Change {
  readonly key: string;
  readonly version: string;
  readonly description: string;
  /** Undefined without a baseline. */
  readonly kind: ChangeKind | undefined;
  readonly before: string | undefined;
  readonly now: string | undefined;
  /** The acknowledgement in force that excuses it. */
  readonly known: { readonly reason: string; readonly expires: string } | undefined;
  /** It makes the run fail (exit 1): FAILED, a regression or a new failure, not excused. */
  readonly fails: boolean;
}

/** What became of one committed acknowledgement in this run. */
export interface AcknowledgementOutcome {
  readonly version: string;
  readonly interaction: string;
  readonly pattern: boolean;
  readonly reason: string;
  readonly expires: string;
  /** in force: it excuses what it matched; expired: it matched, but excuses nothing; unused: nothing to excuse. */
  readonly status: 'in-force' | 'expired' | 'unused';
  /** The findings of this run it matched. */
  readonly matched: number;
  readonly text: string;
}

interface CompareOptions {
  readonly strict: boolean;
  /** `YYYY-MM-DD` (UTC): an acknowledgement excuses through the day it names. */
  readonly today: string;
}

/**
 * The comparison stage: this run's verdicts against the baseline's and the known findings;
 * nothing (undefined) when the run has neither. A run fails when an interaction is FAILED (with
 * `strict`, also not verifiable), regressed or newly failing, unless an acknowledgement in force
 * covers it; an acknowledgement past its date covers nothing. Pure: the options stage read the files.
 */
export function compareRun(
  current: readonly CurrentVerdict[],
  inputs: ComparisonInputs,
  options: CompareOptions,
) {
  return inputs.baseline || inputs.knownFindings ? compareWith(current, inputs, options) : undefined;
}

function compareWith(current: readonly CurrentVerdict[], inputs: ComparisonInputs, options: CompareOptions) {
  const { baseline, knownFindings } = inputs;
  const before = new Map(baseline?.verdicts.map((item) => [item.key, item]));
  const versions = new Set(current.map((item) => item.version));
  const findings = knownFindings?.findings.filter((finding) => versions.has(finding.version)) ?? [];
  const inForce = (finding: KnownFinding) => finding.expires >= options.today;
  const matched = new Map<KnownFinding, number>(findings.map((finding) => [finding, 0]));

  const rows: Change[] = current.map((item) => {
    const was = before.get(item.key)?.verdict;
    const kind = baseline ? classify(was, item.verdict) : undefined;
    const finding =
      item.verdict === 'failed' ||
      (options.strict && item.verdict === 'not-verifiable') ||
      kind === 'regression' ||
      kind === 'new-failure';
    const covering = finding ? findings.filter((entry) => matches(entry, item)) : [];
    for (const entry of covering) matched.set(entry, (matched.get(entry) ?? 0) + 1);
    const excuse = covering.find(inForce);
    return {
      key: item.key,
      version: item.version,
      description: item.description,
      kind,
      before: was,
      now: item.verdict,
      known: excuse && { reason: excuse.reason, expires: excuse.expires },
      fails: finding && excuse === undefined,
    };
  });
  const keys = new Set(current.map((item) => item.key));
  const gone: Change[] = (baseline?.verdicts ?? [])
    .filter((item) => versions.has(item.version) && !keys.has(item.key))
    .map((item) => ({
      key: item.key,
      version: item.version,
      description: item.description,
      kind: 'gone',
      before: item.verdict,
      now: undefined,
      known: undefined,
      fails: false,
    }));
  const changes = [...rows, ...gone].filter(
    (row) => (row.kind !== undefined && row.kind !== 'unchanged') || row.known !== undefined,
  );
  const acknowledgements = findings.map((finding) =>
    outcome(finding, matched.get(finding) ?? 0, inForce(finding)),
  );
  const count = (kind: ChangeKind) => changes.filter((row) => row.kind === kind).length;
  return {
    baseline: baseline && { file: baseline.file, startedAt: baseline.startedAt },
    knownFindingsFile: knownFindings?.file,
    today: options.today,
    counts: {
      newFailures: count('new-failure'),
      regressions: count('regression'),
      fixed: count('fixed'),
      newInteractions: count('new-interaction'),
      gone: count('gone'),
      known: changes.filter((row) => row.known !== undefined).length,
      expired: acknowledgements.filter((item) => item.status === 'expired').length,
      unused: acknowledgements.filter((item) => item.status === 'unused').length,
    },
    changes,
    acknowledgements,
    /** Some interaction makes the run fail (exit 1). */
    fails: rows.some((row) => row.fails),
  };
}

export type Comparison = ReturnType<typeof compareWith>;

function matches(finding: KnownFinding, item: CurrentVerdict): boolean {
  if (finding.version !== item.version) return false;
  return finding.pattern
    ? new RegExp(finding.interaction).test(item.description)
    : finding.interaction === item.description;
}

function outcome(finding: KnownFinding, matched: number, inForce: boolean): AcknowledgementOutcome {
  const { version, interaction, pattern, reason, expires } = finding;
  const what = `${version} ${pattern ? `/${interaction}/` : `"${interaction}"`}`;
  const status = matched === 0 ? 'unused' : inForce ? 'in-force' : 'expired';
  const findingsWord = `${matched} finding${matched === 1 ? '' : 's'}`;
  const text =
    status === 'in-force'
      ? `${what} is known until ${expires}, excusing ${findingsWord}: ${reason}`
      : status === 'expired'
        ? `${what} expired on ${expires} and no longer excuses its ${findingsWord}: renew it or fix the finding (${reason})`
        : `${what} excuses nothing: the finding no longer occurs in this run${inForce ? '' : ` (and it expired on ${expires})`}; remove it (${reason})`;
  return { version, interaction, pattern, reason, expires, status, matched, text };
}
