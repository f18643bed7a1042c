import { isHttpError, LIST_LIMIT_MAX } from '@print-contracts/client';
import { findProviderState } from '@print-contracts/consumer-contracts/vocabulary';
import { ArrangeError, type ArrangeVerdict } from '../errors/arrange-error.js';
import type { FixtureRequest } from '../plan/fixture-spec.js';
import { type Decision, type Plan, type PlannedInteraction, VERDICT_WORDS } from '../plan/plan.js';
import type { TargetClients } from '../target/clients.js';
import { CreatedOrders, type CreatedOrdersOptions, unavailable } from './created-orders.js';
import { ListedOrders } from './listed-orders.js';
import { SampleDataProbe } from './sample-data.js';

/** Values a provider state hands to Pact for injection (`${id}`, `${uuid}`). */
export type StateValues = Readonly<Record<string, string | number>>;

/** One provider state of an interaction, as arranged. */
export interface ArrangedState {
  readonly label: string;
  /** How it was reached: a listed order, a created one, a check. */
  readonly how: string;
  readonly values: StateValues;
}

/** One interaction after arranging: ready to replay with its states, or decided. */
export interface ArrangedInteraction {
  readonly planned: PlannedInteraction;
  /** Set when it is not replayed (decided by the plan, or here). */
  readonly decided: Decision | undefined;
  /** Aligned with the interaction's states; empty when decided. */
  readonly states: readonly (ArrangedState | undefined)[];
}

/**
 * The arrange stage's result, in two waves. `ready`: the interactions whose states were
 * reached without waiting for an order to be created (lists, checks, listed orders, and those
 * without a state, creates among them), replayable at once. `all`: every interaction in plan
 * order, once the run's own orders are readable (or past their deadline). Replaying the first
 * wave while the vendor processes the orders of the second lets the orders the replayed
 * creates make be processed in the same window, so a run waits for the vendor once.
 */
export interface Arrangement {
  readonly ready: readonly ArrangedInteraction[];
  readonly all: Promise<readonly ArrangedInteraction[]>;
  /** Order ids the target answered 404 for: requests may name them, also in live mode. */
  readonly missing: ReadonlySet<string>;
}

export interface ArrangeOptions extends CreatedOrdersOptions {
  /** A progress line, as each state settles. */
  readonly progress: (line: string) => void;
}

type FixtureResult =
  | { readonly ok: true; readonly values: StateValues; readonly how: string; readonly ms: number }
  | { readonly ok: false; readonly verdict: ArrangeVerdict; readonly reason: string; readonly ms: number };

const clip = (text: string) => (text.length > 240 ? `${text.slice(0, 239)}…` : text);

/**
 * The arrange stage: reaches every fixture of the plan at once, each once (a listed order for
 * read-only requests, an order the run creates, the control surface, a check), and on a
 * sample-data set probes what the set does with requests. Every interaction comes out ready
 * with its state values, or decided with the reason; it resolves as soon as the first wave
 * is ready (see `Arrangement`).
 */
export async function arrange(plan: Plan, options: ArrangeOptions): Promise<Arrangement> {
  const { clients, signal } = options;
  const created = new CreatedOrders(options);
  const listed = new ListedOrders(clients, signal);
  const probe = clients.target.mode === 'sample' ? new SampleDataProbe(clients, signal) : undefined;
  const users = new Map<string, number>();
  for (const planned of plan.interactions) {
    if (planned.decided) continue;
    for (const fixture of planned.fixtures)
      if (fixture) users.set(fixture.key, (users.get(fixture.key) ?? 0) + 1);
  }

  // What the target lists before the run creates anything: only that counts as "listed".
  await listed.snapshot(
    plan.fixtures.flatMap((fixture) =>
      fixture.spec.kind === 'listed' ? [{ role: fixture.spec.credential, version: fixture.version }] : [],
    ),
  );
  const missing = new Set<string>();
  const context: Reach = { created, listed, clients, plannedCreates: plan.plannedCreates, signal, missing };
  const results = new Map<string, Promise<FixtureResult>>();
  const reached = new Set<string>();
  // Per fixture: settles once it is reached, or once it waits for an order being created.
  const firstPhase: Promise<unknown>[] = [];
  for (const fixture of plan.fixtures) {
    const started = performance.now();
    const ms = () => Math.round(performance.now() - started);
    let waiting: () => void = () => {};
    firstPhase.push(new Promise<void>((resolve) => (waiting = resolve)));
    const result = reach(fixture, context, waiting).then(
      (reached): FixtureResult => ({ ok: true, ...reached, ms: ms() }),
      (error: unknown): FixtureResult => ({ ok: false, ...failure(error), ms: ms() }),
    );
    void result.then((outcome) => {
      reached.add(fixture.key);
      waiting();
      options.progress(stateLine(fixture, outcome, users.get(fixture.key) ?? 0));
    });
    results.set(fixture.key, result);
  }

  const arrangeOne = async (planned: PlannedInteraction): Promise<ArrangedInteraction> => {
    const decide = (decided: Decision): ArrangedInteraction => ({ planned, decided, states: [] });
    if (planned.decided) return decide(planned.decided);
    const outcomes = await Promise.all(
      planned.fixtures.map((fixture) => fixture && results.get(fixture.key)),
    );
    const states: (ArrangedState | undefined)[] = [];
    for (const [index, result] of outcomes.entries()) {
      const fixture = planned.fixtures[index];
      if (!result || !fixture) {
        states.push(undefined);
        continue;
      }
      if (!result.ok) {
        const reason = `state "${fixture.label}" could not be arranged: ${result.reason}`;
        return decide({ verdict: result.verdict, reason });
      }
      const missing = (findProviderState(fixture.state)?.provides ?? []).filter(
        (name) => result.values[name] === undefined,
      );
      if (missing.length > 0) {
        const reason = `state "${fixture.label}" arranged ${result.how}, which has no ${missing.join(', ')}`;
        return decide({ verdict: 'not-verifiable', reason });
      }
      states.push({ label: fixture.label, how: result.how, values: result.values });
    }
    const limitation = await probe?.limitation(planned).catch(failure);
    if (typeof limitation === 'string') return decide({ verdict: 'not-verifiable', reason: limitation });
    if (limitation) return decide(limitation);
    return { planned, decided: undefined, states };
  };

  await Promise.all(firstPhase);
  const first = plan.interactions.filter((planned) =>
    planned.fixtures.every((fixture) => !fixture || reached.has(fixture.key)),
  );
  const ready = await Promise.all(first.map(arrangeOne));
  const byId = new Map(ready.map((item) => [item.planned.id, item]));
  const all = Promise.all(plan.interactions.map((planned) => byId.get(planned.id) ?? arrangeOne(planned)));
  return { ready, all, missing };
}

