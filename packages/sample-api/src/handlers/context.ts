import type { ApiVersion } from '@print-contracts/client';
import type { Answer } from '../http/answer.js';
import type { OrderStore } from '../store/order-store.js';

/** A request that passed authentication, versioning, routing and its operation's body schema. */
export interface OperationRequest {
  /** The credential set the request was made with: it sees only its own orders. */
  readonly userId: string;
  readonly version: ApiVersion;
  /** The decoded `{id}` segment, for operations on one order. */
  readonly id: string | undefined;
  /** The raw query string, without `?`. */
  readonly query: string | undefined;
  /** The body, already parsed by the operation's schema for `version`. */
  readonly body: unknown;
  /** When the request arrived (epoch ms): decides whether an order has finished processing. */
  readonly now: number;
}

/** What handlers share: the orders and the simulated processing time. */
export interface HandlerDeps {
  readonly store: OrderStore;
  readonly processingDelayMs: number;
}

/** Answers one operation; throws `ApiAnswerError` to refuse. Synchronous: the store is in memory. */
export type OperationHandler = (request: OperationRequest, deps: HandlerDeps) => Answer;
