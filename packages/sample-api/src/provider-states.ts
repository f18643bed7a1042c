import { exampleOrder, ORDER_STATUSES, type OrderLine, type OrderStatus } from '@print-contracts/client';
import { PROVIDER_STATES, parseStateChange } from '@print-contracts/client/kit';
import type { ControlState } from './control-surface.js';
import { ApiAnswerError } from './errors/api-answer-error.js';
import { type Answer, jsonAnswer } from './http/answer.js';
import { buildOrder } from './store/build-order.js';
import { applyControlState } from './store/order-lifecycle.js';
import { type OrderRecord, visibility } from './store/order-record.js';
import type { OrderStore } from './store/order-store.js';

type StateKey = keyof typeof PROVIDER_STATES;

/** What a setup did: the values injected by `fromProviderState`, and the orders teardown removes. */
interface StateOutcome {
  readonly values: Readonly<Record<string, string | number>>;
  readonly created: readonly OrderRecord[];
}

/** Arranges one provider state for the caller; throws an `ApiAnswerError` when it cannot. */
type StateHandler = (
  params: Readonly<Record<string, unknown>>,
  store: OrderStore,
  now: number,
) => StateOutcome;

/** Nothing to hand over and nothing to undo: a state that only had to be checked. */
const CHECKED: StateOutcome = Object.freeze({ values: Object.freeze({}), created: Object.freeze([]) });

const badParam = (key: StateKey, message: string) =>
  new ApiAnswerError(400, `Invalid parameters for "${PROVIDER_STATES[key].name}": ${message}`);

const cannotHold = (message: string) => new ApiAnswerError(409, `The state cannot hold here: ${message}`);

/** A whole number given as a JSON number or as digits (pacts write params either way). */
function wholeNumber(value: unknown): number | undefined {
  const number = typeof value === 'string' && /^\d{1,15}$/.test(value) ? Number(value) : value;
  return typeof number === 'number' && Number.isSafeInteger(number) && number >= 0 ? number : undefined;
}

/**
 * The credential set the pacts' requests act as: the first one the sample API was started
 * with (the placeholder set of the contracts in an official verifier run, `demo-user` by default).
 */
const callerOf = (store: OrderStore): string => store.userIds[0] as string;

/** The second credential set: the tenant whose orders the caller must not see. */
function otherTenantOf(store: OrderStore): string {
  const other = store.userIds[1];
  if (other === undefined) {
    throw new ApiAnswerError(
      409,
      'This state needs a second credential set, and the sample API has one: start it with --credentials twice (the caller first, then the other tenant)',
    );
  }
  return other;
}

/** The caller's orders the public API shows at `now` that hold `test`. */
const readableWith = (store: OrderStore, now: number, test: (record: OrderRecord) => boolean) =>
  store.ordersOf(callerOf(store)).filter((record) => visibility(record, now) === 'ready' && test(record));

/**
 * A new test order of `userId`, processed at once, optionally moved on to `state` with the
 * control surface's own lifecycle rules. Each interaction that changes an order gets its own,
 * so verification does not depend on the order interactions run in.
 */
function freshOrder(store: OrderStore, now: number, userId: string, state?: ControlState): OrderRecord {
  const body = exampleOrder('v2', { testOrder: true, reference: 'Arranged for a provider state' });
  const record = store.add(userId, buildOrder(store, body, 'v2', now, 0));
  if (state !== undefined) applyControlState(record, state, now);
  store.changed(record);
  return record;
}

/** The values an order provides: its id, and its uuid when it has one. */
function held(record: OrderRecord, created: readonly OrderRecord[] = []): StateOutcome {
  const { id, uuid } = record.detail;
  return { values: uuid === null ? { id } : { id, uuid }, created };
}

/** A setup that added `record` and hands over its id and uuid. */
const added = (record: OrderRecord): StateOutcome => held(record, [record]);

const isShippedWithTracking = (line: OrderLine) =>
  line.status === 'shipped' && Array.isArray(line.shipmentInfo) && line.shipmentInfo.length > 0;

/** How the control surface gives a fresh order each status; `unknown` no route reaches. */
const CONTROL_STATE_FOR_STATUS: Readonly<Record<OrderStatus, ControlState | undefined>> = {
  'in-progress': 'processing',
  completed: 'completed',
  cancelled: 'cancelled',
  unknown: undefined,
};

/**
 * One handler per provider state of the contracts' vocabulary (`PROVIDER_STATES`). States
 * that an interaction changes (update, cancel) or that the public API cannot reach get a fresh
 * order of their own, which teardown removes; states that are only read find an order in the
 * store by what it holds, not by a seed position.
 */
