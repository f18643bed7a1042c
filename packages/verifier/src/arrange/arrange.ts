import { LIST_LIMIT_MAX } from '@print-contracts/client';
import { findProviderState, isJsonObject } from '@print-contracts/client/kit';
import { type ArrangeError, isArrangeError } from '../errors/index.js';
import type { CreatedSpec, FixtureRequest } from '../plan/fixture-spec.js';
import { isNotVerifiableCode } from '../plan/not-verifiable.js';
import { type Decision, type Plan, type PlannedInteraction, VERDICT_WORDS } from '../plan/plan.js';
import { type CreateOptions, createdOrders } from './created-orders.js';
import { listedOrders, summariesOf } from './listed-orders.js';
import { sampleDataProbe } from './sample-data.js';
import { isRefusal, notHere, toArrangeError } from './verdicts.js';

/** Values a provider state hands to Pact for injection (`${id}`, `${uuid}`). */
export type StateValues = Readonly<Record<string, string | number>>;

/** A provider state as reached: its values, and which order or check reached it. */
type Reached = { readonly values: StateValues; readonly how: string };
type ArrangedState = Reached & { readonly label: string };

/** One interaction after arranging: replayable with its states (one per pact state), or decided. */
export interface ArrangedInteraction {
  readonly planned: PlannedInteraction;
  readonly decided: Decision | undefined;
  readonly states: readonly (ArrangedState | undefined)[];
}

/**
 * The arrange stage's result in two waves: `ready` needs no order still being created; `all` comes
 * once the run's orders are readable. The vendor processes both waves' orders at once: one wait.
 */
export interface Arrangement {
  readonly ready: readonly ArrangedInteraction[];
  readonly all: Promise<readonly ArrangedInteraction[]>;
  /** Order ids the target answered 404 for: requests may name them, also in live mode. */
  readonly missing: ReadonlySet<string>;
}

export type ArrangeOptions = CreateOptions & {
  /** The waits' lines (a user needs them during a long wait). */
  readonly progress: (line: string) => void;
  /** Told of the verifier's own faults (a bug, a ledger it cannot write): the run ends broken. */
  readonly broke?: (fault: unknown) => void;
  /** Each state as it is reached (`--verbose`); default: `progress`. */
  readonly detail?: (line: string) => void;
};

/** The arrange stage: reaches every fixture of the plan once, all at once, and says how as each settles. */
export async function arrange(plan: Plan, options: ArrangeOptions): Promise<Arrangement> {
  const { clients, signal } = options;
  const listed = listedOrders(clients, signal);
  // Only a sample-data set may be excused for answering the same whatever it is asked: a target that
  // declared a control surface is none, and a live one is judged by the replay.
  const sampleData = clients.target.mode === 'sample' && clients.target.controlOrigin === undefined;
  const probe = sampleData ? sampleDataProbe(clients, signal) : undefined;
  // What the target lists before the run creates anything: only that counts as "listed".
  await Promise.allSettled(
    plan.fixtures.flatMap(({ spec, version }) =>
      spec.kind === 'listed' ? [listed.walk(spec.credential, version)] : [],
    ),
  );
  const context: Reach = { create: createdOrders(options), listed, plan, options, missing: new Set() };
  const results = new Map<string, Promise<Reached | ArrangeError>>();
  const reached = new Set<string>();
  // Each settles once its fixture is reached, or once it waits for an order being created.
  const firstWave = plan.fixtures.map(
    (fixture) =>
      new Promise<void>((waiting) => {
        const started = performance.now();
        const result = reach(fixture, context, waiting).catch(toArrangeError);
        results.set(fixture.key, result);
        void result.then((outcome) => {
          reached.add(fixture.key);
          waiting();
          (options.detail ?? options.progress)(
            stateLine(plan, fixture, outcome, Math.round(performance.now() - started)),
          );
        });
      }),
  );

  const arrangeOne = async (planned: PlannedInteraction): Promise<ArrangedInteraction> => {
    const decide = (decided: Decision): ArrangedInteraction => ({
      planned,
      decided:
        signal.aborted && decided.verdict !== 'failed'
          ? { verdict: 'not-run', reason: 'not run: the run was stopped before its replay' }
          : decided,
      states: [],
    });
    if (planned.decided) return decide(planned.decided);
    const states: (ArrangedState | undefined)[] = [];
    for (const fixture of planned.fixtures) {
      const result = await results.get(fixture.key);
      if (!result) {
        states.push(undefined);
      } else if (isArrangeError(result)) {
        if (result.fault !== undefined) options.broke?.(result.fault);
        return decide(decisionOf(result, `state "${fixture.label}" could not be arranged: `));
      } else {
        const lacks = findProviderState(fixture.state)?.provides.filter(
          (name) => result.values[name] === undefined,
        );
        if (lacks?.length) {
          const reason = `state "${fixture.label}" arranged ${result.how}, which has no ${lacks.join(', ')}`;
          return decide({ verdict: 'failed', reason });
        }
        states.push({ label: fixture.label, how: result.how, values: result.values });
      }
    }
    const limited = await probe?.(planned).then(() => undefined, toArrangeError);
    return limited ? decide(decisionOf(limited)) : { planned, decided: undefined, states };
  };

  await Promise.all(firstWave);
  const first = plan.interactions.filter((planned) =>
    planned.fixtures.every((fixture) => reached.has(fixture.key)),
  );
  const ready = await Promise.all(first.map(arrangeOne));
  const byId = new Map(ready.map((item) => [item.planned.id, item]));
  const all = Promise.all(plan.interactions.map((planned) => byId.get(planned.id) ?? arrangeOne(planned)));
  return { ready, all, missing: context.missing };
}

