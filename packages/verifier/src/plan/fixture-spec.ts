import type { ApiVersion, OrderStatus } from '@print-contracts/client';
import type { CredentialRole } from '../target/target.js';

/** What a listed order must have for a state. */
export type ListedWant =
  | { readonly kind: 'any' }
  | { readonly kind: 'status'; readonly status: OrderStatus }
  /** A shipped line whose shipment lists track-and-trace URLs. */
  | { readonly kind: 'shipped' }
  /** A line with a customer discount. */
  | { readonly kind: 'discounted' };

/** What to do with an order the run creates, once it is readable. */
export type AfterCreation = 'nothing' | 'cancel' | 'in-production' | 'shipped' | 'completed';

/** An order the run creates through the public API (always a test order of the run's reference). */
export interface CreatedSpec {
  readonly kind: 'created';
  readonly credential: CredentialRole;
  /** `unknown`: a product no vendor sells, whose asynchronous creation fails (that is the state). */
  readonly product: 'fixture' | 'unknown';
  /** `in-production`, `shipped`, `completed`: through the control surface only. */
  readonly after: AfterCreation;
  /** The status the order must show once arranged, when the state promises one. */
  readonly expectStatus?: OrderStatus;
}

/**
 * What to arrange on the target for one provider state. Arrangers turn a state (and its
 * parameters) into one of these; the plan shares fixtures between read-only interactions
 * and gives each mutating interaction its own.
 */
export type FixtureSpec =
  /**
   * An order the target already lists with what `want` asks (sample data harms no one, and
   * reading a real order changes nothing): read-only requests only. Failing that, `orElse`,
   * or not verifiable here with `orElseWhy`.
   */
  | {
      readonly kind: 'listed';
      readonly credential: CredentialRole;
      readonly want: ListedWant;
      readonly needsUuid: boolean;
      readonly orElse: CreatedSpec | undefined;
      readonly orElseWhy: string;
    }
  | CreatedSpec
  /** Check, read-only, that the caller has no order with this id. */
  | { readonly kind: 'no-order'; readonly id: string }
  /** Check, read-only, that the caller holds fewer orders than `offset`, counting those the run creates. */
  | { readonly kind: 'fewer-orders'; readonly offset: number };

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

/** True when arranging the spec creates an order on the target (a listed one may, as a fallback). */
export const mayCreate = (spec: FixtureSpec): boolean =>
  spec.kind === 'created' || (spec.kind === 'listed' && spec.orElse !== undefined);