const STATE_HANDLERS: Readonly<Record<StateKey, StateHandler>> = {
  orderExists: (_params, store, now) => added(freshOrder(store, now, callerOf(store))),

  orderInProductionExists: (_params, store, now) =>
    added(freshOrder(store, now, callerOf(store), 'in-production')),

  shippedOrderExists: (_params, store, now) => {
    const [shipped] = readableWith(store, now, (record) => record.detail.lines.some(isShippedWithTracking));
    return shipped ? held(shipped) : added(freshOrder(store, now, callerOf(store), 'shipped'));
  },

  discountedOrderExists: (_params, store, now) => {
    const [discounted] = readableWith(store, now, (record) =>
      record.detail.lines.some((line) => line.customerDiscount != null),
    );
    if (discounted) return held(discounted);
    throw cannotHold(
      `no order of "${callerOf(store)}" has a line with a customer discount (the seed data has some: POST /__control/reset restores it)`,
    );
  },

  orderCreationFailed: (_params, store, now) =>
    added(freshOrder(store, now, callerOf(store), 'creation-failed')),

  noOrderWithId: (params, store) => {
    const id = wholeNumber(params.id);
    if (id === undefined) throw badParam('noOrderWithId', 'id must be a whole number');
    if (store.findAnywhere(String(id)) !== undefined) throw cannotHold(`an order with id ${id} exists`);
    return CHECKED;
  },

  ordersWithStatusExist: (params, store, now) => {
    const status = params.status as OrderStatus;
    if (!ORDER_STATUSES.includes(status)) {
      throw badParam('ordersWithStatusExist', `status must be one of ${ORDER_STATUSES.join(', ')}`);
    }
    if (readableWith(store, now, (record) => record.detail.status === status).length > 0) return CHECKED;
    const state = CONTROL_STATE_FOR_STATUS[status];
    if (state === undefined) throw cannotHold(`no order of "${callerOf(store)}" has the status "${status}"`);
    return { values: {}, created: [freshOrder(store, now, callerOf(store), state)] };
  },

  fewerOrdersThanOffset: (params, store, now) => {
    const offset = wholeNumber(params.offset);
    if (offset === undefined) throw badParam('fewerOrdersThanOffset', 'offset must be a whole number');
    const count = readableWith(store, now, () => true).length;
    if (count >= offset)
      throw cannotHold(`"${callerOf(store)}" has ${count} orders, not fewer than ${offset}`);
    return CHECKED;
  },

  otherCredentialSetOrderExists: (_params, store, now) => added(freshOrder(store, now, otherTenantOf(store))),
};

const STATES = Object.entries(PROVIDER_STATES) as [StateKey, (typeof PROVIDER_STATES)[StateKey]][];

/** The same state with the same params: what a teardown names to undo its setup. */
const setupKey = (state: string, params: Readonly<Record<string, unknown>>) =>
  `${state}\u0000${JSON.stringify(params)}`;

/**
 * Provider states in the standard Pact state-change protocol, the one the official verifiers
 * speak (`pact verifier --state-change-url … --state-change-teardown`, pact-js
 * `providerStatesSetupUrl`): a POST of `{state, params, action}` per state, `setup` before the
 * interaction and `teardown` after it. A setup answers the state's values as a JSON object,
 * which the verifier injects where the pact says `fromProviderState` (`${id}`, `${uuid}`); a
 * teardown removes the orders its setup added (once every setup of that state and params is torn
 * down: verifiers side by side share them). An interaction without a state (`state: ""`)
 * needs nothing. An unknown state, bad params or a state this store cannot reach is a 4xx
 * with a message; the verifier then fails that interaction.
 */
export function providerStateEndpoint(store: OrderStore) {
  /**
   * Per state and params: the orders the setups added, and the teardowns seen. A teardown names no
   * setup of its own (verifiers running side by side send the same one), so the orders go once
   * every setup of theirs was torn down: never those of a setup still in use.
   */
  const pending = new Map<string, { orders: OrderRecord[]; setups: number; torn: number }>();

  /** Handles one state-change call, read by the client's one reading of the protocol. */
  const change = (body: unknown): Answer => {
    const parsed = parseStateChange(body);
    if (!parsed.ok) {
      const hint = '; send {"state": "…", "params": {…}, "action": "setup" | "teardown"}';
      throw ApiAnswerError.invalid('Invalid state change', parsed.issues, hint);
    }
    const { state, params, action } = parsed.request;
    if (state === '') return jsonAnswer(200, {});
    const found = STATES.find(([, definition]) => definition.name === state);
    if (found === undefined) {
      const known = STATES.map(([, definition]) => `"${definition.name}"`).join(', ');
      throw new ApiAnswerError(
        400,
        `Unknown provider state "${state.slice(0, 200)}"; known states: ${known}`,
      );
    }
    const key = setupKey(state, params);
    if (action === 'teardown') {
      const held = pending.get(key);
      if (held) held.torn++;
      const done = held !== undefined && held.torn >= held.setups;
      if (done) pending.delete(key);
      const orders = done ? held.orders : [];
      for (const record of orders) store.remove(record);
      return jsonAnswer(200, { removed: orders.map((record) => record.detail.id) });
    }
    const outcome = STATE_HANDLERS[found[0]](params, store, Date.now());
    if (outcome.created.length > 0) {
      const held = pending.get(key) ?? { orders: [], setups: 0, torn: 0 };
      pending.set(key, { ...held, orders: [...held.orders, ...outcome.created], setups: held.setups + 1 });
    }
    return jsonAnswer(200, outcome.values);
  };

  /** What a person (or a tool) asking `GET` learns: the states, their params and values, the caller. */
  const describe = (): Answer =>
    jsonAnswer(200, {
      protocol:
        'POST {"state", "params", "action": "setup" | "teardown"}; a setup answers the values to inject',
      caller: store.userIds[0],
      otherCredentialSet: store.userIds[1] ?? null,
      states: STATES.map(([, { name, params, provides }]) => ({ name, params, provides })),
    });

  return { change, describe };
}
