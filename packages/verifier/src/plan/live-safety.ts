import type { OperationName } from '@print-contracts/client';

export const LIVE_NON_TEST_CREATE =
  'live mode: the request would create an order without "testOrder": true, so it is not replayed';
export const LIVE_TEST_FLAG_CHANGE =
  'live mode: the update would change "testOrder" of an order, so it is not replayed';

/**
 * Why a request must not reach a live target, or undefined when it may. Creating an order
 * is allowed only as a test order; an update must not touch `testOrder`. The plan applies
 * this before the replay, and the loopback proxy again on the wire.
 */
export function liveRefusal(operation: OperationName | undefined, body: unknown): string | undefined {
  const record = body !== null && typeof body === 'object' ? (body as Record<string, unknown>) : undefined;
  if (operation === 'createOrder') {
    return record?.testOrder === true ? undefined : LIVE_NON_TEST_CREATE;
  }
  if (operation === 'updateOrder' || operation === 'updateOrderWithPost') {
    return record && 'testOrder' in record && record.testOrder !== true ? LIVE_TEST_FLAG_CHANGE : undefined;
  }
  return undefined;
}
