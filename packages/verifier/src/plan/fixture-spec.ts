import type { ApiVersion, OrderStatus } from '@print-contracts/client';

/** Which credential set owns an arranged order. */
export type CredentialRole = 'main' | 'other';

/** A state an order can be put in only through the sample API's control surface. */
export type ControlledStatus = 'in-production' | 'completed';

/**
 * What to arrange on the target for one provider state. Arrangers turn a state (and its
 * parameters) into one of these; the plan shares fixtures between read-only interactions
 * and gives each mutating interaction its own.
 */
export type FixtureSpec =
  | {
      readonly kind: 'order';
      readonly credential: CredentialRole;
      /** After creation: cancel it (public API) or move it on through the control surface. */
      readonly after: 'nothing' | 'cancel' | ControlledStatus;
      /** The status the order must show once arranged, when the state promises one. */
      readonly expectStatus?: OrderStatus;
    }
  /** An order accepted by `POST /orders` whose asynchronous creation fails (unknown product). */
  | { readonly kind: 'failed-order' }
  /** Check, read-only, that the caller has no order with this id. */
  | { readonly kind: 'no-order'; readonly id: string }
  /** Check, read-only, that the caller holds fewer orders than `offset`, counting those the run creates. */
  | { readonly kind: 'fewer-orders'; readonly offset: number }
  | { readonly kind: 'nothing' };

/** A fixture to arrange once, and the key under which interactions share it. */
export interface FixtureRequest {
  readonly key: string;
  readonly version: ApiVersion;
  readonly spec: FixtureSpec;
  /** The provider state it stands for, for progress lines and reasons. */
  readonly state: string;
  /** The state with its parameters filled in, for people. */
  readonly label: string;
}

/** True when arranging the fixture creates an order on the target. */
export const createsOrder = (spec: FixtureSpec) => spec.kind === 'order' || spec.kind === 'failed-order';
