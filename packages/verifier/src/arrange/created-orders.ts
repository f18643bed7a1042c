import { setMaxListeners } from 'node:events';
import {
  type ApiVersion,
  type CreateOrderV1,
  type CreateOrderV2,
  isHttpError,
  isOrderCreationFailedError,
  isOrderWaitTimeoutError,
  isRequestValidationError,
  isTransportError,
  type OrdersClient,
  UNKNOWN_PRODUCT,
} from '@print-contracts/client';
import { ArrangeError } from '../errors/arrange-error.js';
import type { Ledger } from '../ledger/ledger.js';
import type { OrderBodies, VerifyOptions } from '../options/verify-options.js';
import type { CreatedSpec } from '../plan/fixture-spec.js';
import type { TargetClients } from '../target/clients.js';
import { setControlState } from '../target/control-surface.js';
import type { ArrangedOrder } from './listed-orders.js';
import { memo } from './memo.js';
import { messageOf, notHere, toArrangeError } from './verdicts.js';

/** What the vendor's docs name as the causes of an order that never gets placed. */
const PLACEMENT_CAUSES =
  'the vendor names an invalid address, an invalid product or an outdated category sku (give a product you order with --order-fixture)';

/** What creating orders reads of the run's options, and the clients and ledger it creates them with. */
export type CreateOptions = Pick<VerifyOptions, 'orderBodies' | 'pollIntervalMs' | 'requestTimeoutMs'> & {
  readonly clients: TargetClients;
  readonly ledger: Ledger;
  /** Aborts the waits (an interrupt); a create already sent still runs to its answer. */
  readonly signal: AbortSignal;
};

const seconds = (ms: number) => `${Math.round(ms / 1000)} s`;

/** Creates, waits for and finishes orders as specs say: each ledgered first, awaited until its deadline. */
export function createdOrders(options: CreateOptions) {
  const { clients, ledger, signal, pollIntervalMs } = options;
  /** Per version (one body each): aborted, with the reason, once one of its orders failed creation. */
  const doomed = memo((_version: ApiVersion) => {
    const controller = new AbortController();
    setMaxListeners(0, controller.signal); // every order of the body listens
    return controller;
  });

  /** The order once readable, or the client's error saying its creation failed or it was not in time. */
  async function wait(client: OrdersClient<ApiVersion>, key: string, uuid: string, body?: AbortController) {
    const deadline = Date.parse(ledger.get(key)?.deadline ?? '') || Date.now();
    try {
      const order = await client.waitForOrder(uuid, {
        timeoutMs: Math.max(0, deadline - Date.now()),
        intervalMs: Math.min(25, pollIntervalMs),
        maxIntervalMs: pollIntervalMs,
        signal: body ? AbortSignal.any([signal, body.signal]) : signal,
      });
      ledger.record('read', key, { id: order.id });
      return order;
    } catch (error) {
      if (body?.signal.aborted && !signal.aborted) {
        throw notHere(`another order of the same body: ${body.signal.reason}`);
      }
      if (isOrderCreationFailedError(error)) {
        ledger.record('closed', key, { outcome: 'creation-failed', note: error.vendorMessage });
      }
      if (isOrderCreationFailedError(error) || isOrderWaitTimeoutError(error)) return error;
      throw toArrangeError(error);
    }
  }

  return async (version: ApiVersion, spec: CreatedSpec, source: string): Promise<ArrangedOrder> => {
    // Stopped before this state's turn: nothing is created after the user asked to stop.
    if (signal.aborted) throw notHere('not arranged: the run was interrupted');
    const client = clients.client(spec.credential, version);
    const controlled =
      spec.after === 'in-production' || spec.after === 'shipped' || spec.after === 'completed';
    const origin = controlled ? clients.target.controlOrigin : undefined;
    if (controlled && !origin) throw notHere('the target has no control surface');
    const key = ledger.creating(clients.target, { credential: spec.credential, version, source }, origin);
    const body = orderBody(options.orderBodies, version, ledger.reference, spec.product);
    // Never aborted: a create the target may already have accepted must bring back its uuid. A 429
    // or 503 proves nothing was created: the client sends it again until the order's deadline.
    const deadline = Date.parse(ledger.get(key)?.deadline ?? '') || undefined;
    const { uuid } = await client.send('createOrder', { body }, { deadline }).catch((error: unknown) => {
      throw createFailed(ledger, key, error);
    });
    ledger.record('created', key, { uuid });

    if (spec.product === 'unknown') {
      const waited = await wait(client, key, uuid);
      const how = `created order ${uuid} for a product no vendor sells; its creation failed`;
      if (isOrderCreationFailedError(waited)) return { id: 0, uuid, how };
      throw notHere(
        isOrderWaitTimeoutError(waited)
          ? `order ${uuid}, for a product no vendor sells, neither failed nor became readable within ${seconds(waited.waitedMs)}`
          : `the target processed order ${uuid} for a product no vendor sells, so its creation did not fail`,
      );
    }
    let order = await wait(client, key, uuid, doomed(version));
    if (isOrderCreationFailedError(order)) {
      const reason = `order ${uuid} failed creation ("${order.vendorMessage}"); ${PLACEMENT_CAUSES}`;
      doomed(version).abort(reason);
      throw notHere(reason);
    }
    if (isOrderWaitTimeoutError(order)) {
      // Left open in the ledger: teardown and --cleanup wait no longer than its deadline.
      throw notHere(
        `order ${uuid} was not readable after ${seconds(order.waitedMs)} (the bound, --creation-timeout); ` +
          `an order still missing after 10 minutes cannot be placed: ${PLACEMENT_CAUSES}; a sample-data credential set may never make its orders readable`,
      );
    }
    let how = `created test order ${order.id}`;
    if (spec.after === 'cancel') {
      await client.cancelOrder(uuid, 'Arranged by the contract verifier', { signal });
      ledger.record('closed', key, { outcome: 'cancelled' });
      order = await client.getOrder(uuid, { signal });
      how += ', then cancelled it';
    } else if (controlled && origin) {
      ledger.record('controlled', key, {});
      const timeoutMs = options.requestTimeoutMs;
      await setControlState(clients.dispatcher, origin, uuid, spec.after, { timeoutMs, signal });
      order = await client.getOrder(uuid, { signal });
      how += `, put ${spec.after} through the control surface`;
    }
    if (spec.expectStatus && order.status !== spec.expectStatus) {
      throw notHere(
        `the arranged order ${order.id} has status "${order.status}", not "${spec.expectStatus}"`,
      );
    }
    return { id: order.id, uuid: order.uuid ?? uuid, how };
  };
}

