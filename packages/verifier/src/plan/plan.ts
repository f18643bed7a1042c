import { API_BASE_PATH, type ApiVersion } from '@print-contracts/client';
import { canonicalJson, findProviderState } from '@print-contracts/client/kit';
import { UnknownStateError, UsageError } from '../errors/index.js';
import type { TargetMode } from '../options/verify-options.js';
import { type LoadedPact, type PactInteraction, stateLabel } from '../pacts/interaction.js';
import type { FixtureRequest } from './fixture-spec.js';
import { type NotVerifiableCode, notVerifiableReason } from './not-verifiable.js';
import { routeRequest } from './request-path.js';
import { arrangerFor } from './state-arrangers.js';

/**
 * `not-verifiable` (a target property of the closed list in `not-verifiable.ts`) never passes;
 * `target-unavailable` breaks no contract; `not-run`: the run was stopped before its replay.
 */
export type Verdict = 'verified' | 'failed' | 'not-verifiable' | 'target-unavailable' | 'not-run';

export const VERDICT_WORDS: Readonly<Record<Verdict, string>> = {
  verified: 'verified',
  failed: 'FAILED',
  'not-verifiable': 'not verifiable here',
  'target-unavailable': 'target unavailable',
  'not-run': 'not run',
};

/** A verdict the plan (or a later stage) reaches without replaying the interaction; not verifiable only with a code. */
export type Decision =
  | { readonly verdict: 'not-verifiable'; readonly reason: string; readonly code: NotVerifiableCode }
  | {
      readonly verdict: 'failed' | 'target-unavailable' | 'not-run';
      readonly reason: string;
      readonly code?: undefined;
    };

export interface PlannedInteraction {
  /** `v2:0:12`: version, pact, position in the pact. */
  readonly id: string;
  readonly pact: LoadedPact;
  readonly interaction: PactInteraction;
  readonly version: ApiVersion;
  /** Set when the interaction is not replayed. */
  readonly decided: Decision | undefined;
  /** One per provider state, in the pact's order; empty when decided. */
  readonly fixtures: readonly FixtureRequest[];
  /** `real`: it carries the placeholders (swapped for real credentials); `refused`: none or wrong ones. */
  readonly credentials: 'real' | 'refused';
  /** It would create an order at the target (however its path is spelled). */
  readonly creates: boolean;
  /**
   * Pending (the interaction marked so in its pact, or the broker's pact not yet verified on the
   * provider branch): a failure is reported and fails no run, as Pact's pending pacts do not.
   */
  readonly pending: boolean;
}

/** The plan stage's result. */
export interface Plan {
  readonly pacts: readonly LoadedPact[];
  readonly interactions: readonly PlannedInteraction[];
  /** Every fixture to arrange, once each. */
  readonly fixtures: readonly FixtureRequest[];
  /** Orders of the main credential set the run may create: arranged ones and replayed creates. */
  readonly plannedCreates: number;
}

export interface PlanOptions {
  readonly mode: TargetMode;
  readonly control: boolean;
  readonly otherCredentials: boolean;
  /** `--only`: just the interactions whose description contains one of these texts (any case). */
  readonly only?: readonly string[] | undefined;
}

/**
 * The plan stage: before anything touches the target, each interaction is to be replayed once its fixtures
 * are arranged, or decided now. Read-only interactions share one fixture per state and version; any other
 * gets its own, so an update or a cancel never disturbs another.
 */
