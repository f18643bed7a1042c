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

  it('answers an Expect header other than 100-continue with 417 JSON, and closes the connection', async () => {
    const reply = await rawExchange(
      portOf(t),
      `POST /api/orders HTTP/1.1\r\nHost: x\r\nUser-ID: ${DEMO.userId}\r\nAPI-Secret: ${DEMO.secret}\r\nExpect: foo\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n`,
    );
    expect(reply).toMatch(/^HTTP\/1\.1 417 /);
    expect(reply).toMatch(/\r\ncontent-type: application\/json/i);
    expect(JSON.parse(reply.slice(reply.indexOf('\r\n\r\n') + 4))).toEqual({
      message: 'Expectation "foo" cannot be met: only 100-continue is supported',
    });
  });

  it('answers Expect: 100-continue with 100 Continue and then the answer to the request', async () => {
    const body = JSON.stringify(orderFor('v2'));
    const reply = await new Promise<string>((resolve, reject) => {
      const socket = connect(portOf(t), '127.0.0.1');
      let received = '';
      let sentBody = false;
      socket.on('data', (chunk) => {
        received += chunk.toString('latin1');
        if (!sentBody && received.startsWith('HTTP/1.1 100 Continue\r\n\r\n')) {
          sentBody = true;
          socket.write(body);
        }
      });
      socket.on('end', () => resolve(received));
      socket.on('error', reject);
      socket.write(
        `POST /api/orders HTTP/1.1\r\nHost: x\r\nUser-ID: ${DEMO.userId}\r\nAPI-Secret: ${DEMO.secret}\r\nAccept: application/vnd.printdeal-api.v2\r\nExpect: 100-continue\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n`,
      );
    });
    expect(reply).toMatch(/^HTTP\/1\.1 100 Continue\r\n\r\nHTTP\/1\.1 201 /);
    expect(JSON.parse(reply.slice(reply.lastIndexOf('\r\n\r\n') + 4))).toEqual({ uuid: expect.any(String) });
  });

  it('answers CONNECT with 405 JSON naming the methods it serves, and closes the connection', async () => {
    const reply = await rawExchange(
      portOf(t),
      'CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n',
    );
    expect(reply).toMatch(/^HTTP\/1\.1 405 /);
    expect(reply).toMatch(/\r\nallow: GET, POST, PUT, DELETE\r\n/i);
    expect(JSON.parse(reply.slice(reply.indexOf('\r\n\r\n') + 4))).toEqual({ message: expect.any(String) });
  });

  it('answers a request asking to upgrade the connection like any other, as JSON', async () => {
    const reply = await rawExchange(
      portOf(t),
      `GET /api/orders?limit=1 HTTP/1.1\r\nHost: x\r\nUser-ID: ${DEMO.userId}\r\nAPI-Secret: ${DEMO.secret}\r\nConnection: Upgrade, close\r\nUpgrade: websocket\r\n\r\n`,
    );
    expect(reply).toMatch(/^HTTP\/1\.1 200 /);
    expect(JSON.parse(reply.slice(reply.indexOf('\r\n\r\n') + 4))).toEqual(
      expect.objectContaining({ orders: expect.any(Array) }),
    );
  });
});

describe('the sample API closing', () => {
  it('ends a CONNECT connection the client keeps open, so close() never waits on it', async () => {
    const t = await startTestApi();
    const socket = connect({ port: portOf(t), host: '127.0.0.1', allowHalfOpen: true });
    socket.on('error', () => {});
    let received = '';
    socket.on('data', (chunk) => {
      received += chunk.toString('latin1');
    });
    socket.write('CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n');
    for (let waited = 0; !received.includes('\r\n\r\n') && waited < 10_000; waited += 10) {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    try {
      expect(received).toMatch(/^HTTP\/1\.1 405 /);
      await t.close();
    } finally {
      socket.destroy();
    }
  });
});
