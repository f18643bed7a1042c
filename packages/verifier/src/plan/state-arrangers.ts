import { ORDER_STATUSES, type OrderStatus } from '@print-contracts/client';
import { PROVIDER_STATES, type ProviderStateName } from '@print-contracts/consumer-contracts/vocabulary';
import type { FixtureSpec } from './fixture-spec.js';

/** What the target offers beyond its public API. */
export interface TargetCapabilities {
  readonly control: boolean;
  readonly otherCredentials: boolean;
}

/** An arranger's answer: the fixture to build, or why this target cannot reach the state. */
export type ArrangerResult =
  | { readonly spec: FixtureSpec; readonly unreachable?: undefined; readonly invalid?: undefined }
  | { readonly unreachable: string; readonly spec?: undefined; readonly invalid?: undefined }
  /** The state's parameters make no sense: a defect of the contract, reported as a failure. */
  | { readonly invalid: string; readonly spec?: undefined; readonly unreachable?: undefined };

type Arranger = (params: Readonly<Record<string, unknown>>, target: TargetCapabilities) => ArrangerResult;

export const NEEDS_CONTROL =
  'needs the sample API control surface to reach this state, and this target has none (see --control)';
export const NEEDS_OTHER_CREDENTIALS =
  'needs a second credential set (PRINT_API_OTHER_USER_ID and PRINT_API_OTHER_SECRET), and none is configured';

const order = (after: 'nothing' | 'cancel', expectStatus?: OrderStatus): ArrangerResult => ({
  spec: { kind: 'order', credential: 'main', after, ...(expectStatus ? { expectStatus } : {}) },
});

const controlled = (target: TargetCapabilities, spec: FixtureSpec): ArrangerResult =>
  target.control ? { spec } : { unreachable: NEEDS_CONTROL };

/** Orders get each status this way; `unknown` cannot be reached on any target. */
function orderWithStatus(status: string, target: TargetCapabilities): ArrangerResult {
  if (!(ORDER_STATUSES as readonly string[]).includes(status)) {
    return { invalid: `"${status}" is not an order status (${ORDER_STATUSES.join(', ')})` };
  }
  switch (status as OrderStatus) {
    case 'in-progress':
      return order('nothing', 'in-progress');
    case 'cancelled':
      return order('cancel', 'cancelled');
    case 'completed':
      return controlled(target, {
        kind: 'order',
        credential: 'main',
        after: 'completed',
        expectStatus: 'completed',
      });
    case 'unknown':
      return { unreachable: 'no public or control route gives an order the status "unknown"' };
  }
}

function wholeNumber(value: unknown): number | undefined {
  const number = typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : value;
  return typeof number === 'number' && Number.isSafeInteger(number) && number >= 0 ? number : undefined;
}

/**
 * One arranger per provider state, keyed by the exact state name the consumer suite writes
 * (`PROVIDER_STATES`). Each reaches its state through the target's public API where it
 * can; the control surface and a second credential set only where the state needs them.
 */
export const STATE_ARRANGERS: Readonly<Record<ProviderStateName, Arranger>> = {
  [PROVIDER_STATES.orderExists.name]: () => order('nothing'),
  [PROVIDER_STATES.orderInProductionExists.name]: (_params, target) =>
    controlled(target, { kind: 'order', credential: 'main', after: 'in-production' }),
  [PROVIDER_STATES.shippedOrderExists.name]: (_params, target) =>
    controlled(target, { kind: 'order', credential: 'main', after: 'completed' }),
  [PROVIDER_STATES.discountedOrderExists.name]: () => ({
    unreachable: 'no public or control route gives an order a customer discount',
  }),
  [PROVIDER_STATES.orderCreationFailed.name]: () => ({ spec: { kind: 'failed-order' } }),
  [PROVIDER_STATES.noOrderWithId.name]: (params) => {
    const id = params.id;
    return typeof id === 'string' || typeof id === 'number'
      ? { spec: { kind: 'no-order', id: String(id) } }
      : { invalid: 'the state needs an id parameter' };
  },
  [PROVIDER_STATES.ordersWithStatusExist.name]: (params, target) =>
    typeof params.status === 'string'
      ? orderWithStatus(params.status, target)
      : { invalid: 'the state needs a status parameter' },
  [PROVIDER_STATES.fewerOrdersThanOffset.name]: (params) => {
    const offset = wholeNumber(params.offset);
    return offset === undefined
      ? { invalid: 'the state needs a whole-number offset parameter' }
      : { spec: { kind: 'fewer-orders', offset } };
  },
  [PROVIDER_STATES.otherCredentialSetOrderExists.name]: (_params, target) =>
    target.otherCredentials
      ? { spec: { kind: 'order', credential: 'other', after: 'nothing' } }
      : { unreachable: NEEDS_OTHER_CREDENTIALS },
};

/** The arranger for a state name, if the kit knows the state. */
export function arrangerFor(name: string): Arranger | undefined {
  return Object.hasOwn(STATE_ARRANGERS, name) ? STATE_ARRANGERS[name as ProviderStateName] : undefined;
}
