import { type ApiVersion, isHttpError, LIST_LIMIT_MAX, type OrderSummary } from '@print-contracts/client';
import { isJsonObject, type JsonObject } from '@print-contracts/client/kit';
import type { FixtureSpec, ListedWant } from '../plan/fixture-spec.js';
import type { TargetClients } from '../target/clients.js';
import type { CredentialRole } from '../target/target.js';
import { memo } from './memo.js';

/** The list is walked this many pages deep at most (the state line says how far it looked). */
export const MAX_PAGES = 20;
/** At most this many listed orders are read in full to find a shipped or discounted line, a few at a time. */
export const MAX_DETAILS = 300;
const DETAIL_CONCURRENCY = 4;

/** An order that has what a state asks (listed, or created), and how it was found. */
export interface ArrangedOrder {
  readonly id: number;
  readonly uuid: string | undefined;
  readonly how: string;
}

/** What a walk through the list found, and how far it went. */
export interface ListedWalk {
  readonly orders: readonly OrderSummary[];
  readonly pages: number;
  /** Why the walk stopped before the list's end: the page bound, or a page that repeated an earlier one. */
  readonly stopped: string | undefined;
}

const linesOf = (order: unknown): JsonObject[] =>
  isJsonObject(order) && Array.isArray(order.lines) ? order.lines.filter(isJsonObject) : [];

/** A value that holds something: not absent, null, false, 0, "" nor an empty list or object. */
const filled = (value: unknown) =>
  Boolean(value) &&
  !(Array.isArray(value) && value.length === 0) &&
  !(isJsonObject(value) && Object.keys(value).length === 0);

/**
 * What a state needs of a line, on the raw answer, by the weakest signal: `weak`, a field present
 * and filled, whatever its shape (that is the contract's to judge, in the replay); `strong`, also
 * as documented. A strong match is taken first, so a line the contract would refuse is used only
 * where the target lists none as documented.
 */
const LINES: Readonly<
  Record<
    'shipped' | 'discounted',
    { weak: (line: JsonObject) => boolean; strong: (line: JsonObject) => boolean; what: string }
  >
> = {
  shipped: {
    weak: (line) => line.status === 'shipped' || filled(line.shipmentInfo),
    strong: (line) =>
      line.status === 'shipped' && Array.isArray(line.shipmentInfo) && line.shipmentInfo.some(isJsonObject),
    what: 'a shipped line',
  },
  discounted: {
    weak: (line) => filled(line.customerDiscount),
    strong: (line) => isJsonObject(line.customerDiscount) && filled(line.customerDiscount),
    what: 'a discounted line',
  },
};

/** Summaries as listed; an entry without a numeric id cannot be used (the list interactions judge it). */
export function summariesOf(answer: unknown): OrderSummary[] {
  const orders = isJsonObject(answer) && Array.isArray(answer.orders) ? answer.orders : [];
  return orders.filter(
    (order): order is OrderSummary => isJsonObject(order) && typeof order.id === 'number' && order.id > 0,
  );
}

/**
 * Orders the target already lists (every page up to `MAX_PAGES`, read before the run creates anything,
 * and the orders a state looks into in full): read-only interactions use them instead of creating orders.
 */
export function listedOrders(clients: TargetClients, signal: AbortSignal) {
  const walk = memo(async (role: CredentialRole, version: ApiVersion): Promise<ListedWalk> => {
    const client = clients.client(role, version);
    const orders: OrderSummary[] = [];
    const seen = new Set<string>();
    // Each page starts after what was listed, and only an empty one ends the list (as the docs
    // say): a vendor that lists fewer than asked is read in full, not taken to have ended.
    for (let page = 0, offset = 0; page < MAX_PAGES; page++) {
      const answer = await client.sendUnchecked(
        'listOrders',
        { query: { limit: LIST_LIMIT_MAX, offset } },
        { signal },
      );
      const found = summariesOf(answer);
      const ids = found.map((order) => order.id).join(',');
      if (found.length > 0 && seen.has(ids)) {
        return { orders, pages: page + 1, stopped: `page ${page + 1} repeated an earlier page` };
      }
      seen.add(ids);
      orders.push(...found);
      const listed = isJsonObject(answer) && Array.isArray(answer.orders) ? answer.orders.length : 0;
      if (listed === 0) return { orders, pages: page + 1, stopped: undefined };
      offset += listed;
    }
    return { orders, pages: MAX_PAGES, stopped: `the bound of ${MAX_PAGES} pages` };
  });
  /** One order as the target wrote it; undefined when it cannot be read (the read interactions judge that). */
  const detail = memo((role: CredentialRole, version: ApiVersion, id: number) =>
    clients
      .client(role, version)
      .sendUnchecked('getOrder', { id }, { signal })
      .catch((error: unknown) => {
        if (isHttpError(error) && error.status < 500 && error.status !== 429) return undefined;
        throw error;
      }),
  );

  /** A listed order with what the spec wants (and a uuid when it needs one); else how far it looked. */
  async function find(
    spec: Extract<FixtureSpec, { kind: 'listed' }>,
    version: ApiVersion,
  ): Promise<ArrangedOrder | { readonly searched: string }> {
    const { credential: role, want, needsUuid } = spec;
    const listed = await walk(role, version);
    const candidates = listed.orders.filter(
      (order) =>
        (!needsUuid || typeof order.uuid === 'string') &&
        (want.kind !== 'status' || order.status === want.status),
    );
    const where = `${listed.pages} page${listed.pages === 1 ? '' : 's'}, ${listed.orders.length} orders${listed.stopped ? `; stopped at ${listed.stopped}` : ''}`;
    const found = (order: OrderSummary, what: string, read = '') => ({
      id: order.id,
      uuid: order.uuid ?? undefined,
      how: `listed order ${order.id}${what}${role === 'other' ? ' of the second credential set' : ''} (looked through ${where}${read})`,
    });
    if (want.kind === 'any' || want.kind === 'status') {
      const [first] = candidates;
      if (first) return found(first, want.kind === 'status' ? ` (${want.status})` : '');
      return { searched: `looked through ${where}: ${describe(want)}` };
    }
    const { weak, strong, what } = LINES[want.kind];
    // The run's own cancelled orders pile up at the front of a long-lived set: look past them first.
    const pool = [
      ...candidates.filter((order) => order.status !== 'cancelled'),
      ...candidates.filter((order) => order.status === 'cancelled'),
    ].slice(0, MAX_DETAILS);
    let fallback: OrderSummary | undefined;
    for (let start = 0; start < pool.length; start += DETAIL_CONCURRENCY) {
      const batch = pool.slice(start, start + DETAIL_CONCURRENCY);
      const details = await Promise.all(batch.map((order) => detail(role, version, order.id)));
      const read = start + batch.length;
      const match = batch[details.findIndex((order) => linesOf(order).some(strong))];
      if (match) return found(match, ` (${what})`, `, read ${read} in full`);
      const near = batch[details.findIndex((order) => linesOf(order).some(weak))];
      fallback ??= near;
    }
    if (fallback) {
      const shape = `, read ${pool.length} in full; none as documented, the contract judges this one`;
      return found(fallback, ` (${what})`, shape);
    }
    const bound = pool.length < candidates.length ? ` (the bound of ${MAX_DETAILS})` : '';
    return { searched: `looked through ${where}, read ${pool.length} in full${bound}: none has ${what}` };
  }

  return { walk, find };
}

const describe = (want: ListedWant) =>
  want.kind === 'status' ? `none has status "${want.status}"` : 'none fits';