/** Crosses off a create the target refused (or the client never sent), or marks it unresolved; says why. */
function createFailed(ledger: Ledger, key: string, error: unknown): ArrangeError {
  const message = messageOf(error);
  const notCreated = (note: string) => ledger.record('closed', key, { outcome: 'not-created', note });
  if (isHttpError(error)) {
    notCreated(`status ${error.status}`);
    const refused = `the target refused to create the order (${message})`;
    return error.status === 429 || error.status === 503
      ? new ArrangeError('target-unavailable', `${refused} after the retries`)
      : notHere(`${refused}; ${PLACEMENT_CAUSES}`);
  }
  if (isRequestValidationError(error)) {
    notCreated('refused by the client before sending');
    return notHere(`the order body is not valid: ${message}`);
  }
  if (isTransportError(error) && error.failure === 'refused') notCreated('the connection was refused');
  else ledger.record('unresolved', key, { reason: message });
  return new ArrangeError('target-unavailable', `creating the order got no answer: ${message}`, {
    cause: error,
  });
}

/** A test order of the fixture (or an unknown product) with the run's reference, for `--cleanup`'s scan. */
function orderBody(
  bodies: OrderBodies,
  version: ApiVersion,
  reference: string,
  product: 'fixture' | 'unknown',
): CreateOrderV1 | CreateOrderV2 {
  const body = { ...structuredClone(bodies[version]), testOrder: true, reference };
  if (product === 'fixture') return body;
  const [line] = body.orderLines;
  const files = line?.files ? { files: line.files } : {};
  const unknown =
    line !== undefined && 'productCode' in line
      ? { productCode: UNKNOWN_PRODUCT.v1ProductCode, ...files }
      : { sku: UNKNOWN_PRODUCT.v2Sku, attributes: [{ attribute: 'quantity', value: '1' }], ...files };
  return { ...body, orderLines: [unknown] } as CreateOrderV1 | CreateOrderV2;
}
