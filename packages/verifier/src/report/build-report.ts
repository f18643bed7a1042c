import { API_VERSIONS, type ApiVersion } from '@print-contracts/client';
import { redact } from '@print-contracts/client/kit';
import { type Comparison, interactionKey } from '../compare/compare.js';
import type { DriftReport } from '../drift/observe-drift.js';
import { EXIT_CODES, type ExitCode, SIGNAL_EXIT_CODES, type StopSignal } from '../exit-codes.js';
import { requestLine, stateLine } from '../pacts/interaction.js';
import type { Verdict } from '../plan/plan.js';
import type { Exchange } from '../replay/proxy/forwarder.js';
import type { Replayed } from '../replay/replay.js';
import type { Settlement } from '../settle/settle.js';
import type { Target } from '../target/target.js';
import type { RetrySummary } from '../target/transport.js';
import { KIT_NAME, KIT_VERSION } from './kit-version.js';
import { driftFails, printable, type RunReport } from './model.js';

/** What the report stage reads besides the stages' results. */
interface ReportContext {
  readonly target: Target;
  readonly strict: boolean;
  readonly stoppedBy: StopSignal | undefined;
  readonly startedAt: number;
  readonly durationMs: number;
  readonly secrets: readonly string[];
  /** What the answers showed beyond the OpenAPI description; with `failOnDrift`, findings fail the run. */
  readonly drift?: DriftReport;
  readonly failOnDrift?: boolean;
  /** What the run's requests waited out (429, 503, no answer): reported, never a verdict. */
  readonly retries?: RetrySummary;
}

/** At least this many requests of a version, all refused alike, before the version counts as not served. */
const RETIRED_AFTER = 2;

/**
 * The report stage: one record of the run (`RunReport`, the JSON report), from the replay's
 * verdicts and the settlement, every text printable and free of secrets.
 */
export function buildReport(replayed: Replayed, settlement: Settlement, context: ReportContext) {
  const clean = (text: string) => printable(redact(text, context.secrets));
  const nameOf = ({
    pact,
    interaction,
    version,
  }: Replayed['interactions'][number]['arranged']['planned']) => ({
    version,
    consumer: clean(pact.consumer),
    description: clean(interaction.description),
    states: clean(stateLine(interaction)),
  });
  // Two pacts of one consumer (the one on main, the one deployed) hold the same interactions: each
  // is told apart by why the broker picked its pact, which stays the same night after night.
  const keys = replayed.interactions.map((item) => interactionKey(nameOf(item.arranged.planned)));
  const twice = new Set(keys.filter((key, index) => keys.indexOf(key) !== index));
  const interactions = replayed.interactions.map((item, index) => {
    const { pact, interaction } = item.arranged.planned;
    const named = nameOf(item.arranged.planned);
    const key = keys[index] as string;
    const from = twice.has(key)
      ? clean(pact.source.kind === 'broker' ? (pact.source.picked ?? pact.label) : pact.label)
      : undefined;
    return {
      // The same run after run: what a later run's --baseline matches.
      key: from === undefined ? key : `${key} | from ${from}`,
      ...named,
      /** Set where another pact of the run holds the same interaction: which pact this one is. */
      ...(from === undefined ? {} : { from }),
      provider: clean(pact.provider),
      pact: clean(pact.label), // a file, or the broker URL it came from
      arranged: item.arranged.states.flatMap((state) =>
        state ? [clean(`${state.label}: ${state.how}`)] : [],
      ),
      request: clean(requestLine(interaction)), // `GET /api/orders/${id}`
      verdict: item.verdict,
      /** Pending (the pact's or the broker's word): a failure is reported and fails no run. */
      ...(item.arranged.planned.pending ? { pending: true as const } : {}),
      /** With `not-verifiable`: its code in the closed list of target properties. */
      notVerifiable: item.code,
      reason: item.reason === undefined ? undefined : clean(item.reason),
      mismatches: item.mismatches.map(clean), // Pact's, shortened
      ms: item.ms,
    };
  });
  const totals = counts(interactions);
  const { strict, stoppedBy, failOnDrift = false } = context;
  const { kind, baseUrl, mode, controlOrigin } = context.target;
  const exchanges = replayed.interactions.flatMap((item) => item.exchanges);
  return {
    tool: KIT_NAME,
    /** The kit's version that wrote the report. */
    version: KIT_VERSION,
    startedAt: new Date(context.startedAt).toISOString(),
    durationMs: Math.round(context.durationMs),
    target: { kind, baseUrl, mode, control: controlOrigin !== undefined },
    strict,
    failOnDrift,
    stoppedBy,
    exitCode: exitCodeFor(failing(interactions, strict), {
      totals,
      stoppedBy,
      failOnDrift,
      drift: context.drift,
    }),
    totals,
    byVersion: Object.fromEntries(
      API_VERSIONS.flatMap((version) => {
        const mine = interactions.filter((item) => item.version === version);
        return mine.length > 0 ? [[version, counts(mine)]] : [];
      }),
    ),
    interactions,
    findings: API_VERSIONS.flatMap((version) => retired(version, exchanges)),
    // Never failures: a version the target says is deprecated, or will be shut down.
    warnings: API_VERSIONS.flatMap((version) => deprecationWarnings(version, exchanges)).map(clean),
    teardown: { ...settlement, problems: settlement.problems.map(clean) },
    retries: context.retries,
    problems: replayed.problems.map(clean),
    drift: context.drift,
  };
}

