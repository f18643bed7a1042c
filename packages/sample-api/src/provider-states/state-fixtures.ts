import { exampleOrder } from '@print-contracts/client';
import type { ControlState } from '../control-surface.js';
import { ApiAnswerError } from '../errors/api-answer-error.js';
import { buildOrder } from '../store/build-order.js';
import { applyControlState } from '../store/order-lifecycle.js';
import { type OrderRecord, visibility } from '../store/order-record.js';
import type { OrderStore } from '../store/order-store.js';

/** What a state handler works on: the store, at one instant. */
export interface StateContext {
  readonly store: OrderStore;
  readonly now: number;
}

/** Values a state hands to the verifier for `fromProviderState` injection (`${id}`, `${uuid}`). */
export type StateValues = Readonly<Record<string, string | number>>;

/** What a setup did: the values it answers with, and the orders it added (teardown removes them). */
export interface StateOutcome {
  readonly values: StateValues;
  readonly created: readonly OrderRecord[];
}

/** Nothing to hand over and nothing to undo: a state that only had to be checked. */
export const CHECKED: StateOutcome = Object.freeze({ values: Object.freeze({}), created: Object.freeze([]) });

/**
 * The credential set the pacts' requests act as: the first one the sample API was started
 * with (`--credentials`, repeatable; the placeholder set of the contracts in an official
 * verifier run, `demo-user` by default).
 */
export const callerOf = (store: OrderStore): string => store.userIds[0] as string;

/** The second credential set: the tenant whose orders the caller must not see. */
export function otherTenantOf(store: OrderStore): string {
  const other = store.userIds[1];
  if (other === undefined) {
    throw new ApiAnswerError(
      409,
      'This state needs a second credential set, and the sample API has one: start it with --credentials twice (the caller first, then the other tenant)',
    );
  }
  return other;
}

/** The orders of `userId` the public API shows at `now` (processed, not failed). */
export const readableOrders = ({ store, now }: StateContext, userId: string): OrderRecord[] =>
  store.ordersOf(userId).filter((record) => visibility(record, now) === 'ready');

/**
 * A new test order of `userId`, processed at once, optionally moved on to `state` with the
 * control surface's own lifecycle rules. Each interaction that changes an order gets its own,
 * so verification does not depend on the order interactions run in.
 */
export function freshOrder({ store, now }: StateContext, userId: string, state?: ControlState): OrderRecord {
  const body = exampleOrder('v2', { testOrder: true, reference: 'Arranged for a provider state' });
  const record = store.add(userId, buildOrder(store, body, 'v2', now, 0));
  if (state !== undefined) applyControlState(record, state, now);
  store.changed(record);
  return record;
}

/** The values an order provides: its id, and its uuid when it has one. */
export function orderValues(record: OrderRecord): StateValues {
  const { id, uuid } = record.detail;
  return uuid === null ? { id } : { id, uuid };
}

/** A setup that added `record` and hands over its id and uuid. */
export const created = (record: OrderRecord): StateOutcome => ({
  values: orderValues(record),
  created: [record],
});
