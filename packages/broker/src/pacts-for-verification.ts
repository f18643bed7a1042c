import type { Dispatcher } from 'undici';
import { z } from 'zod';
import { type BrokerConnection, brokerJson } from './broker-request.js';
import { BrokerRequestError } from './errors/broker-request-error.js';

/** Which pacts to ask for: per provider, by consumer-version selectors. */
export interface PactsForVerificationQuery {
  readonly providers: readonly string[];
  readonly selectors: readonly Readonly<Record<string, unknown>>[];
  /** With a provider branch the broker also says which pacts are still pending for it. */
  readonly providerBranch: string | undefined;
  readonly timeoutMs: number;
}

/** One pact the broker chose: its URL, whether it is pending, and its JSON document, not yet checked. */
export interface PactForVerification {
  readonly url: string;
  readonly pending: boolean;
  readonly document: unknown;
}

const indexSchema = z.object({
  _links: z.object({ 'pb:provider-pacts-for-verification': z.object({ href: z.string() }) }).loose(),
});

const forVerificationSchema = z.object({
  _embedded: z.object({
    pacts: z.array(
      z.object({
        verificationProperties: z.object({ pending: z.boolean().optional() }).loose().optional(),
        _links: z.object({ self: z.object({ href: z.string() }) }).loose(),
      }),
    ),
  }),
});

/**
 * The pacts to verify, from the broker's "pacts for verification" API. Their URLs are the
 * ones a verifier publishing results fetches, so the broker links the results to them.
 * Throws `BrokerRequestError`, also when no pact matches.
 */
export async function fetchPactsForVerification(
  dispatcher: Dispatcher,
  broker: BrokerConnection,
  query: PactsForVerificationQuery,
): Promise<PactForVerification[]> {
  const { providers, selectors, providerBranch, timeoutMs } = query;
  const index = indexSchema.safeParse(await brokerJson(dispatcher, broker, `${broker.url}/`, { timeoutMs }));
  if (!index.success) {
    throw new BrokerRequestError(
      `${broker.url} does not look like a Pact Broker (no pacts-for-verification link)`,
    );
  }
  const template = index.data._links['pb:provider-pacts-for-verification'].href;
  const perProvider = await Promise.all(
    providers.map(async (provider) => {
      const url = template.replace('{provider}', encodeURIComponent(provider));
      const body = {
        consumerVersionSelectors: selectors,
        includePendingStatus: providerBranch !== undefined,
        ...(providerBranch ? { providerVersionBranch: providerBranch } : {}),
      };
      const answer = forVerificationSchema.safeParse(
        await brokerJson(dispatcher, broker, url, { method: 'POST', body, timeoutMs }),
      );
      if (!answer.success)
        throw new BrokerRequestError(`the Pact Broker's pacts for ${provider} are not in the expected shape`);
      return Promise.all(
        answer.data._embedded.pacts.map(async (entry) => ({
          url: entry._links.self.href,
          pending: entry.verificationProperties?.pending ?? false,
          document: await brokerJson(dispatcher, broker, entry._links.self.href, { timeoutMs }),
        })),
      );
    }),
  );
  const pacts = perProvider.flat();
  if (pacts.length === 0) {
    throw new BrokerRequestError(
      `the Pact Broker holds no pacts for ${providers.join(', ')} matching the selectors`,
    );
  }
  return pacts;
}
