import type { ApiVersion } from '@print-contracts/client';
import { answerKey, type DriftFinding, driftIdentity } from '../drift/observe-drift.js';

/** How one interaction × version moved between the baseline and this run. */
type ChangeKind = 'new-failure' | 'regression' | 'fixed' | 'unchanged' | 'new-interaction' | 'gone';

/**
 * The classification table. `before`/`now` are verdicts, undefined where that run did not hold
 * the interaction. A regression is anything that was verified and is not now (FAILED included);
 * a new failure is FAILED now after anything but verified or FAILED (or after nothing).
 */
export function classify(before: string | undefined, now: string | undefined): ChangeKind {
  if (now === undefined) return 'gone';
  if (before === undefined) return now === 'failed' ? 'new-failure' : 'new-interaction';
  if (before === 'verified') return now === 'verified' ? 'unchanged' : 'regression';
  if (now === 'failed') return before === 'failed' ? 'unchanged' : 'new-failure';
  return now === 'verified' ? 'fixed' : 'unchanged';
}

/**
 * The stable key of an interaction × version: version, consumer, description and provider
 * states, the things a reader names it by. Pact's own `key` is a hash of the whole interaction,
 * so it changes with any matcher; this one changes only when the interaction is another one.
 */
export const interactionKey = (item: {
  readonly version: string;
  readonly consumer: string;
  readonly description: string;
  readonly states: string;
}): string =>
  [item.version, item.consumer, item.description, ...(item.states ? [`given ${item.states}`] : [])].join(
    ' | ',
  );

/** One interaction × version of a run (this one, or the baseline's), as the report names it. */
export interface CurrentVerdict {
  readonly key: string;
  readonly version: string;
  readonly description: string;
  readonly verdict: string;
  /** Pending: it fails no run, whatever it did. */
  readonly pending?: boolean;
}

export interface Baseline {
  /** The file as the user named it. */
  readonly file: string;
  readonly startedAt: string;
  readonly verdicts: readonly CurrentVerdict[];
  /** The earlier run's drift findings, for marking this run's new ones. */
  readonly drift: readonly DriftFinding[];
}

/** One acknowledgement of a known finding, as committed. */
export interface KnownFinding {
  readonly version: ApiVersion;
  /** The exact description, or (`pattern`) a regular expression it must match. */
  readonly interaction: string;
  readonly pattern: boolean;
  readonly reason: string;
  /** `YYYY-MM-DD`: the last day it excuses (UTC). */
  readonly expires: string;
}

export interface KnownFindings {
  readonly file: string;
  readonly findings: readonly KnownFinding[];
}

/** What the run compares itself with: read by the options stage, both optional. */
export interface ComparisonInputs {
  readonly baseline: Baseline | undefined;
  readonly knownFindings: KnownFindings | undefined;
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

interface CompareOptions {
  readonly strict: boolean;
  /** `YYYY-MM-DD` (UTC): an acknowledgement excuses through the day it names. */
  readonly today: string;
  /** The versions the run was asked for (`--api-version`): one whose pacts are gone tonight has its rows gone. */
  readonly versions?: readonly string[];
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
  const { baseline, knownFindings } = inputs;
  if (!baseline && !knownFindings) return undefined;
  const before = new Map(baseline?.verdicts.map((item) => [item.key, item]));
  const versions = new Set(options.versions ?? current.map((item) => item.version));
  const findings = knownFindings?.findings.filter((finding) => versions.has(finding.version)) ?? [];
  const inForce = (finding: KnownFinding) => finding.expires >= options.today;
  const matched = new Map<KnownFinding, number>(findings.map((finding) => [finding, 0]));

  const rows: Change[] = current.map((item) => {
    const was = before.get(item.key)?.verdict;
    const kind = baseline ? classify(was, item.verdict) : undefined;
    const finding =
      item.pending !== true &&
      (item.verdict === 'failed' ||
        (options.strict && item.verdict === 'not-verifiable') ||
        kind === 'regression' ||
        kind === 'new-failure');
    const covering = finding ? findings.filter((entry) => matches(entry, item)) : [];
    for (const entry of covering) matched.set(entry, (matched.get(entry) ?? 0) + 1);
    const excuse = covering.find(inForce);
    const known = excuse && { reason: excuse.reason, expires: excuse.expires };
    const { key, version, description } = item;
    return {
      key,
      version,
      description,
      kind,
      before: was,
      now: item.verdict,
      known,
      fails: finding && !known,
    };
  });
  const keys = new Set(current.map((item) => item.key));
  const gone: Change[] = (baseline?.verdicts ?? [])
    .filter((item) => versions.has(item.version) && !keys.has(item.key))
    .map(({ key, version, description, verdict }) => ({
      key,
      version,
      description,
      kind: 'gone',
      before: verdict,
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
  const acknowledged = (status: string) => acknowledgements.filter((item) => item.status === status).length;
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
      expired: acknowledged('expired'),
      unused: acknowledged('unused'),
    },
    changes,
    acknowledgements,
    /** Some interaction makes the run fail (exit 1). */
    fails: rows.some((row) => row.fails),
  };
}

export type Comparison = NonNullable<ReturnType<typeof compareRun>>;

function matches(finding: KnownFinding, item: CurrentVerdict): boolean {
  if (finding.version !== item.version) return false;
  return finding.pattern
    ? new RegExp(finding.interaction).test(item.description)
    : finding.interaction === item.description;
}

/**
 * What became of one committed acknowledgement in this run: `in-force` excuses what it matched,
 * `expired` matched but excuses nothing, `unused` had nothing to excuse.
 */
function outcome(finding: KnownFinding, matched: number, inForce: boolean) {
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
  return { version, interaction, pattern, reason, expires, status, matched, text } as const;
}

/**
 * Marks each current drift finding `new` or `known` against an earlier run's (read from its
 * JSON report by `earlierDriftFindings`), and lists the earlier findings that disappeared: those
 * this run no longer showed in the kind of answer it did compare (`answered`, from `observeDrift`;
 * one it saw no answer of, an `--only` run's or a stopped one's, was not looked for).
 */
export function compareDriftWithBaseline(
  current: readonly DriftFinding[],
  earlier: readonly DriftFinding[],
  answered: readonly string[],
) {
  const before = new Set(earlier.map(driftIdentity));
  const now = new Set(current.map(driftIdentity));
  const looked = new Set(answered);
  return {
    findings: current.map((finding) => ({
      ...finding,
      change: before.has(driftIdentity(finding)) ? ('known' as const) : ('new' as const),
    })),
    /** Findings of the earlier report this run no longer showed. */
    disappeared: earlier.filter(
      (finding) => !now.has(driftIdentity(finding)) && looked.has(answerKey(finding)),
    ),
  };
}
