import { API_VERSIONS, redact } from '@print-contracts/client';
import type { StopSignal } from '../exit-codes.js';
import { requestLine, stateLine } from '../pacts/interaction.js';
import type { Exchange } from '../replay/proxy/forwarder.js';
import type { Replayed, ReplayedInteraction } from '../replay/replay.js';
import type { Settlement } from '../settle/settle.js';
import type { Target } from '../target/target.js';
import {
  countByVersion,
  countVerdicts,
  exitCodeFor,
  type InteractionReport,
  printable,
  type RunReport,
  type VersionFinding,
} from './model.js';

/** What the report stage reads besides the stages' results. */
export interface ReportContext {
  readonly target: Target;
  readonly strict: boolean;
  readonly stoppedBy: StopSignal | undefined;
  readonly startedAt: number;
  readonly durationMs: number;
  readonly secrets: readonly string[];
}

/** At least this many requests of a version, all refused alike, before the version counts as not served. */
const RETIRED_AFTER = 2;

/**
 * The report stage: one record of the run from the replay's verdicts and the settlement, with
 * what it learned of whole versions, every text printable and free of secrets. The console,
 * JSON, JUnit and Markdown reports all render it.
 */
export function buildReport(replayed: Replayed, settlement: Settlement, context: ReportContext): RunReport {
  const clean = (text: string) => printable(redact(text, context.secrets));
  const interactions = replayed.interactions.map((item) => interactionReport(item, clean));
  const totals = countVerdicts(interactions);
  const exchanges = replayed.interactions.flatMap((item) => item.exchanges);
  const { target } = context;
  return {
    tool: '@print-contracts/verifier',
    startedAt: new Date(context.startedAt).toISOString(),
    durationMs: Math.round(context.durationMs),
    target: {
      kind: target.kind,
      baseUrl: target.baseUrl,
      mode: target.mode,
      control: target.controlOrigin !== undefined,
    },
    strict: context.strict,
    stoppedBy: context.stoppedBy,
    exitCode: exitCodeFor(totals, context.strict, context.stoppedBy),
    totals,
    byVersion: countByVersion(interactions),
    interactions,
    findings: versionFindings(exchanges),
    warnings: deprecationWarnings(exchanges).map(clean),
    teardown: { ...settlement, problems: settlement.problems.map(clean) },
    problems: replayed.problems.map(clean),
  };
}

function interactionReport(item: ReplayedInteraction, clean: (text: string) => string): InteractionReport {
  const { planned } = item.arranged;
  const { pact, interaction } = planned;
  return {
    version: planned.version,
    consumer: clean(pact.consumer),
    provider: clean(pact.provider),
    pact: clean(pact.label),
    description: clean(interaction.description),
    states: clean(stateLine(interaction)),
    arranged: item.arranged.states.flatMap((state) => (state ? [clean(`${state.label}: ${state.how}`)] : [])),
    request: clean(requestLine(interaction)),
    verdict: item.verdict,
    reason: item.reason === undefined ? undefined : clean(item.reason),
    mismatches: item.mismatches.map(clean),
    ms: item.ms,
  };
}

/**
 * A version the target no longer serves (every request of it with real credentials refused
 * with one status), said once; its interactions keep their own verdicts.
 */
function versionFindings(exchanges: readonly Exchange[]): VersionFinding[] {
  const findings: VersionFinding[] = [];
  for (const version of API_VERSIONS) {
    const answered = exchanges.filter(
      (exchange) =>
        exchange.version === version && exchange.credentials === 'real' && exchange.status !== undefined,
    );
    const statuses = new Set(answered.map((exchange) => exchange.status));
    const [status] = statuses;
    if (answered.length < RETIRED_AFTER || statuses.size !== 1 || status === undefined || status < 400)
      continue;
    findings.push({
      version,
      kind: 'retired',
      status,
      requests: answered.length,
      text: `${version} is no longer served here: all ${answered.length} ${version} requests with valid credentials were refused with ${status}`,
    });
  }
  return findings;
}

/** `Deprecation` (RFC 9745: `@<epoch seconds>`, or an HTTP date) and `Sunset` (RFC 8594: an HTTP date), per version. */
function deprecationWarnings(exchanges: readonly Exchange[]): string[] {
  const warnings: string[] = [];
  for (const version of API_VERSIONS) {
    const mine = exchanges.filter((exchange) => exchange.version === version);
    const deprecation = mine.find((exchange) => exchange.deprecation)?.deprecation;
    const sunset = mine.find((exchange) => exchange.sunset)?.sunset;
    if (deprecation)
      warnings.push(`${version} is deprecated (Deprecation: ${deprecation}${dateOf(deprecation)})`);
    if (sunset) warnings.push(`${version} will be shut down (Sunset: ${sunset}${dateOf(sunset)})`);
  }
  return warnings;
}

/** `, since 2026-11-23` for a structured date or an HTTP date; nothing for `true` or an unreadable value. */
function dateOf(value: string): string {
  const epoch = /^@(-?\d+)$/.exec(value.trim());
  const ms = epoch
    ? Number(epoch[1]) * 1000
    : /^[A-Za-z]{3},/.test(value.trim())
      ? Date.parse(value)
      : Number.NaN;
  return Number.isNaN(ms) ? '' : `, ${new Date(ms).toISOString().slice(0, 10)}`;
}