/** Whether an interaction fails the run: FAILED (with `strict`, not verifiable too), unless it is pending. */
const failing = (interactions: readonly { verdict: Verdict; pending?: true }[], strict: boolean) =>
  interactions.some(
    (item) => !item.pending && (item.verdict === 'failed' || (strict && item.verdict === 'not-verifiable')),
  );

function counts(interactions: readonly { verdict: Verdict; pending?: true }[]) {
  const count = (verdict: Verdict) => interactions.filter((item) => item.verdict === verdict).length;
  return {
    verified: count('verified'),
    failed: count('failed'),
    /** Of the failed, those pending: reported, failing no run. */
    pendingFailed: interactions.filter((item) => item.verdict === 'failed' && item.pending).length,
    notVerifiable: count('not-verifiable'),
    targetUnavailable: count('target-unavailable'),
    notRun: count('not-run'),
    total: interactions.length,
  };
}

/**
 * A signal, then a failure (a broken contract, or what the comparison fails), then a target down;
 * failing drift turns an otherwise passing run into exit 1.
 */
function exitCodeFor(
  failing: boolean,
  run: {
    readonly totals: { readonly targetUnavailable: number };
    readonly stoppedBy: StopSignal | undefined;
    readonly failOnDrift: boolean;
    readonly drift: DriftReport | undefined;
  },
): ExitCode {
  if (run.stoppedBy) return SIGNAL_EXIT_CODES[run.stoppedBy];
  if (failing) return EXIT_CODES.failed;
  if (run.totals.targetUnavailable > 0) return EXIT_CODES.targetUnavailable;
  return driftFails(run.failOnDrift, run.drift) ? EXIT_CODES.failed : EXIT_CODES.passed;
}

/** The report with its comparison, whose failures decide exit 1 instead of the verdicts alone. */
export function withComparison(report: RunReport, comparison: Comparison | undefined): RunReport {
  return comparison ? { ...report, comparison, exitCode: exitCodeFor(comparison.fails, report) } : report;
}

/** A version the target no longer serves, said once; its interactions keep their own verdicts. */
function retired(version: ApiVersion, exchanges: readonly Exchange[]) {
  const answered = exchanges.filter(
    (exchange) =>
      exchange.version === version && exchange.credentials === 'real' && exchange.status !== undefined,
  );
  const statuses = new Set(answered.map((exchange) => exchange.status));
  const [status] = statuses;
  if (answered.length < RETIRED_AFTER || statuses.size !== 1 || status === undefined || status < 400)
    return [];
  const text = `${version} is no longer served here: all ${answered.length} ${version} requests with valid credentials were refused with ${status}`;
  return [{ version, kind: 'retired' as const, status, requests: answered.length, text }];
}

/** `Deprecation` (RFC 9745: `@<epoch seconds>`, or an HTTP date) and `Sunset` (RFC 8594: an HTTP date). */
function deprecationWarnings(version: ApiVersion, exchanges: readonly Exchange[]): string[] {
  const mine = exchanges.filter((exchange) => exchange.version === version);
  const deprecation = mine.find((exchange) => exchange.deprecation)?.deprecation;
  const sunset = mine.find((exchange) => exchange.sunset)?.sunset;
  return [
    ...(deprecation ? [`${version} is deprecated (Deprecation: ${deprecation}${dateOf(deprecation)})`] : []),
    ...(sunset ? [`${version} will be shut down (Sunset: ${sunset}${dateOf(sunset)})`] : []),
  ];
}

/** `, 2026-11-23` for a structured date or an HTTP date; nothing for `true` or an unreadable value. */
function dateOf(value: string): string {
  const epoch = /^@(-?\d+)$/.exec(value.trim());
  const ms = epoch
    ? Number(epoch[1]) * 1000
    : /^[A-Za-z]{3},/.test(value.trim())
      ? Date.parse(value)
      : Number.NaN;
  return Number.isNaN(ms) ? '' : `, ${new Date(ms).toISOString().slice(0, 10)}`;
}
