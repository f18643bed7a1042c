import type { ApiVersion } from '@print-contracts/client';
import { providerName } from '@print-contracts/client/kit';
import type { Dispatcher } from 'undici';
import { z } from 'zod';
import { BrokerError } from '../errors/index.js';
import type { BrokerOptions } from '../options/verify-options.js';
import type { LoadedPact } from '../pacts/interaction.js';
import { parsePact } from '../pacts/load-pacts.js';
import type { Transport } from '../target/transport.js';
import { brokerJson } from './broker-request.js';

const indexSchema = z.object({
  _links: z.object({ 'pb:provider-pacts-for-verification': z.object({ href: z.string() }) }).loose(),
});

const forVerificationSchema = z.object({
  _embedded: z.object({
    pacts: z.array(
      z.object({
        /** Why the broker picked it: `latest from main`, `deployed to production`. */
        shortDescription: z.string().optional(),
        verificationProperties: z.object({ pending: z.boolean().optional() }).loose().optional(),
        _links: z.object({ self: z.object({ href: z.string() }) }).loose(),
      }),
    ),
  }),
});

/**
 * The pacts to verify per provider (API version), from the broker's "pacts for verification"
 * API by consumer-version selectors. Their URLs are the ones Pact's verifier fetches itself
 * when publishing, so the broker links the results to them. Throws `BrokerError`, also when no
 * pact matches.
 */
export async function fetchBrokerPacts(
  dispatcher: Dispatcher,
  broker: BrokerOptions,
  versions: readonly ApiVersion[],
  request: { timeoutMs: number; transport: Transport; signal?: AbortSignal },
): Promise<LoadedPact[]> {
  const { selectors, providerBranch } = broker;
  const providers = versions.map((version) => providerName(version));
  const index = indexSchema.safeParse(await brokerJson(dispatcher, broker, `${broker.url}/`, request));
  if (!index.success) {
    throw new BrokerError(`${broker.url} does not look like a Pact Broker (no pacts-for-verification link)`);
  }
  const template = index.data._links['pb:provider-pacts-for-verification'].href;
  const body = {
    consumerVersionSelectors: selectors,
    includePendingStatus: providerBranch !== undefined,
    ...(providerBranch ? { providerVersionBranch: providerBranch } : {}),
  };
  const perProvider = await Promise.all(
    providers.map(async (provider) => {
      const url = template.replace('{provider}', encodeURIComponent(provider));
      const answer = forVerificationSchema.safeParse(
        await brokerJson(dispatcher, broker, url, { ...request, method: 'POST', body }),
      );
      if (!answer.success) {
        throw new BrokerError(`the Pact Broker's pacts for ${provider} are not in the expected shape`);
      }
      return Promise.all(
        answer.data._embedded.pacts.map(async (entry) => {
          const pactUrl = entry._links.self.href;
          const pending = entry.verificationProperties?.pending ?? false;
          const document = await brokerJson(dispatcher, broker, pactUrl, request);
          const source = { kind: 'broker', url: pactUrl, pending, picked: entry.shortDescription } as const;
          return parsePact(JSON.stringify(document), pactUrl, source);
        }),
      );
    }),
  );
  const pacts = perProvider.flat();
  if (pacts.length === 0) {
    throw new BrokerError(
      `the Pact Broker holds no pacts for ${providers.join(', ')} matching the selectors`,
    );
  }
  return pacts;
}
