import {
  type ApiVersion,
  isResponseValidationError,
  LIST_LIMIT_MAX,
  type OrderDetail,
  type OrderSummary,
} from '@print-contracts/client';
import type { FixtureSpec } from '../plan/fixture-spec.js';
import type { TargetClients } from '../target/clients.js';
import type { CredentialRole } from '../target/target.js';
import { memo } from './memo.js';

/** At most this many listed orders are read in full to find a shipped or discounted line, a few at a time. */
const MAX_DETAILS = 20;
const DETAIL_CONCURRENCY = 4;

/** An order that has what a state asks (listed, or created), and how it was found. */
export interface ArrangedOrder {
  readonly id: number;
  readonly uuid: string | undefined;
  readonly how: string;
}

type Line = OrderDetail['lines'][number];

/** The lines a state may look for in a listed order, and how its state line says so. */
const LINES = {
  shipped: {
    has: (line: Line) =>
      line.status === 'shipped' &&
      (line.shipmentInfo ?? []).some((shipment) => shipment.trackAndTraceUrl.length > 0),
    what: ' (a shipped line with track-and-trace)',
  },
  discounted: { has: (line: Line) => line.customerDiscount !== null, what: ' (a discounted line)' },
};

/**
 * Orders the target already lists (first pages, read before the run creates anything, and the
 * orders a state looks into in full): read-only interactions use them instead of creating orders.
 */
export function listedOrders(clients: TargetClients, signal: AbortSignal) {
  const page = memo((role: CredentialRole, version: ApiVersion) =>
    clients
      .client(role, version)
      .listOrders({ limit: LIST_LIMIT_MAX }, { signal })
      .then((answer) => answer.orders),
  );
  /** One order in full; undefined when it breaks the client's schema (the read interactions will say so). */
  const detail = memo((role: CredentialRole, version: ApiVersion, id: number) =>
    clients
      .client(role, version)
      .getOrder(id, { signal })
      .catch((error: unknown) => {
        if (isResponseValidationError(error)) return undefined;
        throw error;
      }),
  );

  /** A listed order with what the spec wants (and a uuid when it needs one), or undefined. */
  async function find(
    spec: Extract<FixtureSpec, { kind: 'listed' }>,
    version: ApiVersion,
  ): Promise<ArrangedOrder | undefined> {
    const { credential: role, want, needsUuid } = spec;
    const candidates = (await page(role, version)).filter(
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
      return first && found(first, want.kind === 'status' ? ` (${want.status})` : '');
    }
    const { has, what } = LINES[want.kind];
    const pool = candidates.slice(0, MAX_DETAILS);
    for (let start = 0; start < pool.length; start += DETAIL_CONCURRENCY) {
      const batch = pool.slice(start, start + DETAIL_CONCURRENCY);
      const details = await Promise.all(batch.map((order) => detail(role, version, order.id)));
      const match = batch[details.findIndex((order) => order?.lines.some(has))];
      if (match) return found(match, what);
    }
    return undefined;
  }

  return { page, find };
}
