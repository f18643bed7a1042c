import { createServer } from 'node:net';
import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import {
  ConfigurationError,
  ENV,
  isPrintOrderError,
  OrdersClient,
  type OrdersClientOptions,
} from '../src/index.js';
import { REDACTED, redact, redactor, secretForms } from '../src/kit.js';
import { createBodies, ORDER_ID, ORDER_UUID, SECRET, USER_ID } from './support/fixtures.js';
import {
  type Handler,
  neverAnswer,
  type TestClientOptions,
  useScriptedServer,
} from './support/scripted-server.js';

const api = useScriptedServer();

/**
 * The fixture's distinctive secret, and one holding the characters JSON and `util.inspect`
 * escape, so a leak in an escaped form is caught too.
 */
const secrets = [
  { kind: 'a plain secret', secret: SECRET },
  { kind: 'a secret with quotes and backslashes', secret: 'sk_live_"quoted"\\back\\slash-91ab' },
];

/** Every form in which `secret` could show up in a string: as is, JSON-escaped, inspect-escaped. */
function leaks(text: string, secret: string): boolean {
  const forms = [
    secret,
    JSON.stringify(secret).slice(1, -1),
    inspect(secret).slice(1, -1),
    Buffer.from(secret).toString('base64').replace(/=+$/, ''),
    encodeURIComponent(secret).replace(/%[0-9A-F]{2}/g, (hex) => hex.toLowerCase()),
  ];
  return forms.some((form) => text.includes(form));
}

/** Own properties, enumerable or not, at any depth; Buffers as text so raw bytes are read too. */
function ownProperties(value: unknown, seen = new Set<unknown>()): unknown {
  if (value === null || typeof value !== 'object') return typeof value === 'function' ? '[function]' : value;
  if (seen.has(value)) return '[circular]';
  seen.add(value);
  if (Buffer.isBuffer(value)) return value.toString('latin1');
  if (Array.isArray(value)) return value.map((item) => ownProperties(item, seen));
  return Object.fromEntries(
    Object.getOwnPropertyNames(value).map((key) => [
      key,
      ownProperties((value as Record<string, unknown>)[key], seen),
    ]),
  );
}

/** Each way the secret could escape a thrown value. */
function renderings(error: unknown): Record<string, string> {
  const asError = error as Error;
  return {
    message: String(asError.message),
    string: String(error),
    stack: String(asError.stack),
    inspect: inspect(error, { depth: Number.POSITIVE_INFINITY, showHidden: true }),
    ownProperties: JSON.stringify(ownProperties(error)),
  };
}

/** Answers with the secret it was sent echoed in its status line, a header and `body(secret)`. */
function echo(
  status: number,
  body: (secret: string) => unknown,
  extraHeaders: Record<string, string> = {},
): Handler {
  return (request, response) => {
    const secret = String(request.headers['api-secret']);
    const payload = body(secret);
    const text = typeof payload === 'string' ? payload : JSON.stringify(payload);
    response.writeHead(status, `Denied for ${secret}`, {
      'content-type': typeof payload === 'string' ? 'text/plain' : 'application/json',
      'x-echo-secret': secret,
      'www-authenticate': `Secret realm="${secret}"`,
      ...extraHeaders,
    });
    response.end(text);
  };
}

/** Writes a raw answer built from the secret the request carried. */
function rawEcho(answer: (secret: string) => string): Handler {
  return (request, _response, raw) => raw.socket.end(answer(String(request.headers['api-secret'])));
}

async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

interface Scenario {
  what: string;
  /** Run for the first secret only: it echoes nothing, and undici's timeouts take a second. */
  once?: boolean;
  handler?: Handler;
  options?: TestClientOptions<'v2'>;
  call: (client: OrdersClient, secret: string) => Promise<unknown>;
}

