import {
  type ApiVersion,
  type CreateOrderV1,
  type CreateOrderV2,
  UNKNOWN_PRODUCT,
} from '@print-contracts/client';
import type { OrderBodies } from '../options/verify-options.js';

/**
 * The body of an order the run creates: a test order with the run's reference (so `--cleanup`
 * finds it without its uuid); `unknown` orders a product no vendor sells, whose creation fails.
 */
export function orderBody(
  bodies: OrderBodies,
  version: ApiVersion,
  reference: string,
  product: 'fixture' | 'unknown' = 'fixture',
): CreateOrderV1 | CreateOrderV2 {
  const body = { ...structuredClone(bodies[version]), testOrder: true, reference };
  if (product === 'fixture') return body;
  const [line] = body.orderLines;
  const unknown =
    line !== undefined && 'productCode' in line
      ? { productCode: UNKNOWN_PRODUCT.v1ProductCode, ...(line.files ? { files: line.files } : {}) }
      : {
          sku: UNKNOWN_PRODUCT.v2Sku,
          attributes: [{ attribute: 'quantity', value: '1' }],
          ...(line?.files ? { files: line.files } : {}),
        };
  return { ...body, orderLines: [unknown] } as CreateOrderV1 | CreateOrderV2;
}
