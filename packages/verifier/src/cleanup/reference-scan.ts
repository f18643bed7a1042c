import { setTimeout as sleep } from 'node:timers/promises';
import {
  type ApiVersion,
  ISO_DATE_TIME_PATTERN,
  isHttpError,
  LIST_LIMIT_MAX,
  type OrdersClient,
} from '@print-contracts/client';

/** How many pages of orders a scan reads at most (50 orders each). */
const MAX_SCAN_PAGES = 100;
/** Orders dated this long before the run's first create are still read: clocks differ. */
const CLOCK_SKEW_MS = 15 * 60_000;

/** What a scan found: the orders of the reference it cancelled, and whether it could read them all. */
export interface ScanOutcome {
  readonly cancelled: readonly number[];
  readonly alreadySettled: readonly number[];
  /** False when the scan could not prove it saw every order of the window: the entries stay open. */
  readonly complete: boolean;
  readonly problems: readonly string[];
}

/**
 * For creates whose answer never came: once `after` (the last deadline) has passed, finds the
 * caller's orders dated from `since` (less clock skew) that carry `reference`, reading each in
 * full (the list shows no reference), and cancels those not cancelled yet.
 */
export async function scanByReference(
  client: OrdersClient<ApiVersion>,
  reference: string,
  window: { readonly since: number; readonly after: number },
  options: { readonly signal?: AbortSignal; readonly say: (line: string) => void },
): Promise<ScanOutcome> {
  const wait = window.after - Date.now();
  if (wait > 0) {
    options.say(
      `  waiting ${Math.ceil(wait / 1000)} s, until every create of the run has had its creation window…`,
    );
    await sleep(wait, undefined, { signal: options.signal });
  }
  const cancelled: number[] = [];
  const alreadySettled: number[] = [];
  const problems: string[] = [];
  const cutoff = window.since - CLOCK_SKEW_MS;
  for (let page = 0; page < MAX_SCAN_PAGES; page++) {
    const { orders } = await client.listOrders(
      { limit: LIST_LIMIT_MAX, offset: page * LIST_LIMIT_MAX },
      { signal: options.signal },
    );
    const recent = orders.filter(
      (order) => !ISO_DATE_TIME_PATTERN.test(order.date) || Date.parse(order.date) >= cutoff,
    );
    for (const summary of recent) {
      const order = await client.getOrder(summary.id, { signal: options.signal }).catch((error: unknown) => {
        if (isHttpError(error) && error.status === 404) return undefined;
        throw error;
      });
      if (order?.reference !== reference) continue;
      if (order.status === 'cancelled') {
        alreadySettled.push(order.id);
        continue;
      }
      try {
        await client.cancelOrder(order.id, 'Cleanup by the contract verifier', { signal: options.signal });
        cancelled.push(order.id);
      } catch (error) {
        problems.push(
          `order ${order.id} carries "${reference}" but could not be cancelled: ${(error as Error).message}`,
        );
      }
    }
    const sortedNewestFirst = orders.every(
      (order, index) => index === 0 || Date.parse(order.date) <= Date.parse(orders[index - 1]?.date ?? ''),
    );
    const pastTheWindow = sortedNewestFirst && orders.length > 0 && recent.length < orders.length;
    if (orders.length < LIST_LIMIT_MAX || pastTheWindow) {
      return { cancelled, alreadySettled, complete: problems.length === 0, problems };
    }
  }
  problems.push(`the scan stopped after ${MAX_SCAN_PAGES} pages of orders without reaching the end`);
  return { cancelled, alreadySettled, complete: false, problems };
}