const scenarios: Scenario[] = [
  {
    what: 'an HttpError whose JSON body echoes the secret in its message, fields and keys',
    handler: echo(401, (secret) => ({
      message: `Unknown secret ${secret}`,
      error: secret,
      received: { headers: { 'api-secret': secret }, list: [secret] },
      [secret]: 'as a key',
    })),
    call: (client) => client.getOrder(ORDER_ID),
  },
  {
    what: 'an HttpError whose text body echoes the secret',
    handler: echo(500, (secret) => `Internal error while checking API-Secret: ${secret}`),
    call: (client) => client.createOrder(createBodies.v2),
  },
  {
    what: 'an HttpError after retries of a 503 that echoes the secret',
    handler: echo(503, (secret) => ({ message: secret }), { 'retry-after': '0' }),
    // Throttling is waited out for as long as the budget lasts: a short one ends the retries.
    options: { retry: { budgetMs: 300 } },
    call: (client) => client.listOrders(),
  },
  {
    what: 'an HttpError of a cancel refused with the secret echoed',
    handler: echo(500, (secret) => ({ message: 'Cancel order failed', secret })),
    call: (client) => client.cancelOrder(ORDER_ID, 'duplicate'),
  },
  {
    what: 'a ResponseValidationError of a 200 whose body echoes the secret where numbers belong',
    handler: echo(200, (secret) => ({ count: secret, orders: [{ id: secret, [secret]: secret }] })),
    call: (client) => client.listOrders(),
  },
  {
    what: 'a ResponseValidationError of a 200 that is not JSON and echoes the secret',
    handler: echo(200, (secret) => `<html>${secret}</html>`),
    call: (client) => client.getOrder(ORDER_ID),
  },
  {
    what: 'a TransportError of a timeout',
    once: true,
    handler: neverAnswer,
    options: { timeoutMs: 150, retry: { retries: 0 } },
    call: (client) => client.getOrder(ORDER_ID),
  },
  {
    what: 'a TransportError of a reset after a half-sent body echoing the secret',
    handler: rawEcho(
      (secret) =>
        `HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: 900\r\n\r\n{"m":"${secret}`,
    ),
    call: (client) => client.getOrder(ORDER_ID),
  },
  {
    what: 'a TransportError of an unparsable answer whose bad header holds the secret',
    handler: rawEcho((secret) => `HTTP/1.1 500 Oops\r\nX-Echo: \x01${secret}\r\n\r\n`),
    options: { retry: { retries: 0 } },
    call: (client) => client.getOrder(ORDER_ID),
  },
  {
    what: 'a TransportError of an unparsable answer whose bad header holds the secret in base64',
    handler: rawEcho(
      (secret) => `HTTP/1.1 500 Oops\r\nX-Echo: \x01${Buffer.from(secret).toString('base64')}\r\n\r\n`,
    ),
    options: { retry: { retries: 0 } },
    call: (client) => client.getOrder(ORDER_ID),
  },
  {
    what: 'a TransportError of a connection refused',
    call: async (_client, secret) => {
      const refused = new OrdersClient({
        baseUrl: `http://127.0.0.1:${await closedPort()}/api`,
        userId: USER_ID,
        secret,
        retry: { retries: 0 },
      });
      try {
        return await refused.getOrder(ORDER_ID);
      } finally {
        await refused.close();
      }
    },
  },
  {
    what: 'a TransportError of an abort by the caller',
    handler: neverAnswer,
    call: (client) => client.getOrder(ORDER_ID, { signal: AbortSignal.timeout(50) }),
  },
  {
    what: 'an OrderCreationFailedError whose vendor message echoes the secret',
    handler: echo(404, (secret) => ({ message: `Order creation failed for credentials ${secret}` })),
    call: (client) => client.waitForOrder(ORDER_UUID, { intervalMs: 1 }),
  },
  {
    what: 'an OrderWaitTimeoutError whose last message echoes the secret',
    handler: echo(404, (secret) => ({ message: `No order for ${secret}` })),
    call: (client) => client.waitForOrder(ORDER_UUID, { timeoutMs: 20, intervalMs: 1, maxIntervalMs: 2 }),
  },
  {
    what: 'a RequestValidationError of a body that carries the secret as values',
    call: (client, secret) =>
      client.createOrder({
        ...createBodies.v2,
        reference: secret.repeat(3),
        poNumber: secret,
        vatId: secret,
      } as never),
  },
  {
    what: 'a ConfigurationError of a bad base URL',
    call: async (_client, secret) => new OrdersClient({ baseUrl: 'no url', userId: USER_ID, secret }),
  },
  {
    what: 'a ConfigurationError of a bad option in fromEnv',
    call: async (_client, secret) =>
      OrdersClient.fromEnv({ apiVersion: 'v9' as never }, { [ENV.userId]: USER_ID, [ENV.secret]: secret }),
  },
];

