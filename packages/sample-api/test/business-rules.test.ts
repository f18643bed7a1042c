import { CANCEL_REFUSED_MESSAGE, isHttpError } from '@print-contracts/client';
import { VENDOR_EXAMPLES } from '@print-contracts/client/kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inspect, setState } from './helpers/control.js';
import { ADDRESS, orderFor, V2_LINE } from './helpers/orders.js';
import { startTestApi, type TestApi } from './helpers/sample-api.js';

const failure = (promise: Promise<unknown>) =>
  promise.then(
    () => ({ status: 'succeeded' as const, message: undefined }),
    (error: unknown) =>
      isHttpError(error)
        ? { status: error.status, message: error.vendorMessage }
        : { status: error, message: undefined },
  );

describe('the sample API enforces the order lifecycle', () => {
  let t: TestApi;
  beforeAll(async () => {
    t = await startTestApi({ processingDelayMs: 0, control: true });
  });
  afterAll(() => t.close());

  const client = () => t.client('v2');
  const newOrder = async (overrides: Record<string, unknown> = {}) => {
    const { uuid } = await client().createOrder(orderFor('v2', overrides) as never);
    return client().waitForOrder(uuid);
  };

  it.each(['in-production', 'shipped', 'completed'] as const)(
    'refuses to cancel an order that is %s with 500 "Cancel order failed"',
    async (state) => {
      const order = await newOrder();
      await setState(t, order.id, state);
      expect(await failure(client().cancelOrder(order.id, 'Too late'))).toEqual({
        status: 500,
        message: CANCEL_REFUSED_MESSAGE,
      });
    },
  );

  it.each(['in-production', 'shipped', 'completed', 'cancelled'] as const)(
    'refuses to update an order that is %s with 400',
    async (state) => {
      const order = await newOrder();
      await setState(t, order.id, state);
      const result = await failure(client().updateOrder(order.id, { reference: 'Late change' }));
      expect(result.status).toBe(400);
      expect(result.message).toContain('can no longer change');
      expect((await client().getOrder(order.id)).reference).not.toBe('Late change');
    },
  );

  it('answers success again when a cancelled order is cancelled twice', async () => {
    const order = await newOrder();
    expect(await client().cancelOrder(order.id, 'First')).toEqual({ success: true });
    expect(await client().cancelOrder(order.id, 'Second')).toEqual({ success: true });
    expect((await client().getOrder(order.id)).status).toBe('cancelled');
  });

  it('keeps testOrder on the order it creates', async () => {
    const test = await newOrder({ testOrder: true });
    const real = await newOrder();
    expect((await inspect(t, test.id)).testOrder).toBe(true);
    expect((await inspect(t, real.id)).testOrder).toBe(false);
  });

  it('changes the delivery address, lines by position and the totals in an update, and answers the order', async () => {
    const order = await newOrder();
    const answer = await client().updateOrder(order.id, {
      deliveryAddress: { ...ADDRESS, city: 'Utrecht', zipcode: '3511 AL' },
      orderLines: [{ attributes: [{ attribute: 'quantity', value: '50000' }] }],
    });
    const updated = await client().getOrder(order.id);
    expect(answer).toEqual(updated);
    expect(updated.deliveryAddress).not.toBe(order.deliveryAddress);
    expect(updated.lines[0]?.addressInfo).toBe(updated.deliveryAddress);
    expect(updated.lines[0]?.quantity).toBe(50_000);
    expect(updated.total).toBeGreaterThan(order.total);
    await setState(t, order.id, 'shipped');
    const shipped = await client().getOrder(order.id);
    expect(shipped.lines[0]?.shipmentInfo?.[0]).toMatchObject({ city: 'Utrecht', zipCode: '3511 AL' });
  });

  it('ignores invoiceAddress, deliveryMethod, paymentMethod and a line externalId in an update, as the docs say', async () => {
    const order = await newOrder({ orderLines: [{ ...V2_LINE, externalId: 'crm-1' }] });
    await client().updateOrder(order.id, {
      ...VENDOR_EXAMPLES.updateRequestExample.body,
      invoiceAddress: { ...ADDRESS, city: 'Elsewhere' },
      orderLines: [{ externalId: 'crm-2' }],
    });
    const updated = await client().getOrder(order.id);
    expect(updated.lines[0]?.externalId).toBe('crm-1');
    expect(updated.lines[0]?.deliveryMethod).toBe(order.lines[0]?.deliveryMethod);
    expect(updated.reference).toBe(VENDOR_EXAMPLES.updateRequestExample.body.reference);
  });

  it.each(['in-production', 'shipped', 'cancelled'] as const)(
    'refuses to update an order that is %s with 400: it can no longer be modified',
    async (state) => {
      const order = await newOrder();
      await setState(t, order.id, state);
      expect((await failure(client().updateOrder(order.id, { reference: 'Too late' }))).status).toBe(400);
      expect((await client().getOrder(order.id)).reference).toBe(order.reference);
    },
  );

  it('refuses an update of a line the order does not have with 400', async () => {
    const order = await newOrder();
    const result = await failure(
      client().updateOrder(order.id, { orderLines: [{}, { files: [{ url: 'https://a.example/x.pdf' }] }] }),
    );
    expect(result.status).toBe(400);
  });

  it('refuses an update to a product the vendor does not sell with 400 and changes nothing', async () => {
    const order = await newOrder();
    const result = await failure(
      client().updateOrder(order.id, {
        reference: 'Should not stick',
        orderLines: [{ sku: '00000000-0000-4000-8000-000000000000' }],
      }),
    );
    expect(result.status).toBe(400);
    expect((await client().getOrder(order.id)).reference).toBe(order.reference);
  });

  it('moves a line waiting for artwork back to processing when new files arrive', async () => {
    const seed = await client().getOrder(1_000_009);
    expect(seed.lines.map((line) => line.status)).toEqual(['artwork-rejected', 'waiting-for-artwork']);
    await client().updateOrder(1_000_009, {
      orderLines: [{ files: [{ url: 'https://files.example.com/fixed.pdf' }] }],
    });
    const updated = await client().getOrder(1_000_009);
    expect(updated.lines.map((line) => line.status)).toEqual(['processing', 'waiting-for-artwork']);
  });

  it('accepts a v2 update that switches a line to another product', async () => {
    const order = await newOrder();
    await client().updateOrderWithPost(order.id, {
      orderLines: [
        {
          ...V2_LINE,
          sku: '2a3b4c5d-6e7f-4a81-9b02-c3d4e5f60712',
          attributes: [{ attribute: 'quantity', value: '250' }],
        },
      ],
    });
    const updated = await client().getOrder(order.id);
    expect(updated.lines[0]?.productCode).toBe('business-cards-85x55-350g-matt');
  });
});
