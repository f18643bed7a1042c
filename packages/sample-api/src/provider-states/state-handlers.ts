import {
  ORDER_STATUSES,
  type OrderLine,
  type OrderStatus,
  PROVIDER_STATES,
  type ProviderStateName,
} from '@print-contracts/client';
import type { ControlState } from '../control-surface.js';
import { ApiAnswerError } from '../errors/api-answer-error.js';
import {
  CHECKED,
  callerOf,
  created,
  freshOrder,
  orderValues,
  otherTenantOf,
  readableOrders,
  type StateContext,
  type StateOutcome,
} from './state-fixtures.js';

/** Arranges one provider state for the caller; throws an `ApiAnswerError` when it cannot. */
export type StateHandler = (params: Readonly<Record<string, unknown>>, context: StateContext) => StateOutcome;

const badParam = (state: string, message: string) =>
  new ApiAnswerError(400, `Invalid parameters for "${state}": ${message}`);

const cannotHold = (message: string) => new ApiAnswerError(409, `The state cannot hold here: ${message}`);

/** A whole number given as a JSON number or as digits (pacts write params either way). */
function wholeNumber(value: unknown): number | undefined {
  const number = typeof value === 'string' && /^\d{1,15}$/.test(value) ? Number(value) : value;
  return typeof number === 'number' && Number.isSafeInteger(number) && number >= 0 ? number : undefined;
}

const isShippedWithTracking = (line: OrderLine) =>
  line.status === 'shipped' && Array.isArray(line.shipmentInfo) && line.shipmentInfo.length > 0;

/** How the control surface gives a fresh order each status; `unknown` no route reaches. */
const CONTROL_STATE_FOR_STATUS: Readonly<Record<OrderStatus, ControlState | undefined>> = {
  'in-progress': 'processing',
  completed: 'completed',
  cancelled: 'cancelled',
  unknown: undefined,
};

const { name: ORDERS_WITH_STATUS } = PROVIDER_STATES.ordersWithStatusExist;
const { name: NO_ORDER_WITH_ID } = PROVIDER_STATES.noOrderWithId;
const { name: FEWER_THAN_OFFSET } = PROVIDER_STATES.fewerOrdersThanOffset;

/**
 * One handler per provider state, keyed by the exact name the consumer suite writes
 * (`PROVIDER_STATES`). States that an interaction changes (update, cancel) or that the
 * public API cannot reach get a fresh order of their own, which teardown removes; states
 * that are only read find an order in the store by what it holds, not by a seed position.
 */
export const STATE_HANDLERS: Readonly<Record<ProviderStateName, StateHandler>> = {
  [PROVIDER_STATES.orderExists.name]: (_params, context) =>
    created(freshOrder(context, callerOf(context.store))),

  [PROVIDER_STATES.orderInProductionExists.name]: (_params, context) =>
    created(freshOrder(context, callerOf(context.store), 'in-production')),

  [PROVIDER_STATES.shippedOrderExists.name]: (_params, context) => {
    const caller = callerOf(context.store);
    const shipped = readableOrders(context, caller).find((record) =>
      record.detail.lines.some(isShippedWithTracking),
    );
    return shipped
      ? { values: orderValues(shipped), created: [] }
      : created(freshOrder(context, caller, 'shipped'));
  },

  [PROVIDER_STATES.discountedOrderExists.name]: (_params, context) => {
    const caller = callerOf(context.store);
    const discounted = readableOrders(context, caller).find((record) =>
      record.detail.lines.some((line) => line.customerDiscount != null),
    );
    if (!discounted) {
      throw cannotHold(
        `no order of "${caller}" has a line with a customer discount (the seed data has some: POST /__control/reset restores it)`,
      );
    }
    return { values: orderValues(discounted), created: [] };
  },

  [PROVIDER_STATES.orderCreationFailed.name]: (_params, context) =>
    created(freshOrder(context, callerOf(context.store), 'creation-failed')),

  [NO_ORDER_WITH_ID]: (params, { store }) => {
    const id = wholeNumber(params.id);
    if (id === undefined) throw badParam(NO_ORDER_WITH_ID, 'id must be a whole number');
    if (store.findAnywhere(String(id)) !== undefined) throw cannotHold(`an order with id ${id} exists`);
    return CHECKED;
  },

  [ORDERS_WITH_STATUS]: (params, context) => {
    const status = params.status as OrderStatus;
    if (!ORDER_STATUSES.includes(status)) {
      throw badParam(ORDERS_WITH_STATUS, `status must be one of ${ORDER_STATUSES.join(', ')}`);
    }
    const caller = callerOf(context.store);
    if (readableOrders(context, caller).some((record) => record.detail.status === status)) return CHECKED;
    const state = CONTROL_STATE_FOR_STATUS[status];
    if (state === undefined) throw cannotHold(`no order of "${caller}" has the status "${status}"`);
    return { values: {}, created: [freshOrder(context, caller, state)] };
  },

  [FEWER_THAN_OFFSET]: (params, context) => {
    const offset = wholeNumber(params.offset);
    if (offset === undefined) throw badParam(FEWER_THAN_OFFSET, 'offset must be a whole number');
    const caller = callerOf(context.store);
    const held = readableOrders(context, caller).length;
    if (held >= offset) throw cannotHold(`"${caller}" has ${held} orders, not fewer than ${offset}`);
    return CHECKED;
  },

  [PROVIDER_STATES.otherCredentialSetOrderExists.name]: (_params, context) =>
    created(freshOrder(context, otherTenantOf(context.store))),
};

/** The names of every state the endpoint knows, for messages. */
export const KNOWN_STATES: readonly string[] = Object.keys(STATE_HANDLERS);

/** The handler for a state name as a pact writes it, if there is one. */
export function stateHandlerFor(name: string): StateHandler | undefined {
  return Object.hasOwn(STATE_HANDLERS, name) ? STATE_HANDLERS[name as ProviderStateName] : undefined;
}
