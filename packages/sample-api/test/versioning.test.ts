import { DEFAULT_VERSION_HEADER, versionHeaderValue } from '@print-contracts/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { orderFor } from './helpers/orders.js';
import { JSON_BODY, startTestApi, type TestApi } from './helpers/sample-api.js';

describe('the sample API picks the version from the Accept header', () => {
  let t: TestApi;
  beforeAll(async () => {
    t = await startTestApi({ processingDelayMs: 0 });
  });
  afterAll(() => t.close());

  /** Status of creating a v1 and a v2 order with `accept`: tells which version the server applied. */
  const createWith = async (accept: string | undefined) => {
    const headers: Record<string, string> =
      accept === undefined ? { ...JSON_BODY } : { ...JSON_BODY, accept };
    const post = (body: unknown) =>
      t
        .raw({ method: 'POST', path: '/api/orders', headers, body: JSON.stringify(body) })
        .then((a) => a.status);
    return { v1: await post(orderFor('v1')), v2: await post(orderFor('v2')) };
  };

  it.each([
    ['no header', undefined],
    ['*/*', '*/*'],
    ['application/json', 'application/json'],
    ['the v1 media type', versionHeaderValue('v1')],
  ])('answers as v1 for %s', async (_name, accept) => {
    expect(await createWith(accept)).toEqual({ v1: 201, v2: 400 });
  });

  it.each([
    ['the v2 media type', versionHeaderValue('v2')],
    [
      'the v2 media type with parameters among others',
      `application/json, ${versionHeaderValue('v2')}; q=0.9`,
    ],
    ['the v2 media type in upper case', versionHeaderValue('v2').toUpperCase()],
  ])('answers as v2 for %s', async (_name, accept) => {
    expect(await createWith(accept)).toEqual({ v1: 400, v2: 201 });
  });

  it.each([
    ['an unknown version', versionHeaderValue('v3' as 'v1')],
    ['a suffixed version', `${versionHeaderValue('v2')}+json`],
    ['two versions at once', `${versionHeaderValue('v1')}, ${versionHeaderValue('v2')}`],
  ])('refuses %s with 406 and says what to send', async (_name, accept) => {
    const answer = await t.raw({ path: '/api/orders', headers: { accept } });
    expect(answer.status).toBe(406);
    expect((answer.json as { message: string }).message).toContain(DEFAULT_VERSION_HEADER.name);
  });

  it('reads orders the same way in both versions', async () => {
    const v1 = await t.client('v1').getOrder(1_000_001);
    const v2 = await t.client('v2').getOrder(1_000_001);
    expect(v2).toEqual(v1);
  });

  it('lets a client without a version header work as v1', async () => {
    const client = t.client('v1', undefined, { versionHeader: false });
    const { uuid } = await client.createOrder(orderFor('v1') as never);
    expect((await client.waitForOrder(uuid)).uuid).toBe(uuid);
  });
});
