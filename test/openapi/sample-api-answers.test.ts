import {
  API_BASE_PATH,
  API_VERSIONS,
  type ApiVersion,
  DEFAULT_VERSION_HEADER,
  exampleOrder,
  OPERATION_NAMES,
  type OperationName,
  operations,
  pathPattern,
  SECRET_HEADER,
  USER_ID_HEADER,
  versionHeaderValue,
} from '@print-contracts/client';
import { buildOpenApiDocuments, comparePact } from '@print-contracts/openapi';
import {
  CONTROL_BASE_PATH,
  DEMO_CREDENTIALS,
  type SampleApi,
  startSampleApi,
} from '@print-contracts/sample-api';
import { Agent, request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/** One recorded exchange, written as a pact interaction so PactFlow's comparator can check it. */
interface Exchange {
  description: string;
  request: { method: string; path: string; query?: string; headers: Record<string, string>; body?: unknown };
  response: { status: number; headers: Record<string, string>; body?: unknown };
}

interface Send {
  method?: string;
  path: string;
  query?: string;
  body?: unknown;
  credentials?: boolean;
}

const [DEMO] = DEMO_CREDENTIALS;

/**
 * Drives the sample API over loopback in one version and records every exchange. Only the
 * answer's Content-Type is kept of its headers: the document describes bodies and media
 * types, not transport headers such as Date or Keep-Alive.
 */
class Recorder {
  readonly exchanges: Exchange[] = [];

  constructor(
    private readonly api: SampleApi,
    readonly version: ApiVersion,
    private readonly dispatcher: Agent,
  ) {}

  async send(description: string, { method = 'GET', path, query, body, credentials = true }: Send) {
    const headers: Record<string, string> = {
      [DEFAULT_VERSION_HEADER.name]: versionHeaderValue(this.version),
      ...(credentials && DEMO ? { [USER_ID_HEADER]: DEMO.userId, [SECRET_HEADER]: DEMO.secret } : {}),
      ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
    };
    const target = `${API_BASE_PATH}${path}${query ? `?${query}` : ''}`;
    const response = await request(`${this.api.origin}${target}`, {
      method: method as 'GET',
      headers,
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      dispatcher: this.dispatcher,
    });
    const text = await response.body.text();
    const contentType = response.headers['content-type'];
    const parsed: unknown = text ? JSON.parse(text) : undefined;
    this.exchanges.push({
      description,
      request: {
        method,
        path: `${API_BASE_PATH}${path}`,
        ...(query ? { query } : {}),
        headers,
        ...(body === undefined ? {} : { body }),
      },
      response: {
        status: response.statusCode,
        headers: typeof contentType === 'string' ? { 'Content-Type': contentType } : {},
        ...(parsed === undefined ? {} : { body: parsed }),
      },
    });
    return { status: response.statusCode, body: parsed as Record<string, unknown> };
  }

  /** Puts an order into `state` through the sample API's control surface (not part of the API). */
  async setState(id: unknown, state: string) {
    const response = await request(`${this.api.origin}${CONTROL_BASE_PATH}/orders/${String(id)}/state`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ state }),
      dispatcher: this.dispatcher,
    });
    await response.body.text();
    expect(response.statusCode).toBe(200);
  }

  /** Creates a test order and reads it back once created: `{ id, uuid }`. */
  async createdOrder(label: string) {
    const created = await this.send(`create ${label}`, {
      method: 'POST',
      path: '/orders',
      body: exampleOrder(this.version, { testOrder: true, reference: label }),
    });
    const uuid = String(created.body.uuid);
    const read = await this.send(`read ${label} by uuid`, { path: `/orders/${uuid}` });
    expect(read.status).toBe(200);
    return { id: read.body.id, uuid };
  }
}

