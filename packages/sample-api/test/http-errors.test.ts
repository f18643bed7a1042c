import { connect } from 'node:net';
import { Readable } from 'node:stream';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { orderFor } from './helpers/orders.js';
import { apiHeaders, DEMO, JSON_BODY, startTestApi, type TestApi } from './helpers/sample-api.js';

const portOf = (t: TestApi) => Number(new URL(t.api.origin).port);

/** Sends raw bytes and collects whatever comes back until the server closes. */
function rawExchange(port: number, bytes: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let received = '';
    socket.on('data', (chunk) => {
      received += chunk.toString('latin1');
    });
    socket.on('end', () => resolve(received));
    socket.on('error', reject);
    socket.write(bytes);
  });
}

const expectJsonError = (answer: { json: unknown; headers: Record<string, unknown> }) => {
  expect(answer.headers['content-type']).toMatch(/^application\/json/);
  expect(answer.json).toEqual(expect.objectContaining({ message: expect.any(String) }));
  expect(JSON.stringify(answer.json)).not.toMatch(/\bat .+\.(js|ts):\d+/);
};

describe('the sample API refuses bad HTTP with its own clear 4xx', () => {
  let t: TestApi;
  beforeAll(async () => {
    t = await startTestApi({ processingDelayMs: 0, bodyLimitBytes: 4_096 });
  });
  afterAll(() => t.close());

  it.each([
    ['{"invoiceAddress": ', 'truncated JSON'],
    ["{'single': 'quotes'}", 'single quotes'],
    ['not json at all', 'plain text'],
  ])('answers malformed JSON (%s) with 400', async (body) => {
    const answer = await t.raw({ method: 'POST', path: '/api/orders', headers: JSON_BODY, body });
    expect(answer.status).toBe(400);
    expect((answer.json as { message: string }).message).toMatch(/^Malformed JSON body/);
    expectJsonError(answer);
  });

  it.each([
    ['text/plain', { 'content-type': 'text/plain' }],
    ['form data', { 'content-type': 'application/x-www-form-urlencoded' }],
    ['no content type', {}],
  ])("reads a JSON body sent as %s, as the docs' PHP examples send it", async (_name, headers) => {
    const answer = await t.raw({
      method: 'POST',
      path: '/api/orders',
      headers,
      body: JSON.stringify(orderFor('v1')),
    });
    expect(answer.status).toBe(201);
    expect(answer.json).toEqual({ uuid: expect.any(String) });
  });

  it('accepts a JSON content type with a charset and a +json type', async () => {
    for (const type of ['application/json; charset=utf-8', 'application/vnd.printdeal-api+json']) {
      const answer = await t.raw({
        method: 'POST',
        path: '/api/orders',
        headers: { 'content-type': type },
        body: JSON.stringify(orderFor('v1')),
      });
      expect(answer.status).toBe(201);
    }
  });

  it('answers a body over the size limit with 413, announced or chunked, and keeps serving', async () => {
    const big = JSON.stringify({ ...orderFor('v1'), reference: 'x'.repeat(10_000) });
    const announced = await t.raw({ method: 'POST', path: '/api/orders', headers: JSON_BODY, body: big });
    expect(announced.status).toBe(413);
    expectJsonError(announced);
    const chunks = Readable.from(Array.from({ length: 10 }, () => Buffer.from('x'.repeat(1_000))));
    const chunked = await request(`${t.api.url}/orders`, {
      method: 'POST',
      headers: { ...apiHeaders(), ...JSON_BODY },
      body: chunks,
    });
    expect(chunked.statusCode).toBe(413);
    await chunked.body.text();
    expect((await t.raw({ path: '/api/orders' })).status).toBe(200);
  });

  it.each([['/api/invoices'], ['/api/orders/1/lines'], ['/api/orders/'], ['/api']])(
    'answers the unknown route %s with 404',
    async (path) => {
      const answer = await t.raw({ path });
      expect(answer.status).toBe(404);
      expectJsonError(answer);
    },
  );

  it('answers a path outside /api with 404 JSON, credentials or not', async () => {
    for (const credentials of [undefined, false] as const) {
      const answer = await t.raw({ path: '/favicon.ico', credentials });
      expect(answer.status).toBe(404);
      expectJsonError(answer);
    }
  });

  it.each([
    ['PATCH', '/api/orders/1000001', 'GET, PUT, POST, DELETE'],
    ['DELETE', '/api/orders', 'GET, POST'],
    ['PUT', '/api/orders', 'GET, POST'],
    ['OPTIONS', '/api/orders', 'GET, POST'],
  ])('answers %s %s with 405 and Allow: %s', async (method, path, allow) => {
    const answer = await t.raw({ method, path });
    expect(answer.status).toBe(405);
    expect(answer.headers.allow).toBe(allow);
    expectJsonError(answer);
  });

  it.each([
    ['a word', 'abc'],
    ['zero', '0'],
    ['a negative number', '-5'],
    ['a malformed escape', '%E0%A4%A'],
    ['a too-short uuid', '1f2a3b4c-5d6e-4f70-8a91'],
  ])('answers an order id that is %s with 404 "Order not found"', async (_name, id) => {
    const answer = await t.raw({ path: `/api/orders/${id}` });
    expect([answer.status, answer.json]).toEqual([
      404,
      expect.objectContaining({ message: 'Order not found' }),
    ]);
  });

  it('answers a request node:http cannot parse with 400 JSON', async () => {
    const reply = await rawExchange(portOf(t), 'GARBAGE /api/orders HTTP/1.1\r\n\r\n');
    expect(reply).toMatch(/^HTTP\/1\.1 400 /);
    expect(JSON.parse(reply.slice(reply.indexOf('\r\n\r\n') + 4))).toEqual({ message: expect.any(String) });
  });

  it('answers a request target in absolute form like the same path', async () => {
    const reply = await rawExchange(
      portOf(t),
      `GET ${t.api.origin}/api/orders?limit=1 HTTP/1.1\r\nHost: x\r\nUser-ID: ${DEMO.userId}\r\nAPI-Secret: ${DEMO.secret}\r\nConnection: close\r\n\r\n`,
    );
    expect(reply).toMatch(/^HTTP\/1\.1 200 /);
  });
});
