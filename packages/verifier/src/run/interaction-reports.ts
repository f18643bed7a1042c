import { requestLine, stateLine } from '../pacts/interaction.js';
import type { PlannedInteraction } from '../plan/plan.js';
import type { PactVerdict } from '../replay/pact-results.js';
import type { ReplayItem } from '../replay/replay-item.js';
import type { InteractionReport, Verdict } from '../report/model.js';

function report(
  planned: PlannedInteraction,
  verdict: Verdict,
  reason: string | undefined,
  mismatches: readonly string[] = [],
  ms?: number,
): InteractionReport {
  const { pact, interaction } = planned;
  return {
    version: planned.version,
    consumer: pact.consumer,
    provider: pact.provider,
    pact: pact.label,
    description: interaction.description,
    states: stateLine(interaction),
    request: requestLine(interaction),
    verdict,
    reason,
    mismatches,
    ms,
  };
}

/** The report of an interaction the plan decided on (not replayed). */
export function plannedReport(planned: PlannedInteraction): InteractionReport {
  return report(planned, planned.status === 'failed' ? 'failed' : 'not-verifiable', planned.reason);
}

/**
 * The verdict of a replayed interaction. A state that could not be arranged decides it
 * (Pact never sent the request); a request the proxy could not complete explains a failure
 * better than the status mismatch Pact saw; otherwise Pact's verdict stands.
 */
export function replayReport(
  item: ReplayItem,
  verdict: PactVerdict | undefined,
  fallback: string,
): InteractionReport {
  const { planned, record } = item;
  if (planned.status !== 'replay') return plannedReport(planned);
  const ms = verdict?.ms;
  if (record.refused && !record.refused.ok) {
    return report(planned, record.refused.verdict, record.refused.reason, [], ms);
  }
  if (!verdict) return report(planned, 'failed', fallback, [], ms);
  if (verdict.passed) return report(planned, 'verified', undefined, [], ms);
  const failure = record.exchanges.find((exchange) => exchange.failure)?.failure;
  const reason = failure ?? verdict.mismatches[0] ?? 'Pact reported a failure';
  return report(planned, 'failed', reason, verdict.mismatches, ms);
}
