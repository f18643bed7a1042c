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
  /**
   * How the state is reached. `public-api`: with the target's own endpoints, on any target.
   * `control`: only through a declared control surface (the sample API's); elsewhere the
   * interaction is reported as not verifiable here. `other-credentials`: needs a second
   * credential set. `none`: nothing to arrange.
   */
  readonly reachedBy: 'public-api' | 'control' | 'other-credentials' | 'none';
  readonly description: string;
}

export const PROVIDER_STATES = {
  orderExists: {
    name: 'an order exists',
    params: [],
    provides: ['id', 'uuid'],
    reachedBy: 'public-api',
    description: 'A test order created by the caller, readable (its asynchronous creation has finished).',
  },
  orderInProductionExists: {
    name: 'an order in production exists',
    params: [],
    provides: ['id', 'uuid'],
    reachedBy: 'control',
    description: 'An order of the caller that is in production, so it can no longer be cancelled.',
  },
  orderCreationFailed: {
    name: 'an order whose creation failed exists',
    params: [],
    provides: ['uuid'],
    reachedBy: 'public-api',
    description: 'An order accepted by POST /orders whose asynchronous processing failed (unknown product).',
  },
  noOrderWithId: {
    name: 'no order exists with id {id}',
    params: ['id'],
    provides: [],
    reachedBy: 'none',
    description: 'The given numeric id names no order of any credential set.',
  },
  ordersWithStatusExist: {
    name: 'orders with status {status} exist',
    params: ['status'],
    provides: [],
    reachedBy: 'public-api',
    description:
      'At least one order of the caller has the given status (cancelled: create one and cancel it).',
  },
  fewerOrdersThanOffset: {
    name: 'fewer than {offset} orders exist',
    params: ['offset'],
    provides: [],
    reachedBy: 'none',
    description: 'The caller has fewer orders than the given offset, so that page is empty.',
  },
  otherCredentialSetOrderExists: {
    name: 'an order of another credential set exists',
    params: [],
    provides: ['id', 'uuid'],
    reachedBy: 'other-credentials',
    description: 'An order that belongs to a different credential set than the caller.',
  },
} as const satisfies Record<string, ProviderStateDefinition>;

export type ProviderStateKey = keyof typeof PROVIDER_STATES;
export type ProviderStateName = (typeof PROVIDER_STATES)[ProviderStateKey]['name'];

/** The definition for a state name as it appears in a pact file, if the kit knows it. */
export function findProviderState(name: string): ProviderStateDefinition | undefined {
  return Object.values(PROVIDER_STATES).find((state) => state.name === name);
}
