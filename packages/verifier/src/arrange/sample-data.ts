import {
  type ApiVersion,
  LIST_LIMIT_MAX,
  ORDER_STATUSES,
  operations,
  queryKeys,
} from '@print-contracts/client';
import { canonicalJson, UNKNOWN_ORDER_ID } from '@print-contracts/client/kit';
import type { PlannedInteraction } from '../plan/plan.js';
import type { TargetClients } from '../target/clients.js';
import { memo } from './memo.js';
import { notHere } from './verdicts.js';

/** Two ids no order has, other than the one the pacts ask for: what they answer shows the target, not the interaction. */
const PROBE_IDS = [String(UNKNOWN_ORDER_ID - 1), String(UNKNOWN_ORDER_ID - 2)] as const;

type Json = Record<string, unknown>;
const ordersOf = (answer: unknown): Json[] => {
  const orders = (answer as Json | null)?.orders;
  return Array.isArray(orders) ? orders : [];
};

/**
 * On a sample-data set (`--mode sample` without `--control`) only: finds out whether the target
 * answers the same whatever the request asks, by requests that are not the interaction's own (the
 * list with and without each parameter; two ids no order has). Only an identical answer counts.
 * With `--control`, or live, nothing is excused: the replay judges.
 */
export function sampleDataProbe(clients: TargetClients, signal: AbortSignal) {
  // A probe only ever excuses: one that gets no usable answer shows nothing, and the replay judges.
  const NOT_SHOWN = Symbol('not shown');
  const list = (version: ApiVersion, query: Record<string, string | number>) =>
    clients
      .client('main', version)
      .sendUnchecked('listOrders', { query }, { signal, validate: false })
      .catch(() => NOT_SHOWN);

  /** The list parameters this target ignores, each with what showed it. */
  const ignoredParameters = memo(async (version: ApiVersion): Promise<ReadonlyMap<string, string>> => {
    const plain = await list(version, {});
    const orders = plain === NOT_SHOWN ? [] : ordersOf(plain);
    const same = (answer: unknown) => answer !== NOT_SHOWN && canonicalJson(answer) === canonicalJson(plain);
    const ignored = new Map<string, string>();
    if (orders.length === 0) return ignored;
    const otherStatus = ORDER_STATUSES.find((status) => orders.some((order) => order.status !== status));
    const probes: [string, Record<string, string | number>, boolean][] = [
      ['offset', { offset: LIST_LIMIT_MAX }, true],
      ['limit', { limit: 1 }, orders.length > 1],
      ['status', { status: otherStatus ?? 'unknown' }, otherStatus !== undefined],
    ];
    for (const [key, query, telling] of probes) {
      if (!telling) continue;
      const shown = Object.entries(query).map(([name, value]) => `${name}=${value}`);
      if (same(await list(version, query))) {
        ignored.set(
          key,
          `GET /orders?${shown.join('&')} answered the same ${orders.length} orders as GET /orders`,
        );
      }
    }
    return ignored;
  });

  /** What showed that the target answers an order for ids no order has, or undefined when it refuses them. */
  const answersAnyId = memo(async (version: ApiVersion): Promise<string | undefined> => {
    const answers: unknown[] = [];
    for (const id of PROBE_IDS) {
      try {
        answers.push(
          await clients
            .client('main', version)
            .sendUnchecked('getOrder', { id }, { signal, validate: false }),
        );
      } catch {
        // Refused (as the docs say), or no usable answer: nothing shown either way.
        return undefined;
      }
    }
    const [first, second] = answers.map((answer) => canonicalJson(answer));
    return first === second
      ? `GET /orders/${PROBE_IDS[0]} and GET /orders/${PROBE_IDS[1]}, ids no order has, answered the same order`
      : undefined;
  });

  /** Throws the closed-list reason when the interaction cannot be verified on this sample-data set. */
  return async (planned: PlannedInteraction): Promise<void> => {
    const { interaction, version } = planned;
    if (interaction.expects === 'refusal' && planned.credentials === 'real') {
      const seen = await answersAnyId(version);
      if (seen) throw notHere('sample-data-ignores-request', `${seen}, so no refusal can be observed`);
    } else if (interaction.method === 'GET' && Object.keys(interaction.query).length > 0) {
      const keys = queryKeys(operations.listOrders);
      const sent = Object.keys(interaction.query).filter((key) => keys.includes(key));
      const ignored = await ignoredParameters(version);
      const shown = sent.flatMap((key) => ignored.get(key) ?? []);
      if (shown.length > 0) throw notHere('sample-data-ignores-request', shown.join('; '));
    }
  };
}