/** Every operation, its success and each refusal the kit knows, in one version. */
async function exercise(recorder: Recorder) {
  await recorder.send('list a page', { path: '/orders', query: 'limit=5&offset=0' });
  await recorder.send('list by status', { path: '/orders', query: 'status=in-progress' });
  await recorder.send('list without credentials', { path: '/orders', credentials: false });
  await recorder.send('create an invalid order', {
    method: 'POST',
    path: '/orders',
    body: { orderLines: [] },
  });

  const order = await recorder.createdOrder('updated then cancelled');
  await recorder.send('read by id', { path: `/orders/${String(order.id)}` });
  await recorder.send('read an unknown order', { path: '/orders/999999999' });
  await recorder.send('update with PUT', {
    method: 'PUT',
    path: `/orders/${String(order.id)}`,
    body: { reference: 'Second run' },
  });
  await recorder.send('update with POST', {
    method: 'POST',
    path: `/orders/${order.uuid}`,
    body: { poNumber: 'PO-7' },
  });
  await recorder.send('update the invoice address', {
    method: 'PUT',
    path: `/orders/${String(order.id)}`,
    body: { invoiceAddress: exampleOrder(recorder.version).invoiceAddress },
  });
  await recorder.send('update an unknown order', {
    method: 'PUT',
    path: '/orders/999999999',
    body: { reference: 'Nobody' },
  });
  await recorder.send('update an unknown order with POST', {
    method: 'POST',
    path: '/orders/999999999',
    body: { reference: 'Nobody' },
  });
  await recorder.send('cancel', {
    method: 'DELETE',
    path: `/orders/${String(order.id)}`,
    body: { reason: 'Test' },
  });
  await recorder.send('cancel an unknown order', {
    method: 'DELETE',
    path: '/orders/999999999',
    body: { reason: 'x' },
  });

  const inProduction = await recorder.createdOrder('in production');
  await recorder.setState(inProduction.id, 'in-production');
  await recorder.send('cancel an order in production', {
    method: 'DELETE',
    path: `/orders/${String(inProduction.id)}`,
    body: { reason: 'Too late' },
  });

  const failed = await recorder.createdOrder('whose creation fails');
  await recorder.setState(failed.uuid, 'creation-failed');
  await recorder.send('read an order whose creation failed', { path: `/orders/${failed.uuid}` });
}

/** The operation an exchange belongs to, by method and path template. */
function operationOf(exchange: Exchange): OperationName | undefined {
  return OPERATION_NAMES.find((name) => {
    const operation = operations[name];
    return (
      operation.method === exchange.request.method &&
      pathPattern(operation.path, API_BASE_PATH).test(exchange.request.path)
    );
  });
}

describe("the sample API's answers", () => {
  let api: SampleApi;
  let dispatcher: Agent;
  const documents = buildOpenApiDocuments();
  const recorded = new Map<ApiVersion, Exchange[]>();

  beforeAll(async () => {
    api = await startSampleApi({ processingDelayMs: 0, control: true });
    dispatcher = new Agent({ keepAliveTimeout: 1_000 });
    for (const version of API_VERSIONS) {
      const recorder = new Recorder(api, version, dispatcher);
      await exercise(recorder);
      recorded.set(version, recorder.exchanges);
    }
  });

  afterAll(async () => {
    await dispatcher?.close();
    await api?.close();
  });

  it.each(API_VERSIONS)('cover every operation of %s with a success and a refusal', (version) => {
    const exchanges = recorded.get(version) ?? [];
    for (const name of OPERATION_NAMES.filter((candidate) =>
      operations[candidate].versions.includes(version),
    )) {
      const statuses = exchanges
        .filter((exchange) => operationOf(exchange) === name)
        .map((e) => e.response.status);
      expect(
        statuses.some((status) => status >= 200 && status < 300),
        name,
      ).toBe(true);
      expect(
        statuses.some((status) => status >= 400),
        name,
      ).toBe(true);
    }
  });

  it.each(API_VERSIONS)(
    'in %s validate against that version’s document, status, media type and body',
    async (version) => {
      const document = documents.get(version);
      if (!document) throw new Error(`No document for ${version}`);
      const exchanges = recorded.get(version) ?? [];
      const pact = { metadata: { pactSpecification: { version: '3.0.0' } }, interactions: exchanges };
      const findings = await comparePact(document, pact);
      expect(
        findings.map((finding) => `${finding.code} "${finding.interaction}": ${finding.message}`),
      ).toEqual([]);
      expect(exchanges.map((exchange) => exchange.response.status)).toEqual(
        expect.arrayContaining([200, 201, 400, 401, 404, 500]),
      );
    },
  );
});