for (const [index, { kind, secret }] of secrets.entries())
  describe(`${kind}`, () => {
    const run = scenarios.filter((scenario) => index === 0 || !scenario.once);
    for (const { what, handler, options, call } of run)
      it(`${kind} appears nowhere in ${what}`, async () => {
        if (handler) api.server.handle(handler);
        const client = api.client({ ...options, secret } as OrdersClientOptions<'v2'>);
        const error = await call(client, secret).then(
          () => undefined,
          (caught: unknown) => caught,
        );
        expect(isPrintOrderError(error)).toBe(true);
        for (const [form, text] of Object.entries(renderings(error))) {
          expect(leaks(text, secret), `the secret leaked into the error's ${form}:\n${text}`).toBe(false);
        }
        for (const request of api.server.requests) expect(request.headers['api-secret']).toBe(secret);
      });

    it(`${kind} is replaced by a marker in what an HttpError keeps of the echoed body`, async () => {
      api.server.handle(echo(400, (echoed) => ({ message: `bad ${echoed}`, [echoed]: [echoed] })));
      const error = await api
        .client({ secret })
        .getOrder(ORDER_ID)
        .catch((caught: unknown) => caught);
      expect(error).toMatchObject({
        vendorMessage: `bad ${REDACTED}`,
        body: { message: `bad ${REDACTED}`, [REDACTED]: [REDACTED] },
      });
    });

    it(`${kind} appears nowhere in the client itself`, () => {
      const client = api.client({ secret });
      const texts = [
        inspect(client, { depth: Number.POSITIVE_INFINITY, showHidden: true }),
        String(client),
        JSON.stringify(client),
        JSON.stringify(ownProperties(client)),
        Object.keys(client).join(),
      ];
      for (const text of texts) expect(leaks(text, secret), text).toBe(false);
    });
  });

describe('a ConfigurationError', () => {
  it('a ConfigurationError about the credentials names the variable, never the value', () => {
    const error = (() => {
      try {
        return new OrdersClient({ userId: '', secret: SECRET } as OrdersClientOptions);
      } catch (caught) {
        return caught;
      }
    })();
    expect(error).toBeInstanceOf(ConfigurationError);
    expect(leaks(inspect(error, { showHidden: true }), SECRET)).toBe(false);
  });
});

