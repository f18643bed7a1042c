/**
 * Provider states: the contract between the consumer suite (which names them) and the
 * verifier (which arranges them on a target). Names are present-tense facts; values a test
 * chooses travel as parameters, ids the provider owns come back for injection.
 */
export interface ProviderStateDefinition {
  readonly name: string;
  /** Parameters the interaction passes with the state. */
  readonly params: readonly string[];
  /** Values the verifier returns for injection with `fromProviderState` (`${id}`, `${uuid}`). */
  readonly provides: readonly ('id' | 'uuid')[];
  readonly description: string;
}

export const PROVIDER_STATES = {
  orderExists: {
    name: 'an order exists',
    params: [],
    provides: ['id', 'uuid'],
    description:
      'A readable order of the caller: one the target already lists, or a test order created for the purpose (its asynchronous creation finished).',
  },
  orderInProductionExists: {
    name: 'an order in production exists',
    params: [],
    provides: ['id', 'uuid'],
    description:
      'An order of the caller that is in production: it can no longer be modified (400) nor cancelled (500).',
  },
  shippedOrderExists: {
    name: 'a shipped order exists',
    params: [],
    provides: ['id'],
    description:
      'An order of the caller with a shipped line whose shipment carries track-and-trace URLs (shipmentInfo).',
  },
  discountedOrderExists: {
    name: 'an order with a customer discount exists',
    params: [],
    provides: ['id'],
    description: 'An order of the caller with a line that carries a customer discount (customerDiscount).',
  },
  orderCreationFailed: {
    name: 'an order whose creation failed exists',
    params: [],
    provides: ['uuid'],
    description: 'An order accepted by POST /orders whose asynchronous processing failed (unknown product).',
  },
  noOrderWithId: {
    name: 'no order exists with id {id}',
    params: ['id'],
    provides: [],
    description: 'The given numeric id names no order of any credential set.',
  },
  ordersWithStatusExist: {
    name: 'orders with status {status} exist',
    params: ['status'],
    provides: [],
    description:
      'At least one order of the caller has the given status (cancelled: create one and cancel it).',
  },
  fewerOrdersThanOffset: {
    name: 'fewer than {offset} orders exist',
    params: ['offset'],
    provides: [],
    description: 'The caller has fewer orders than the given offset, so that page is empty.',
  },
  otherCredentialSetOrderExists: {
    name: 'an order of another credential set exists',
    params: [],
    provides: ['id', 'uuid'],
    description: 'An order that belongs to a different credential set than the caller.',
  },
} as const satisfies Record<string, ProviderStateDefinition>;

type ProviderStateKey = keyof typeof PROVIDER_STATES;
export type ProviderStateName = (typeof PROVIDER_STATES)[ProviderStateKey]['name'];

/** The definition for a state name as it appears in a pact file, if the kit knows it. */
export function findProviderState(name: string): ProviderStateDefinition | undefined {
  return Object.values(PROVIDER_STATES).find((state) => state.name === name);
}