interface Reach {
  readonly created: CreatedOrders;
  readonly listed: ListedOrders;
  readonly clients: TargetClients;
  readonly plannedCreates: number;
  readonly signal: AbortSignal;
  readonly missing: Set<string>;
}

/**
 * Reaches one fixture; throws `ArrangeError` (or the client's errors) when it cannot. Calls
 * `waiting` when it starts waiting for an order being created.
 */
async function reach(
  fixture: FixtureRequest,
  context: Reach,
  waiting: () => void,
): Promise<{ values: StateValues; how: string }> {
  const { spec, version, label } = fixture;
  const source = `state "${label}"`;
  switch (spec.kind) {
    case 'listed': {
      const order = await context.listed.find(spec.credential, version, spec.want, spec.needsUuid);
      if (order) return { values: valuesOf(order), how: order.how };
      if (!spec.orElse) throw notHere(`this target ${spec.orElseWhy}`);
      waiting();
      const made = await context.created.arrange(version, spec.orElse, source);
      return { values: valuesOf(made), how: `no listed order had it: ${made.how}` };
    }
    case 'created': {
      waiting();
      const made = await context.created.arrange(version, spec, source);
      return { values: valuesOf(made), how: made.how };
    }
    case 'no-order': {
      try {
        await context.clients
          .client('main', version)
          .getOrder(spec.id, { signal: context.signal, validate: false });
      } catch (error) {
        if (isHttpError(error) && error.status === 404) {
          context.missing.add(spec.id);
          return { values: {}, how: `checked: no order ${spec.id}` };
        }
        if (isHttpError(error) && error.status < 500 && error.status !== 429) {
          return { values: {}, how: `checked: order ${spec.id} answers ${error.status}` };
        }
        throw unavailable(error);
      }
      throw notHere(`an order with id ${spec.id} exists on this target`);
    }
    case 'fewer-orders': {
      const { count } = await context.clients
        .client('main', version)
        .listOrders({ limit: 1 }, { signal: context.signal })
        .catch((error: unknown) => {
          throw unavailable(error);
        });
      const most = count + context.plannedCreates;
      if (most >= spec.offset) {
        throw notHere(
          `the caller holds ${count} orders and the run creates up to ${context.plannedCreates}, not fewer than ${spec.offset}`,
        );
      }
      return {
        values: {},
        how: `checked: ${count} orders held, at most ${most} with the run's (page size ${LIST_LIMIT_MAX})`,
      };
    }
  }
}

const notHere = (reason: string) => new ArrangeError('not-verifiable', reason);

const valuesOf = (order: { id: number; uuid: string | undefined }): StateValues => ({
  ...(order.id > 0 ? { id: order.id } : {}),
  ...(order.uuid ? { uuid: order.uuid } : {}),
});

function failure(error: unknown): { verdict: ArrangeVerdict; reason: string } {
  const { verdict, message } = unavailable(error);
  return { verdict, reason: message };
}

function stateLine(fixture: FixtureRequest, result: FixtureResult, users: number): string {
  const shared = users > 1 ? ` (for ${users} interactions)` : '';
  const outcome = result.ok
    ? `ready: ${result.how}`
    : `${VERDICT_WORDS[result.verdict]}: ${clip(result.reason)}`;
  return `  state ${fixture.version} "${fixture.label}"${shared} → ${outcome} (${result.ms} ms)`;
}
