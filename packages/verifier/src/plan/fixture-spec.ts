import type { ApiVersion, OrderStatus } from '@print-contracts/client';
import type { CredentialRole } from '../target/target.js';

/** What a listed order must have for a state. */
export type ListedWant =
  | { readonly kind: 'any' }
  | { readonly kind: 'status'; readonly status: OrderStatus }
  /** A line with a non-empty `shipmentInfo` of any shape, or the status `shipped`: the contract judges the rest. */
  | { readonly kind: 'shipped' }
  /** A line whose `customerDiscount` is an object of any shape: the contract judges its fields. */
  | { readonly kind: 'discounted' };

/** An order the run creates through the public API (always a test order of the run's reference). */
export interface CreatedSpec {
  readonly kind: 'created';
  readonly credential: CredentialRole;
  /** `unknown`: a product no vendor sells, whose asynchronous creation fails (that is the state). */
  readonly product: 'fixture' | 'unknown';
  /** What to do once it is readable; `in-production`, `shipped`, `completed` through the control surface. */
  readonly after: 'nothing' | 'cancel' | 'in-production' | 'shipped' | 'completed';
  /** The status the order must show once arranged, when the state promises one. */
  readonly expectStatus?: OrderStatus;
}

/** What to arrange on the target for one provider state: an arranger's answer. */
export type FixtureSpec =
  /** For read-only requests: a listed order as `want` asks; else `orElse`, or not verifiable (`orElseWhy`). */
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
  /** The provider state's name; `label` has its parameters filled in. */
  readonly state: string;
  readonly label: string;
}
