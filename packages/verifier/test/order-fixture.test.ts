import { readFileSync, writeFileSync } from 'node:fs';
import { workspace } from '@print-contracts/test-support';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isUsageError } from '../src/index.js';
import { readOrderBodies } from '../src/options/order-fixture.js';
import { VERIFY_USAGE } from '../src/options/usage.js';

/** The order fixture the README shows, as a user would copy it. */
const README_EXAMPLE = (() => {
  const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
  const block = /An order fixture[\s\S]*?```json\n([\s\S]*?)```/.exec(readme)?.[1];
  if (!block) throw new Error('README.md shows no order fixture example');
  return JSON.parse(block) as Record<string, unknown>;
})();

let space: Awaited<ReturnType<typeof workspace>>;
beforeAll(async () => {
  space = await workspace();
});
afterAll(() => space.remove());

const readWith = (body: unknown) => {
  writeFileSync(space.path('order.json'), JSON.stringify(body));
  return readOrderBodies('order.json', space.dir);
};

const usageMessage = (body: unknown): string => {
  try {
    readWith(body);
  } catch (error) {
    if (isUsageError(error)) return error.message;
    throw error;
  }
  throw new Error('the fixture was accepted');
};

describe('an --order-fixture file', () => {
  it("is accepted as the README shows it, as the v1 body, the kit's example kept for v2", () => {
    const bodies = readWith(README_EXAMPLE);
    expect(bodies.v1).toMatchObject({
      orderLines: [{ productCode: 'YOUR-PRODUCT-CODE' }],
      testOrder: true,
    });
    expect(bodies.source).toEqual({
      v1: 'order.json',
      v2: "the kit's example order (a product the sample API sells)",
    });
  });

  it('becomes a test order when it does not say, and loses its own reference to the run', () => {
    const { testOrder: _testOrder, ...body } = README_EXAMPLE;
    const bodies = readWith({ v1: { ...body, reference: 'PO-42' } });
    expect(bodies.v1).toMatchObject({ testOrder: true });
    expect(bodies.v1).not.toHaveProperty('reference');
  });

  it('is refused when it asks for a real order', () => {
    expect(usageMessage({ ...README_EXAMPLE, testOrder: false })).toContain('"testOrder": false');
  });

  it('is refused with the wrong field named', () => {
    const { deliveryAddress: _address, ...body } = README_EXAMPLE;
    expect(usageMessage(body)).toMatch(/not a valid v1 create-order body: deliveryAddress/);
  });

  it('is refused when it is neither a body nor a pair of bodies', () => {
    expect(usageMessage({ v3: README_EXAMPLE })).toContain('got keys v3');
  });
});

describe('the --order-fixture help', () => {
  it('says what a fixture with "testOrder": false gets: refused with exit 2', () => {
    expect(VERIFY_USAGE).not.toContain('testOrder is forced true');
    expect(VERIFY_USAGE).toContain('"testOrder": false is\n                            refused (exit 2)');
  });
});