describe('secretForms', () => {
  it.each([
    ['a quote, a backslash, a percent sign and a non-ASCII letter', 'p"a\\ss%wörd'],
    ['only safe characters', 'sk_test_plain'],
  ])('names every form a secret with %s takes in JSON, URLs and base64 headers', (_what, secret) => {
    const forms = secretForms(secret, ['user-1']);
    expect(forms).toContain(secret);
    expect(forms).toContain(JSON.stringify(secret).slice(1, -1));
    expect(forms).toContain(encodeURIComponent(secret));
    expect(forms).toContain(Buffer.from(secret).toString('base64').replace(/=+$/, ''));
    expect(forms).toContain(Buffer.from(`user-1:${secret}`).toString('base64').replace(/=+$/, ''));
    const text = [
      JSON.stringify({ secret }),
      `https://x/?s=${encodeURIComponent(secret)}`,
      Buffer.from(secret).toString('base64'),
    ].join(' ');
    expect(redact(text, [secret])).not.toMatch(
      new RegExp(forms.map((form) => form.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|')),
    );
  });

  it.each([
    ['hex', (bytes: Buffer) => bytes.toString('hex')],
    ['upper-case hex', (bytes: Buffer) => bytes.toString('hex').toUpperCase()],
    ['base64url', (bytes: Buffer) => bytes.toString('base64url')],
  ])('redacts a secret echoed in %s', (_what, encode) => {
    const secret = 'p"a\\ss%wörd/+?>-7c1d';
    const text = `echo: ${encode(Buffer.from(secret))}.`;
    expect(redact(text, [secret])).toBe(`echo: ${REDACTED}.`);
  });

  it.each([
    [
      'lower-case percent-encoding',
      (secret: string) => encodeURIComponent(secret).replace(/%[0-9A-F]{2}/g, (hex) => hex.toLowerCase()),
    ],
    [
      'form encoding (a space as +, ~ as %7E)',
      (secret: string) => new URLSearchParams({ s: secret }).toString().slice(2),
    ],
    [
      'JSON with every slash escaped, as PHP writes it',
      (secret: string) => JSON.stringify(secret).slice(1, -1).replaceAll('/', '\\/'),
    ],
    [
      'JSON with & < > as \\u escapes, as Go writes it',
      (secret: string) =>
        JSON.stringify(secret)
          .slice(1, -1)
          .replace(/[&<>]/g, (char) => `\\u00${char.charCodeAt(0).toString(16)}`),
    ],
    [
      'HTML entities',
      (secret: string) => secret.replaceAll('&', '&amp;').replaceAll('"', '&quot;').replaceAll('<', '&lt;'),
    ],
    [
      'numeric HTML entities, decimal and hex',
      (secret: string) => secret.replace(/[/&]/g, (char) => (char === '/' ? '&#47;' : '&#x26;')),
    ],
    [
      'a mix: percent-encoded, then JSON-escaped in an error body',
      (secret: string) =>
        JSON.stringify(encodeURIComponent(secret.slice(0, 6)) + secret.slice(6)).slice(1, -1),
    ],
  ])('redacts a secret a server echoes in %s', (_what, encode) => {
    const secret = 'Sk/9+q&r~Z t7"<-distinctive';
    const encoded = encode(secret);
    expect(encoded).not.toContain(secret);
    expect(redact(`echo: ${encoded}.`, [secret])).toBe(`echo: ${REDACTED}.`);
    expect(redactor([secret])(`echo: ${encoded}.`)).toBe(`echo: ${REDACTED}.`);
  });

  it('leaves text alone that spells only part of a secret, in any encoding', () => {
    const secret = 'Sk/9+q&r~Zt7-distinctive';
    const text = 'Sk%2F9%2Bq%26r~Zt7-distinct and Sk&#47;9';
    expect(redact(text, [secret])).toBe(text);
  });

  it('redacts a longer form whole where a shorter form of another listed secret lies inside it', () => {
    // The HAR record lists a secret and its `user:secret` header value: the longer goes first.
    const header = Buffer.from('demo-user:demo-secret').toString('base64').replace(/=+$/, '');
    const listed = ['demo-secret', header];
    expect(redact(`Basic ${header}`, listed)).toBe(`Basic ${REDACTED}`);
    expect(redactor(listed)(`Basic ${header}`)).toBe(`Basic ${REDACTED}`);
  });

  it('redactor keeps the list it was given; redact reads the list each time', () => {
    const listed = ['first-secret'];
    const early = redactor(listed);
    listed.push('later-secret');
    expect(early('first-secret later-secret')).toBe(`${REDACTED} later-secret`);
    expect(redact('first-secret later-secret', listed)).toBe(`${REDACTED} ${REDACTED}`);
  });

  it.each([0, 1, 2, 3, 4, 5])(
    'redacts a secret inside a longer base64 value, %i bytes after its start, all but the edges that mix in its neighbours',
    (before) => {
      const secret = 'sk_live_9f2c>?~distinctive';
      const value = Buffer.from(`${'u'.repeat(before)}${secret}:tail`);
      for (const encoded of [value.toString('base64'), value.toString('base64url')]) {
        const redacted = redact(encoded, [secret]);
        expect(redacted).toContain(REDACTED);
        // What is left of the encoded value decodes to at most two bytes of the secret at each edge.
        const left = redacted.split(REDACTED).join('');
        expect(encoded.length - left.length).toBeGreaterThanOrEqual(((secret.length - 4) * 4) / 3);
      }
    },
  );
});
