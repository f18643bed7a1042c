import type { OperationName } from '@print-contracts/client';

const MUTATIONS = new Set<OperationName | undefined>(['updateOrder', 'updateOrderWithPost', 'cancelOrder']);
const READS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Why a request must not reach a live target, or undefined when it may: only test orders are
 * created, updates leave `testOrder` alone, a change names an order `owned` by the run (or proved
 * missing), and only reads go to unknown paths. `operation` comes from the normalised path.
 */
export function liveRefusal(
  request: { readonly method: string; readonly operation: OperationName | undefined; readonly body: unknown },
  owned: () => boolean,
): string | undefined {
  const record =
    request.body !== null && typeof request.body === 'object'
      ? (request.body as Record<string, unknown>)
      : undefined;
  if (request.operation === 'createOrder') {
    if (typeof request.body === 'string') {
      return 'live mode: the body of a request that could create an order is not JSON, so it is not sent';
    }
    if (record?.testOrder !== true) {
      return 'live mode: the request would create an order without "testOrder": true, so it is not sent';
    }
    return undefined;
  }
  if (MUTATIONS.has(request.operation)) {
    if (request.operation !== 'cancelOrder' && record && 'testOrder' in record && record.testOrder !== true) {
      return 'live mode: the update would change "testOrder" of an order, so it is not sent';
    }
    return owned()
      ? undefined
      : 'live mode: the request would change an order this run did not create, so it is not sent';
  }
  // A change the operations table does not know (say `POST /orders/1/cancel`) could do anything.
  if (request.operation === undefined && !READS.has(request.method.toUpperCase())) {
    return `live mode: ${request.method.toUpperCase()} on a path the API does not describe could change an order, so it is not sent`;
  }
  return undefined;
}