export function planRun(pacts: readonly LoadedPact[], options: PlanOptions): Plan {
  const chosen = chooser(options.only);
  const interactions = pacts.flatMap((pact, pactIndex) =>
    pact.interactions
      .filter((interaction) => chosen(interaction.description))
      .map((interaction) =>
        planInteraction(pact, interaction, `${pact.version}:${pactIndex}:${interaction.index}`, options),
      ),
  );
  if (interactions.length === 0 && options.only) {
    throw new UsageError(
      `--only ${options.only.map((text) => JSON.stringify(text)).join(', --only ')} matches no interaction's description in the pacts`,
    );
  }
  const fixtures = [
    ...new Map(interactions.flatMap((item) => item.fixtures).map((item) => [item.key, item])).values(),
  ];
  // What the main credential set may create: arranged orders (a listed one's fallback too), replayed creates.
  const arranged = fixtures.filter(
    ({ spec }) =>
      'credential' in spec &&
      spec.credential === 'main' &&
      (spec.kind === 'created' || spec.orElse !== undefined),
  ).length;
  const replayed = interactions.filter((item) => !item.decided && item.creates).length;
  return { pacts, interactions, fixtures, plannedCreates: arranged + replayed };
}

/** Whether `--only` keeps a description: it contains one of the texts, in any case; all without `--only`. */
function chooser(only: readonly string[] | undefined): (description: string) => boolean {
  if (!only) return () => true;
  const texts = only.map((text) => text.toLowerCase());
  return (description) => texts.some((text) => description.toLowerCase().includes(text));
}

function planInteraction(
  pact: LoadedPact,
  interaction: PactInteraction,
  id: string,
  options: PlanOptions,
): PlannedInteraction {
  const mutates = interaction.method !== 'GET';
  const states = interaction.states.map((state) => {
    const definition = findProviderState(state.name);
    const arranger = arrangerFor(state.name);
    if (!definition || !arranger)
      throw new UnknownStateError(pact.label, state.name, interaction.description);
    const provides = [...definition.provides, ...Object.keys(state.params)];
    return { state, provides, ...arranger(state.params, { ...options, mutates }) };
  });
  // The order a change names comes from a state the run arranges, or is one it proves missing.
  const owns = () => interaction.injected.length > 0 || states.some(({ spec }) => spec?.kind === 'no-order');
  const routed = routeRequest(
    { ...interaction, queryKeys: Object.keys(interaction.query) },
    options.mode === 'live' ? { owns } : undefined,
  );
  const provided = new Set(states.flatMap((item) => item.provides));
  const missing = interaction.injected.filter((name) => !provided.has(name)).map((name) => `\${${name}}`);
  const invalid = states.find((item) => item.invalid !== undefined);
  const unreachable = states.find((item) => item.unreachable !== undefined);
  const failed = (reason: string): Decision => ({ verdict: 'failed', reason });
  const notHere = (code: NotVerifiableCode, seen: string): Decision => ({
    verdict: 'not-verifiable',
    reason: notVerifiableReason(code, seen),
    code,
  });
  // The first check that applies decides the interaction.
  const decided = [
    invalid && failed(`the contract is inconsistent: state "${invalid.state.name}": ${invalid.invalid}`),
    routed.below === undefined &&
      failed(`the request path ${interaction.path} lies outside the API base path ${API_BASE_PATH}`),
    missing.length > 0 &&
      failed(`the request injects ${missing.join(', ')}, which none of its provider states provides`),
    unreachable?.unreachable &&
      notHere(
        unreachable.unreachable.code,
        `state "${stateLabel(unreachable.state)}" ${unreachable.unreachable.why}`,
      ),
    // A live-safety refusal names the property itself ("live mode: …").
    routed.refusal && { verdict: 'not-verifiable', reason: routed.refusal, code: 'live-safety' },
  ].find((decision): decision is Decision => Boolean(decision));
  const fixtures = states.flatMap(({ state, spec }) => {
    if (decided || !spec) return [];
    const shared = !mutates || spec.kind !== 'created';
    const key = `${pact.version}|${canonicalJson(spec)}|${shared ? 'shared' : id}`;
    return [{ key, version: pact.version, spec, state: state.name, label: stateLabel(state) }];
  });
  const { credentials, creates } = routed;
  const pending = interaction.pending || (pact.source.kind === 'broker' && pact.source.pending);
  return { id, pact, interaction, version: pact.version, decided, fixtures, credentials, creates, pending };
}
