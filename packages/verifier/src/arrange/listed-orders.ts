import {
  type ApiVersion,
  isResponseValidationError,
  LIST_LIMIT_MAX,
  type OrderDetail,
  type OrderSummary,
} from '@print-contracts/client';
import type { ListedWant } from '../plan/fixture-spec.js';
import type { TargetClients } from '../target/clients.js';
import type { CredentialRole } from '../target/target.js';

/** At most this many listed orders are read in full to find a shipped or discounted line. */
const MAX_DETAILS = 20;
const DETAIL_CONCURRENCY = 4;

/** An order that has what a state asks (listed, or created), and how it was found. */
export interface ArrangedOrder {
  readonly id: number;
  readonly uuid: string | undefined;
  readonly how: string;
}

const has: Record<'shipped' | 'discounted', (order: OrderDetail) => boolean> = {
  shipped: (order) =>
    order.lines.some(
      (line) =>
        line.status === 'shipped' &&
        (line.shipmentInfo ?? []).some((shipment) => shipment.trackAndTraceUrl.length > 0),
    ),
  discounted: (order) => order.lines.some((line) => line.customerDiscount !== null),
};

/**
 * What the target already lists, per credential set and version: the first page, and in full
 * (a few at a time) the orders a state looks into. Read-only interactions use these instead of
 * creating orders. The pages are read before the run creates anything (`snapshot`), so an
 * order of the run, which other interactions change, is never taken for a listed one.
 */
export class ListedOrders {
  readonly #clients: TargetClients;
  readonly #signal: AbortSignal;
  readonly #pages = new Map<string, Promise<readonly OrderSummary[]>>();
  readonly #details = new Map<string, Promise<OrderDetail | undefined>>();

  constructor(clients: TargetClients, signal: AbortSignal) {
    this.#clients = clients;
    this.#signal = signal;
  }

  /** Reads these first pages at once; call before creating anything. */
  async snapshot(pages: readonly { role: CredentialRole; version: ApiVersion }[]): Promise<void> {
    await Promise.allSettled(pages.map(({ role, version }) => this.page(role, version)));
  }

  page(role: CredentialRole, version: ApiVersion): Promise<readonly OrderSummary[]> {
    const key = `${role}|${version}`;
    let page = this.#pages.get(key);
    if (!page) {
      page = this.#clients
        .client(role, version)
        .listOrders({ limit: LIST_LIMIT_MAX }, { signal: this.#signal })
        .then((answer) => answer.orders);
      this.#pages.set(key, page);
    }
    return page;
  }

  /** A listed order with what `want` asks (and a uuid when `needsUuid`), or undefined. */
  async find(
    role: CredentialRole,
    version: ApiVersion,
    want: ListedWant,
    needsUuid: boolean,
  ): Promise<ArrangedOrder | undefined> {
    const candidates = (await this.page(role, version)).filter(
      (order) =>
        (!needsUuid || order.uuid !== null) && (want.kind !== 'status' || order.status === want.status),
    );
    const found = (order: OrderSummary, what: string) => ({
      id: order.id,
      uuid: order.uuid ?? undefined,
      how: `listed order ${order.id}${what}${role === 'other' ? ' of the second credential set' : ''}`,
    });
    if (want.kind === 'any' || want.kind === 'status') {
      const [first] = candidates;
      return first ? found(first, want.kind === 'status' ? ` (${want.status})` : '') : undefined;
    }
    const check = has[want.kind];
    const pool = candidates.slice(0, MAX_DETAILS);
    for (let start = 0; start < pool.length; start += DETAIL_CONCURRENCY) {
      const batch = pool.slice(start, start + DETAIL_CONCURRENCY);
      const details = await Promise.all(batch.map((order) => this.#detail(role, version, order.id)));
      const index = details.findIndex((detail) => detail !== undefined && check(detail));
      const match = batch[index];
      if (match)
        return found(
          match,
          want.kind === 'shipped' ? ' (a shipped line with track-and-trace)' : ' (a discounted line)',
        );
    }
    return undefined;
  }

  /** One order in full; undefined when it breaks the client's schema (the read interactions will say so). */
  #detail(role: CredentialRole, version: ApiVersion, id: number): Promise<OrderDetail | undefined> {
    const key = `${role}|${version}|${id}`;
    let detail = this.#details.get(key);
    if (!detail) {
      detail = this.#clients
        .client(role, version)
        .getOrder(id, { signal: this.#signal })
        .catch((error: unknown) => {
          if (isResponseValidationError(error)) return undefined;
          throw error;
        });
      this.#details.set(key, detail);
    }
    return detail;
  }
}
