import {
  type ApiVersion,
  createOrdersClient,
  type OrdersClient,
  type OrdersClientOptions,
  SECRET_HEADER,
  USER_ID_HEADER,
  versionHeaderValue,
} from '@print-contracts/client';
import { Agent, request } from 'undici';
import { type CredentialSet, DEMO_CREDENTIALS, type SampleApi, startSampleApi } from '../../src/index.js';
import type { SampleApiOptions } from '../../src/options.js';

/** What a raw exchange with the sample API gave back. */
export interface RawAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  /** The parsed body; throws in the test when the answer was not JSON. */
  json: unknown;
}

export interface RawRequest {
  method?: string;
  path: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
  /** Default: the first demo set. `false` sends no credential headers. */
  credentials?: CredentialSet | false;
  version?: ApiVersion;
}

/** A started sample API plus helpers that talk to it over real sockets; `close()` ends it all. */
export interface TestApi {
  api: SampleApi;
  client<V extends ApiVersion>(
    version: V,
    credentials?: CredentialSet,
    options?: Partial<OrdersClientOptions<V>>,
  ): OrdersClient<V>;
  raw(request: RawRequest): Promise<RawAnswer>;
  close(): Promise<void>;
}

export const [DEMO, OTHER] = DEMO_CREDENTIALS as [CredentialSet, CredentialSet];

/** Credential headers and, when given, the version header, as the vendor expects them. */
export function apiHeaders(
  credentials: CredentialSet | false = DEMO,
  version?: ApiVersion,
): Record<string, string> {
  return {
    ...(credentials ? { [USER_ID_HEADER]: credentials.userId, [SECRET_HEADER]: credentials.secret } : {}),
    ...(version ? { accept: versionHeaderValue(version) } : {}),
  };
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new Error(`Expected a JSON answer, got: ${text.slice(0, 200)}`);
  }
}

/** Starts a sample API on 127.0.0.1 and an ephemeral port. */
export async function startTestApi(options: SampleApiOptions = {}): Promise<TestApi> {
  const api = await startSampleApi(options);
  const dispatcher = new Agent({ keepAliveTimeout: 1_000 });
  const clients: OrdersClient<ApiVersion>[] = [];
  return {
    api,
    client(version, credentials = DEMO, extra = {}) {
      const client = createOrdersClient({
        baseUrl: api.url,
        userId: credentials.userId,
        secret: credentials.secret,
        apiVersion: version,
        retry: { retries: 0 },
        dispatcher,
        ...extra,
      });
      clients.push(client as OrdersClient<ApiVersion>);
      return client;
    },
    async raw({ method = 'GET', path, headers = {}, body, credentials = DEMO, version }) {
      const response = await request(`${api.origin}${path}`, {
        method: method as 'GET',
        headers: { ...apiHeaders(credentials, version), ...headers },
        body,
        dispatcher,
      });
      const text = await response.body.text();
      return {
        status: response.statusCode,
        headers: response.headers,
        text,
        get json() {
          return parseJson(text);
        },
      };
    },
    async close() {
      await Promise.all(clients.map((client) => client.close()));
      await api.close();
      await dispatcher.close();
    },
  };
}

/** JSON request headers for a body. */
export const JSON_BODY = { 'content-type': 'application/json' } as const;
