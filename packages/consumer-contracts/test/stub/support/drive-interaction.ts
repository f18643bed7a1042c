import { createServer, type IncomingHttpHeaders, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  API_BASE_PATH,
  type ApiVersion,
  DEFAULT_VERSION_HEADER,
  isHttpError,
  OPERATION_NAMES,
  type OperationName,
  OrdersClient,
  operations,
  SECRET_HEADER,
  USER_ID_HEADER,
} from '@print-contracts/client';
import { PLACEHOLDER_CREDENTIALS } from '@print-contracts/client/kit';
import { startCredentialStrippingProxy } from '../../../src/contract-pact.js';
import { STUB_STATE_HEADER, type StubRoute, stubRoutes } from '../../../src/index.js';
import { type PactFile, type PactInteraction, readPact } from '../../../src/pact-files.js';

/** Every HTTP interaction of the pacts, with how the stub's guide says to reach it. */
export interface StubCase {
  readonly pact: PactFile;
  readonly interaction: PactInteraction;
  readonly route: StubRoute;
}

export function stubCases(files: readonly string[]): StubCase[] {
  return files.flatMap((file) => {
    const pact = readPact(file);
    const routes = stubRoutes([pact]);
    const interactions = pact.interactions.filter((interaction) => interaction.type === 'Synchronous/HTTP');
    return interactions.map((interaction, index) => ({
      pact,
      interaction,
      route: routes[index] as StubRoute,
    }));
  });
}

/** What the stub answered, as it crossed the wire. */
export interface Recorded {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
}

const CASE_HEADER = 'x-test-case';

/**
 * A loopback proxy between the client and the stub that keeps each raw answer, keyed by the
 * case header the client sends: the client itself only hands back parsed bodies.
 */
export async function startRecorder(target: string) {
  const upstream = new URL(target);
  const answers = new Map<string, Recorded>();
  const server = createServer((incoming, outgoing) => {
    const key = String(incoming.headers[CASE_HEADER]);
    const { [CASE_HEADER]: _case, ...headers } = incoming.headers;
    const proxied = request(
      { host: upstream.hostname, port: upstream.port, method: incoming.method, path: incoming.url, headers },
      (answer) => {
        const chunks: Buffer[] = [];
        answer.on('data', (chunk: Buffer) => chunks.push(chunk));
        answer.on('end', () => {
          const body = Buffer.concat(chunks);
          answers.set(key, {
            status: answer.statusCode ?? 0,
            headers: answer.headers,
            body: body.toString(),
          });
          outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
          outgoing.end(body);
        });
      },
    );
    proxied.on('error', () => outgoing.writeHead(502).end());
    incoming.pipe(proxied);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    answers,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

const header = (interaction: PactInteraction, name: string) =>
  Object.entries(interaction.request.headers ?? {}).find(
    ([key]) => key.toLowerCase() === name.toLowerCase(),
  )?.[1]?.[0];

/** The operation of the client's table that sends `interaction`'s method and path. */
export function operationOf(interaction: PactInteraction): { name: OperationName; id?: string } {
  const { method, path } = interaction.request;
  for (const name of OPERATION_NAMES) {
    const operation = operations[name];
    if (operation.method !== method.toUpperCase()) continue;
    const template = `${API_BASE_PATH}${operation.path}`;
    if (!template.includes('{id}')) {
      if (path === template) return { name };
      continue;
    }
    const [before, after] = template.split('{id}') as [string, string];
    if (path.startsWith(before) && path.endsWith(after)) {
      const id = path.slice(before.length, path.length - after.length);
      if (id && !id.includes('/')) return { name, id: decodeURIComponent(id) };
    }
  }
  throw new Error(`No operation of the client sends ${method} ${path}`);
}

export interface Outcome {
  /** The raw answer on the wire. */
  recorded: Recorded;
  /** What the client made of it: its parsed body, or its error. */
  result: { ok: true; value: unknown } | { ok: false; error: unknown };
}

/** Sends interactions' requests to one stub with the kit's client; `close()` stops its proxies. */
export interface Driver {
  send(stubCase: StubCase, state: string | undefined): Promise<Outcome>;
  close(): Promise<void>;
}

/**
 * Drives the kit's client at the stub at `stubOrigin`: each interaction's request as the
 * contract has it (credentials, version header or none, query, body), naming `state` in the
 * stub's state header when given. Requests without credentials go through the suite's
 * credential-stripping proxy, since the client refuses to start without them.
 */
export async function driveStub(stubOrigin: string): Promise<Driver> {
  const recorder = await startRecorder(stubOrigin);
  const stripping = await startCredentialStrippingProxy(recorder.url);
  let sent = 0;
  return {
    async send({ interaction, pact }, state) {
      const key = String(++sent);
      const userId = header(interaction, USER_ID_HEADER);
      const secret = header(interaction, SECRET_HEADER);
      if ((userId === undefined) !== (secret === undefined)) {
        throw new Error(`"${interaction.description}" sends one credential header without the other`);
      }
      const accept = header(interaction, DEFAULT_VERSION_HEADER.name);
      const version = (/\b(v\d+)$/.exec(accept ?? pact.provider.name)?.[1] ?? 'v1') as ApiVersion;
      const client = new OrdersClient<ApiVersion>({
        baseUrl: `${userId === undefined ? stripping.url : recorder.url}${API_BASE_PATH}`,
        userId: userId ?? PLACEHOLDER_CREDENTIALS.userId,
        secret: secret ?? PLACEHOLDER_CREDENTIALS.secret,
        apiVersion: version,
        ...(accept === undefined ? { versionHeader: false as const } : {}),
        retry: { retries: 0 },
        headers: { [CASE_HEADER]: key, ...(state === undefined ? {} : { [STUB_STATE_HEADER]: state }) },
      });
      const { name, id } = operationOf(interaction);
      const query = Object.fromEntries(
        Object.entries(interaction.request.query ?? {}).map(([k, values]) => [k, values[0]]),
      );
      const body = interaction.request.body?.content;
      let result: Outcome['result'];
      try {
        const value = await client.send(
          name,
          {
            ...(id === undefined ? {} : { id }),
            ...(interaction.request.query ? { query } : {}),
            ...(body === undefined ? {} : { body }),
          } as never,
          { validate: false },
        );
        result = { ok: true, value };
      } catch (error) {
        result = { ok: false, error };
      } finally {
        await client.close();
      }
      const recorded = recorder.answers.get(key);
      if (!recorded)
        throw new Error(`The stub never answered "${interaction.description}"`, { cause: result });
      return { recorded, result };
    },
    async close() {
      await stripping.close();
      await recorder.close();
    },
  };
}

export const statusOf = (outcome: Outcome) =>
  outcome.result.ok
    ? outcome.recorded.status
    : isHttpError(outcome.result.error)
      ? outcome.result.error.status
      : undefined;
