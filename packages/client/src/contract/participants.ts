import type { ApiVersion } from '../vendor.js';

/** Pact participants: one provider per API version, so each version has its own pact file and verdict. */
export const CONSUMER_NAME = 'print-order-client';

export const providerName = (version: ApiVersion) => `print-order-api-${version}` as const;

/** File name Pact gives the pact between the consumer and the provider of `version`. */
export const pactFileName = (version: ApiVersion) => `${CONSUMER_NAME}-${providerName(version)}.json`;
