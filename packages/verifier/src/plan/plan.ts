import { type ApiVersion, SECRET_HEADER, USER_ID_HEADER } from '@print-contracts/client';
import {
  canonicalJson,
  findProviderState,
  PLACEHOLDER_CREDENTIALS,
} from '@print-contracts/consumer-contracts/vocabulary';
import { UnknownStateError } from '../errors/unknown-state-error.js';
import type { TargetMode } from '../options/verify-options.js';
import { headerValue, type LoadedPact, type PactInteraction, stateLabel } from '../pacts/interaction.js';
import type { FixtureRequest } from './fixture-spec.js';
import { liveRefusal } from './live-safety.js';
import { API_BASE_PATH, normalisePath, operationOf, pathBelowBase } from './request-path.js';
import { arrangerFor } from './state-arrangers.js';

/**
 * How one interaction of one API version came out. `not-verifiable`: a precondition does
 * not hold on this target (never counted as passed); `target-unavailable`: the target
 * stopped answering (not a broken contract).
 */
export type Verdict = 'verified' | 'failed' | 'not-verifiable' | 'target-unavailable';

/** A verdict the plan (or a later stage) reaches without replaying the interaction. */
export interface Decision {
  readonly verdict: Exclude<Verdict, 'verified'>;
  readonly reason: string;
}

export interface PlannedInteraction {
  /** Unique in the run: `v2:0:12` (version, pact, position in the pact). */
  readonly id: string;
  readonly pact: LoadedPact;
  readonly interaction: PactInteraction;
  readonly version: ApiVersion;
  /** Set when the interaction is not replayed: not verifiable here, or a defect of the contract. */
  readonly decided: Decision | undefined;
  /** One per provider state, in the pact's order; undefined for a state with nothing to arrange. */
  readonly fixtures: readonly (FixtureRequest | undefined)[];
  /**
   * `real` when the request carries the contract's placeholder credentials (the verifier
   * swaps in the real ones); `refused` when it carries none or a wrong secret, on purpose.
   */
  readonly credentials: 'real' | 'refused';
  /** It would create an order at the target (however its path is spelled). */
  readonly creates: boolean;
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
}

/**
 * The plan stage: classifies every interaction of the pacts before anything touches the
 * target. An interaction is replayed after its fixtures are arranged, or decided now: not
 * verifiable on this target (with the reason), or failed because the contract itself is
 * inconsistent. Throws `UnknownStateError` when a pact names a state the verifier cannot
 * arrange: that run must not start. Read-only interactions share one fixture per state and
 * version; every other interaction gets its own, so an update or a cancel never disturbs
 * another interaction.
 */
export function planRun(pacts: readonly LoadedPact[], options: PlanOptions): Plan {
  const fixtures = new Map<string, FixtureRequest>();
  const interactions: PlannedInteraction[] = [];
  pacts.forEach((pact, pactIndex) => {
    for (const interaction of pact.interactions) {
      const planned = planInteraction(
        pact,
        interaction,
        `${pact.version}:${pactIndex}:${interaction.index}`,
        options,
      );
      interactions.push(planned);
      if (planned.decided) continue;
      for (const fixture of planned.fixtures) if (fixture) fixtures.set(fixture.key, fixture);
    }
  });
  const arranged = [...fixtures.values()].filter(
    (fixture) =>
      (fixture.spec.kind === 'created' || (fixture.spec.kind === 'listed' && fixture.spec.orElse)) &&
      !('credential' in fixture.spec && fixture.spec.credential === 'other'),
  ).length;
  const replayed = interactions.filter((item) => !item.decided && item.creates).length;
  return { pacts, interactions, fixtures: [...fixtures.values()], plannedCreates: arranged + replayed };
}

function planInteraction(
  pact: LoadedPact,
  interaction: PactInteraction,
  id: string,
  options: PlanOptions,
): PlannedInteraction {
  const mutates = interaction.method !== 'GET';
  const routed = normalisePath(interaction.path);
  const creates = operationOf(interaction.method, interaction.path) === 'createOrder';
  const secret = headerValue(interaction, SECRET_HEADER);
  const userId = headerValue(interaction, USER_ID_HEADER);
  const credentials =
    secret === PLACEHOLDER_CREDENTIALS.secret && userId !== undefined
      ? ('real' as const)
      : ('refused' as const);
  const base = { id, pact, interaction, version: pact.version, credentials, creates };
  const decide = (verdict: Decision['verdict'], reason: string): PlannedInteraction => ({
    ...base,
    decided: { verdict, reason },
    fixtures: [],
  });

  const fixtures: (FixtureRequest | undefined)[] = [];
  const provided = new Set<string>();
  let unreachable: string | undefined;
  let invalid: string | undefined;
  let provesMissing = false;
  for (const state of interaction.states) {
    const definition = findProviderState(state.name);
    const arranger = arrangerFor(state.name);
    if (!definition || !arranger)
      throw new UnknownStateError(pact.label, state.name, interaction.description);
    for (const name of definition.provides) provided.add(name);
    for (const name of Object.keys(state.params)) provided.add(name);
    const result = arranger(state.params, {
      control: options.control,
      otherCredentials: options.otherCredentials,
      mutates,
    });
    if (result.invalid !== undefined) invalid ??= `state "${state.name}": ${result.invalid}`;
    else if (result.unreachable !== undefined)
      unreachable ??= `state "${stateLabel(state)}" ${result.unreachable}`;
    else {
      if (result.spec.kind === 'no-order') provesMissing = true;
      const shared = !mutates || result.spec.kind !== 'created';
      fixtures.push({
        key: `${pact.version}|${canonicalJson(result.spec)}|${shared ? 'shared' : id}`,
        version: pact.version,
        spec: result.spec,
        state: state.name,
        label: stateLabel(state),
      });
    }
  }
  if (invalid) return decide('failed', `the contract is inconsistent: ${invalid}`);
  if (pathBelowBase(routed) === undefined) {
    return decide(
      'failed',
      `the request path ${interaction.path} lies outside the API base path ${API_BASE_PATH}`,
    );
  }
  const missing = interaction.injected.filter((name) => !provided.has(name));
  if (missing.length > 0) {
    return decide(
      'failed',
      `the request injects ${missing.map((name) => `\${${name}}`).join(', ')}, which none of its provider states provides`,
    );
  }
  if (unreachable) return decide('not-verifiable', unreachable);
  if (options.mode === 'live') {
    const refusal = liveRefusal(
      {
        method: interaction.method,
        operation: operationOf(interaction.method, interaction.path),
        body: interaction.body,
      },
      // The order a change names comes from a state the run arranges, or is one it proves missing.
      () => interaction.injected.length > 0 || provesMissing,
    );
    if (refusal) return decide('not-verifiable', refusal);
  }
  return { ...base, decided: undefined, fixtures };
}
