import {
  type ApiVersion,
  operations,
  PROVIDER_STATES,
  queryKeys,
  UNKNOWN_ORDER_ID,
} from '@print-contracts/client';
import type { PlannedInteraction } from '../plan/plan.js';
import type { TargetClients } from '../target/clients.js';
import { memo } from './memo.js';
import { isRefusal, notHere } from './verdicts.js';

const SAMPLE_DATA =
  'a sample-data credential set may answer sample data whatever the request ("every endpoint answers with sample data")';

/**
 * Finds out whether a sample-data credential set answers an id no order has, and whether its list honours
 * the parameters sent. Only for `--mode sample`: a live target that ignores them broke the contract.
 */
export function sampleDataProbe(clients: TargetClients, signal: AbortSignal) {
  const refusesUnknownId = memo((version: ApiVersion, id: string) =>
    clients
      .client('main', version)
      .getOrder(id, { signal, validate: false })
      .then(
        () => {
          throw notHere(
            `this target answers GET /orders/${id}, an id no order has, with an order: ${SAMPLE_DATA}, so a refusal cannot be observed here`,
          );
        },
        (error: unknown) => {
          if (!isRefusal(error)) throw error;
        },
      ),
  );

  /** Sends the list interaction's own query and checks the answer keeps what the parameters promise. */
  async function honoursQuery(planned: PlannedInteraction): Promise<void> {
    const { query, states } = planned.interaction;
    const keys = queryKeys(operations.listOrders);
    const sent: Record<string, string | number> = {};
    for (const [key, [value]] of Object.entries(query)) {
      if (!keys.includes(key) || value === undefined) return;
      sent[key] = /^\d+$/.test(value) ? Number(value) : value;
    }
    const page = await clients
      .client('main', planned.version)
      .send('listOrders', { query: sent }, { signal, validate: false });
    const shown = Object.entries(sent)
      .map(([key, value]) => `${key}=${value}`)
      .join('&');
    const ignores = (what: string) =>
      notHere(`this target ignores ${what} (GET /orders?${shown}): ${SAMPLE_DATA}`);
    if (typeof sent.status === 'string' && page.orders.some((order) => order.status !== sent.status)) {
      throw ignores('the status filter, answering orders of other statuses');
    }
    if (typeof sent.limit === 'number' && page.orders.length > sent.limit) {
      throw ignores(`the limit, answering ${page.orders.length} orders`);
    }
    const pastTheEnd = states.some((state) => state.name === PROVIDER_STATES.fewerOrdersThanOffset.name);
    if (pastTheEnd && page.orders.length > 0) throw ignores('the offset, answering orders past the last one');
  }

  /** Throws why the interaction cannot be verified on this sample-data set (or the client's error). */
  return async (planned: PlannedInteraction): Promise<void> => {
    const { interaction, version } = planned;
    if (interaction.expects === 'refusal' && planned.credentials === 'real') {
      const noOrder = interaction.states.find((state) => state.name === PROVIDER_STATES.noOrderWithId.name);
      await refusesUnknownId(version, String(noOrder?.params.id ?? UNKNOWN_ORDER_ID));
    } else if (
      interaction.method === 'GET' &&
      Object.keys(interaction.query).length > 0 &&
      interaction.expects === 'success'
    ) {
      await honoursQuery(planned);
    }
  };
}
