import { type ApiVersion, isHttpError, operations, queryKeys } from '@print-contracts/client';
import { PROVIDER_STATES, UNKNOWN_ORDER_ID } from '@print-contracts/consumer-contracts/vocabulary';
import type { PlannedInteraction } from '../plan/plan.js';
import type { TargetClients } from '../target/clients.js';
import { unavailable } from './created-orders.js';

const SAMPLE_DATA =
  'a sample-data credential set may answer sample data whatever the request ("every endpoint answers with sample data")';

/**
 * What a sample-data credential set does with requests, found out rather than assumed: does
 * it answer an id no order has (then no refusal can be observed), does its list honour the
 * parameters sent? Only for `--mode sample`: a live target that ignores them broke the contract.
 */
export class SampleDataProbe {
  readonly #clients: TargetClients;
  readonly #signal: AbortSignal;
  readonly #anyId = new Map<ApiVersion, Promise<string | undefined>>();

  constructor(clients: TargetClients, signal: AbortSignal) {
    this.#clients = clients;
    this.#signal = signal;
  }

  /** Why the interaction cannot be verified on this sample-data set, if it cannot. */
  async limitation(planned: PlannedInteraction): Promise<string | undefined> {
    const { interaction } = planned;
    if (interaction.expects === 'refusal' && planned.credentials === 'real') {
      const noOrder = interaction.states.find((state) => state.name === PROVIDER_STATES.noOrderWithId.name);
      return this.#answersAnyId(planned.version, String(noOrder?.params.id ?? UNKNOWN_ORDER_ID));
    }
    if (
      interaction.method === 'GET' &&
      Object.keys(interaction.query).length > 0 &&
      interaction.expects === 'success'
    ) {
      return this.#ignoresQuery(planned);
    }
    return undefined;
  }

  #answersAnyId(version: ApiVersion, id: string): Promise<string | undefined> {
    let found = this.#anyId.get(version);
    if (!found) {
      found = this.#clients
        .client('main', version)
        .getOrder(id, { signal: this.#signal, validate: false })
        .then(
          () =>
            `this target answers GET /orders/${id}, an id no order has, with an order: ${SAMPLE_DATA}, so a refusal cannot be observed here`,
          (error: unknown) => {
            if (isHttpError(error) && error.status < 500 && error.status !== 429) return undefined;
            throw unavailable(error);
          },
        );
      this.#anyId.set(version, found);
    }
    return found;
  }

  /** Sends the list interaction's own query and checks the answer keeps what the parameters promise. */
  async #ignoresQuery(planned: PlannedInteraction): Promise<string | undefined> {
    const { query, states } = planned.interaction;
    const keys = queryKeys(operations.listOrders);
    const sent: Record<string, string | number> = {};
    for (const [key, [value]] of Object.entries(query)) {
      if (!keys.includes(key) || value === undefined) return undefined;
      sent[key] = /^\d+$/.test(value) ? Number(value) : value;
    }
    const page = await this.#clients
      .client('main', planned.version)
      .send('listOrders', { query: sent }, { signal: this.#signal, validate: false })
      .catch((error: unknown) => {
        throw unavailable(error);
      });
    const shown = Object.entries(sent)
      .map(([key, value]) => `${key}=${value}`)
      .join('&');
    const ignored = (what: string) => `this target ignores ${what} (GET /orders?${shown}): ${SAMPLE_DATA}`;
    if (typeof sent.status === 'string' && page.orders.some((order) => order.status !== sent.status)) {
      return ignored(`the status filter, answering orders of other statuses`);
    }
    if (typeof sent.limit === 'number' && page.orders.length > sent.limit) {
      return ignored(`the limit, answering ${page.orders.length} orders`);
    }
    const pastTheEnd = states.some((state) => state.name === PROVIDER_STATES.fewerOrdersThanOffset.name);
    if (pastTheEnd && page.orders.length > 0) {
      return ignored(`the offset, answering orders past the last one`);
    }
    return undefined;
  }
}
