import {
  API_VERSIONS,
  OPERATION_NAMES,
  operations,
  SECRET_HEADER,
  USER_ID_HEADER,
  versionHeaderValue,
} from '@print-contracts/client';
import { type SampleApi, startSampleApi } from '@print-contracts/sample-api';
import fc from 'fast-check';
import { Agent, request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

let api: SampleApi;
const dispatcher = new Agent({ keepAliveTimeout: 1_000 });
const BODY_LIMIT = 64 * 1024;

beforeAll(async () => {
  api = await startSampleApi({ processingDelayMs: 0, bodyLimitBytes: BODY_LIMIT });
});
afterAll(async () => {
  await dispatcher.close();
  await api.close();
});

/** Routes that take a body, with a concrete id where the path has one. */
const routes = OPERATION_NAMES.filter((name) => operations[name].method !== 'GET').map((name) => ({
  method: operations[name].method,
  path: `/api${operations[name].path.replace('{id}', '1000001')}`,
}));

const deepJson = (depth: number, open: string, close: string) =>
  `${open.repeat(depth)}${close.repeat(depth)}`;

/** Bodies a hostile or broken client might send: raw bytes (invalid UTF-8 included), deep nesting, or too much. */
const hostileBody = fc.oneof(
  fc.uint8Array({ maxLength: 4_096 }).map((bytes) => Buffer.from(bytes)),
  fc.integer({ min: 1, max: 100_000 }).map((depth) => deepJson(depth, '[', ']')),
  fc.integer({ min: 1, max: 20_000 }).map((depth) => `{"orderLines":${deepJson(depth, '[', ']')}}`),
  fc.integer({ min: 1, max: 20_000 }).map((depth) => deepJson(depth, '{"a":', '}').replace(/}$/, '1}')),
  fc
    .integer({ min: BODY_LIMIT + 1, max: 4 * BODY_LIMIT })
    .map((size) => `{"reference":"${'x'.repeat(size)}"}`),
  fc.constantFrom(
    Buffer.from([0xc3, 0x28]),
    Buffer.from([0xff, 0xfe, 0xfd]),
    Buffer.from('{"reason":"\udc00"}'),
  ),
);

describe('the sample API under hostile bodies', () => {
  it('answers every one with a JSON 4xx or 2xx, never a crash, a 5xx or a hang', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...routes),
        fc.constantFrom(...API_VERSIONS),
        hostileBody,
        async (route, version, body) => {
          const [main] = api.credentials;
          const answer = await request(`${api.url.replace(/\/api$/, '')}${route.path}`, {
            dispatcher,
            method: route.method,
            body,
            headers: {
              [USER_ID_HEADER]: main?.userId ?? '',
              [SECRET_HEADER]: main?.secret ?? '',
              accept: versionHeaderValue(version),
              'content-type': 'application/json',
            },
            headersTimeout: 10_000,
            bodyTimeout: 10_000,
          });
          const text = await answer.body.text();
          expect(answer.headers['content-type']).toMatch(/^application\/json/);
          expect(() => JSON.parse(text)).not.toThrow();
          // 500 is the documented cancel refusal only; an order of the seed may be in production.
          if (answer.statusCode >= 500)
            expect([route.method, JSON.parse(text)]).toEqual(['DELETE', { message: 'Cancel order failed' }]);
          else expect(answer.statusCode).toBeLessThan(500);
        },
      ),
      { numRuns: 150 },
    );
    // Still serving after all of it.
    const [main] = api.credentials;
    const after = await request(`${api.url}/orders`, {
      dispatcher,
      headers: { [USER_ID_HEADER]: main?.userId ?? '', [SECRET_HEADER]: main?.secret ?? '' },
    });
    await after.body.text();
    expect(after.statusCode).toBe(200);
  }, 120_000);
});