interface Reach {
  readonly create: ReturnType<typeof createdOrders>;
  readonly listed: ReturnType<typeof listedOrders>;
  readonly plan: Plan;
  readonly options: ArrangeOptions;
  readonly missing: Set<string>;
}

/** Reaches one fixture or throws why not; calls `waiting` as it starts waiting for an order being created. */
async function reach(fixture: FixtureRequest, context: Reach, waiting: () => void): Promise<Reached> {
  const { spec, version } = fixture;
  const { clients, signal } = context.options;
  const create = async (created: CreatedSpec, why = '') => {
    waiting();
    const made = await context.create(version, created, `state "${fixture.label}"`);
    return { values: valuesOf(made), how: why + made.how };
  };
  switch (spec.kind) {
    case 'listed': {
      const order = await context.listed.find(spec, version);
      if ('how' in order) return { values: valuesOf(order), how: order.how };
      if (!spec.orElse) throw notHere('no-listed-order', `this target ${spec.orElseWhy} (${order.searched})`);
      return create(spec.orElse, `no listed order had it (${order.searched}): `);
    }
    case 'created':
      return create(spec);
    case 'no-order': {
      try {
        // Unchecked: what an answer holds is the replay's to judge (or, on a sample-data set, the probe's).
        await clients
          .client('main', version)
          .sendUnchecked('getOrder', { id: spec.id }, { signal, validate: false });
      } catch (error) {
        if (!isRefusal(error)) throw error;
        if (error.status === 404) context.missing.add(spec.id);
        const how = error.status === 404 ? `no order ${spec.id}` : `order ${spec.id} answers ${error.status}`;
        return { values: {}, how: `checked: ${how}` };
      }
      // An answer for it is the replay's to judge (or, on a sample-data set, the probe's to excuse).
      return { values: {}, how: `checked: order ${spec.id} answers with an order` };
    }
    case 'fewer-orders': {
      // By the weakest signals: `count` where it is shown to be a total, else one page just short of
      // the offset (the rest of the answers is the replay's to judge).
      const client = clients.client('main', version);
      const page = (offset: number) =>
        client.sendUnchecked('listOrders', { query: { limit: LIST_LIMIT_MAX, offset } }, { signal });
      const first = await page(0);
      const { plannedCreates } = context.plan;
      const listed = isJsonObject(first) && Array.isArray(first.orders) ? first.orders.length : undefined;
      const { count } = isJsonObject(first) ? first : {};
      const counted = typeof count === 'number' && Number.isInteger(count) && count >= 0 ? count : undefined;
      // `count` is undocumented: a total when it exceeds the page, or equals a page short of the limit.
      const total =
        counted === undefined || listed === undefined
          ? undefined
          : counted > listed || (counted === listed && listed < LIST_LIMIT_MAX)
            ? counted
            : undefined;
      if (total !== undefined) {
        const most = total + plannedCreates;
        if (most >= spec.offset) {
          throw notHere(
            'holds-too-many-orders',
            `the caller holds ${total} orders and the run creates up to ${plannedCreates}, not fewer than ${spec.offset}`,
          );
        }
        return {
          values: {},
          how: `checked: ${total} orders held, at most ${most} with the run's (page size ${LIST_LIMIT_MAX})`,
        };
      }
      const near = Math.max(0, spec.offset - plannedCreates);
      const ids = (answer: unknown) =>
        summariesOf(answer)
          .map((order) => order.id)
          .join(',');
      const there = await page(near);
      const orders = isJsonObject(there) && Array.isArray(there.orders) ? there.orders : undefined;
      if (orders?.length === 0) {
        return {
          values: {},
          how: `checked: the page at offset ${near} lists no order (no total count given)`,
        };
      }
      if (orders && ids(there) !== '' && ids(there) !== ids(first)) {
        throw notHere(
          'holds-too-many-orders',
          `the page at offset ${near} lists ${orders.length} orders, and the run creates up to ${plannedCreates}: not fewer than ${spec.offset}`,
        );
      }
      return {
        values: {},
        how: `checked: the list gives no total count, and its page at offset ${near} tells nothing apart from the first, so the replay judges the page`,
      };
    }
  }
}

/** An arranging error as the interaction's verdict; not verifiable only with a code of the closed list. */
function decisionOf(error: ArrangeError, prefix = ''): Decision {
  const reason = `${prefix}${error.message}`;
  if (error.verdict !== 'not-verifiable') return { verdict: error.verdict, reason };
  return isNotVerifiableCode(error.notVerifiable)
    ? { verdict: 'not-verifiable', reason, code: error.notVerifiable }
    : {
        verdict: 'failed',
        reason: `${reason} (no reason of the closed list: the contract was not replayed)`,
      };
}

const valuesOf = (order: { id: number; uuid: string | undefined }): StateValues => ({
  ...(order.id > 0 ? { id: order.id } : {}),
  ...(order.uuid ? { uuid: order.uuid } : {}),
});

function stateLine(plan: Plan, fixture: FixtureRequest, result: Reached | ArrangeError, ms: number): string {
  const users = plan.interactions
    .flatMap((planned) => (planned.decided ? [] : planned.fixtures))
    .filter((used) => used.key === fixture.key).length;
  const shared = users > 1 ? ` (for ${users} interactions)` : '';
  const clip = (text: string) => (text.length > 240 ? `${text.slice(0, 239)}…` : text);
  const outcome = isArrangeError(result)
    ? `${VERDICT_WORDS[result.verdict]}: ${clip(result.message)}`
    : `ready: ${result.how}`;
  return `  state ${fixture.version} "${fixture.label}"${shared} → ${outcome} (${ms} ms)`;
}
