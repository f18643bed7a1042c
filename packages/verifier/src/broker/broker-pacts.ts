import { fetchPactsForVerification, isBrokerRequestError } from '@print-contracts/broker';
import type { ApiVersion } from '@print-contracts/client';
import { providerName } from '@print-contracts/client';
import type { Dispatcher } from 'undici';
import { BrokerError } from '../errors/broker-error.js';
import type { BrokerOptions } from '../options/verify-options.js';
import type { LoadedPact } from '../pacts/interaction.js';
import { parsePact } from '../pacts/load-pacts.js';

/**
 * The pacts to verify per provider (API version), fetched by `@print-contracts/broker` by
 * consumer-version selectors. When publishing, Pact's verifier fetches the same URLs itself.
 */
export async function fetchBrokerPacts(
  dispatcher: Dispatcher,
  broker: BrokerOptions,
  versions: readonly ApiVersion[],
  timeoutMs: number,
): Promise<LoadedPact[]> {
  const { selectors, providerBranch } = broker;
  const providers = versions.map((version) => providerName(version));
  const pacts = await fetchPactsForVerification(dispatcher, broker, {
    providers,
    selectors,
    providerBranch,
    timeoutMs,
  }).catch((error: unknown) => {
    throw isBrokerRequestError(error) ? new BrokerError(error.message, { cause: error }) : error;
  });
  return pacts.map(({ url, pending, document }) =>
    parsePact(JSON.stringify(document), url, { kind: 'broker', url, pending }),
  );
}
