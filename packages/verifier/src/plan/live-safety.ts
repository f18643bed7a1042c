import type { OperationName } from '@print-contracts/client';

export const LIVE_NON_TEST_CREATE =
  'live mode: the request would create an order without "testOrder": true, so it is not sent';
export const LIVE_TEST_FLAG_CHANGE =
  'live mode: the update would change "testOrder" of an order, so it is not sent';
export const LIVE_NOT_OURS =
  'live mode: the request would change an order this run did not create, so it is not sent';
export const LIVE_UNREADABLE_BODY =
  'live mode: the body of a request that could create an order is not JSON, so it is not sent';

/** A request as the target would route it: method, operation (from the normalised path) and body. */
export interface RoutedRequest {
  readonly method: string;
  readonly operation: OperationName | undefined;
  /** The parsed JSON body; `undefined` without one; a string when it is not JSON. */
  readonly body: unknown;
}

const MUTATIONS = new Set<OperationName | undefined>(['updateOrder', 'updateOrderWithPost', 'cancelOrder']);

/**
 * Why a request must not reach a live target, or undefined when it may. Creating an order is
 * allowed only as a test order; an update must not touch `testOrder`; any request the target
 * could route as a create (a POST whose path it would route to `/orders`, however spelled)
 * counts. `owned` says whether the order a change names was created by this run (or is one
 * the run proved does not exist); anything else is refused. The plan applies this before the
 * replay, and the proxy again on the wire.
 */
export function liveRefusal(request: RoutedRequest, owned: () => boolean): string | undefined {
  const record =
    request.body !== null && typeof request.body === 'object'
      ? (request.body as Record<string, unknown>)
      : undefined;
  if (request.operation === 'createOrder') {
    if (typeof request.body === 'string') return LIVE_UNREADABLE_BODY;
    return record?.testOrder === true ? undefined : LIVE_NON_TEST_CREATE;
  }
  if (MUTATIONS.has(request.operation)) {
    if (request.operation !== 'cancelOrder' && record && 'testOrder' in record && record.testOrder !== true) {
      return LIVE_TEST_FLAG_CHANGE;
    }
    return owned() ? undefined : LIVE_NOT_OURS;
  }
  return undefined;
}
