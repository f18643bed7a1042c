// The client an integrator uses. What only the kit's own packages share is in `./kit.ts`.
export * from './client.js';
export * from './errors/index.js';
export * from './operations.js';
export type { OrdersClientOptions, VersionHeader } from './options.js';
export {
  type AttemptResult,
  GATEWAY_STATUSES,
  parseRetryAfter,
  type RetryEvent,
  type RetryObserver,
  type RetryPolicy,
  UNPROCESSED_STATUSES,
  withoutVendorAnswer,
  withRetries,
} from './retry.js';
export * from './schemas/error-body.js';
// Every zod schema exported here names a component of the OpenAPI documents (@print-contracts/openapi).
export * from './schemas/order.js';
export * from './schemas/order-request.js';
export * from './vendor.js';
