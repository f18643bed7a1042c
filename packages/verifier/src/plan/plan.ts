import type { ApiVersion } from '@print-contracts/client';
import {
  API_BASE_PATH,
  canonicalJson,
  findProviderState,
} from '@print-contracts/consumer-contracts/vocabulary';
import { UnknownStateError } from '../errors/unknown-state-error.js';
import { type LoadedPact, type PactInteraction, stateLabel } from '../pacts/interaction.js';
import type { TargetMode } from '../target/target.js';
import { createsOrder, type FixtureRequest } from './fixture-spec.js';
import { liveRefusal } from './live-safety.js';
import { operationOf, pathBelowBase } from './operation-of.js';
import { arrangerFor, type TargetCapabilities } from './state-arrangers.js';

/** What the plan decided for one interaction before anything touches the target. */
export type PlannedStatus = 'replay' | 'not-verifiable' | 'failed';

export interface PlannedInteraction {
  /** Unique in the run: `v2:0:12` (version, pact, position in the pact). */
  readonly id: string;
  readonly pact: LoadedPact;
  readonly interaction: PactInteraction;
  readonly version: ApiVersion;
  readonly status: PlannedStatus;
  /** Why it is not replayed (not verifiable here, or a defect of the contract). */
  readonly reason: string | undefined;
  /** One per provider state, in the pact's order; undefined for a state with nothing to arrange. */
  readonly fixtures: readonly (FixtureRequest | undefined)[];
  /** `early`: no order to wait for, replayed while the others are being arranged. */
  readonly phase: 'early' | 'arranged';
}

export interface Plan {
  readonly pacts: readonly LoadedPact[];
  readonly interactions: readonly PlannedInteraction[];
  /** Every fixture to arrange, once each. */
  readonly fixtures: ReadonlyMap<string, FixtureRequest>;
  /** Orders of the main credential set the run may create: arranged ones and replayed creates. */
  readonly plannedCreates: number;
}

export interface PlanOptions {
  readonly mode: TargetMode;
  readonly capabilities: TargetCapabilities;
}

/**
 * Classifies every interaction: replayed, not verifiable on this target (with the reason),
 * or failed because the contract itself is inconsistent. Throws `UnknownStateError` when a
 * pact names a state the verifier cannot arrange: that run must not start.
 *
 * Read-only interactions (GET) share one fixture per state and version; every other
 * interaction gets its own, so an update or a cancel never disturbs another interaction.
 */
export function planRun(pacts: readonly LoadedPact[], options: PlanOptions): Plan {
  const fixtures = new Map<string, FixtureRequest>();
  const interactions: PlannedInteraction[] = [];
  let replayedCreates = 0;

  pacts.forEach((pact, pactIndex) => {
    for (const interaction of pact.interactions) {
      const id = `${pact.version}:${pactIndex}:${interaction.index}`;
      const planned = planInteraction(pact, interaction, id, options);
      interactions.push(planned);
      if (planned.status !== 'replay') continue;
      for (const fixture of planned.fixtures) if (fixture) fixtures.set(fixture.key, fixture);
      const below = pathBelowBase(interaction.path);
      if (below && operationOf(interaction.method, below) === 'createOrder') replayedCreates++;
    }
  });

  const arrangedCreates = [...fixtures.values()].filter(
    (fixture) =>
      createsOrder(fixture.spec) && !(fixture.spec.kind === 'order' && fixture.spec.credential === 'other'),
  ).length;
  return { pacts, interactions, fixtures, plannedCreates: arrangedCreates + replayedCreates };
}

function planInteraction(
  pact: LoadedPact,
  interaction: PactInteraction,
  id: string,
  options: PlanOptions,
): PlannedInteraction {
  const base = { id, pact, interaction, version: pact.version };
  const decided = (status: PlannedStatus, reason: string): PlannedInteraction => ({
    ...base,
    status,
    reason,
    fixtures: [],
    phase: 'early',
  });

  const fixtures: (FixtureRequest | undefined)[] = [];
  const provided = new Set<string>();
  let unreachable: string | undefined;
  let invalid: string | undefined;
  for (const state of interaction.states) {
    const definition = findProviderState(state.name);
    const arranger = arrangerFor(state.name);
    if (!definition || !arranger)
      throw new UnknownStateError(pact.label, state.name, interaction.description);
    for (const name of definition.provides) provided.add(name);
    for (const name of Object.keys(state.params)) provided.add(name);
    const result = arranger(state.params, options.capabilities);
    if (result.invalid !== undefined) invalid ??= `state "${state.name}": ${result.invalid}`;
    else if (result.unreachable !== undefined) unreachable ??= `state "${state.name}" ${result.unreachable}`;
    else if (result.spec.kind === 'nothing') fixtures.push(undefined);
    else {
      // Checks are read-only, and so are GETs: only an order another request may change is private.
      const shared = interaction.method === 'GET' || !createsOrder(result.spec);
      const key = `${pact.version}|${canonicalJson(result.spec)}|${shared ? 'shared' : id}`;
      fixtures.push({
        key,
        version: pact.version,
        spec: result.spec,
        state: state.name,
        label: stateLabel(state),
      });
    }
  }
  if (invalid) return decided('failed', `the contract is inconsistent: ${invalid}`);

  const below = pathBelowBase(interaction.path);
  if (below === undefined) {
    return decided(
      'failed',
      `the request path ${interaction.path} lies outside the API base path ${API_BASE_PATH}`,
    );
  }
  const missing = interaction.injected.filter((name) => !provided.has(name));
  if (missing.length > 0) {
    return decided(
      'failed',
      `the request injects ${missing.map((name) => `\${${name}}`).join(', ')}, which none of its provider states provides`,
    );
  }
  if (unreachable) return decided('not-verifiable', unreachable);
  if (options.mode === 'live') {
    const refusal = liveRefusal(operationOf(interaction.method, below), interaction.body);
    if (refusal) return decided('not-verifiable', refusal);
  }
  const waits = fixtures.some((fixture) => fixture && createsOrder(fixture.spec));
  return { ...base, status: 'replay', reason: undefined, fixtures, phase: waits ? 'arranged' : 'early' };
}
