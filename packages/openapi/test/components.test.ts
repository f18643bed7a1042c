import { operations, orderDetailSchema } from '@print-contracts/client';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { buildComponents, componentName, nameSchemas } from '../src/document/components.js';

const line = z.object({ id: z.union([z.number().int(), z.string()]), note: z.string().nullable() });
const order = z.strictObject({
  lines: z.array(line),
  answer: z.unknown(),
  blank: z.string().refine((value) => value.trim() !== '', 'must not be blank'),
  locked: z.never({ error: 'locked cannot change' }).optional(),
});

describe('buildComponents', () => {
  const { schemas, ref } = buildComponents(
    new Map<z.ZodType, string>([
      [order, 'Order'],
      [line, 'Line'],
    ]),
  );

  it('refers to a named schema by $ref and keeps plain objects open to added fields', () => {
    expect(schemas.Order?.properties).toMatchObject({
      lines: { type: 'array', items: { $ref: '#/components/schemas/Line' } },
    });
    expect(schemas.Line).not.toHaveProperty('additionalProperties');
    expect(schemas.Order?.additionalProperties).toBe(false);
    expect(ref(line)).toEqual({ $ref: '#/components/schemas/Line' });
  });

  it('writes unions as anyOf and nullable fields with null, without JavaScript integer bounds', () => {
    expect(schemas.Line?.properties).toEqual({
      id: { anyOf: [{ type: 'integer' }, { type: 'string' }] },
      note: { type: ['string', 'null'] },
    });
  });

  it('writes z.unknown() as the empty schema', () => {
    const properties = schemas.Order?.properties as Record<string, unknown> | undefined;
    expect(properties?.answer).toEqual({});
  });

  it('names refinements and never in descriptions, since JSON Schema cannot hold them', () => {
    const properties = (schemas.Order?.properties ?? {}) as Record<string, { description?: string }>;
    expect(properties.blank?.description).toBe('The client also checks: must not be blank.');
    expect(properties.locked).toEqual({
      not: {},
      description: 'The client also checks: must be absent (locked cannot change).',
    });
  });

  it('leaves out $schema and $id, which components do not carry', () => {
    expect(schemas.Order).not.toHaveProperty('$schema');
    expect(schemas.Order).not.toHaveProperty('$id');
  });
});

describe('nameSchemas', () => {
  it('names each client export after its export name', () => {
    expect(componentName('orderDetailSchema')).toBe('OrderDetail');
    expect(nameSchemas().get(orderDetailSchema)).toBe('OrderDetail');
  });

  it('names every schema of the operations table', () => {
    const names = nameSchemas();
    for (const operation of Object.values(operations)) {
      for (const schema of Object.values(operation.response)) expect(names.has(schema)).toBe(true);
      for (const schema of Object.values('body' in operation ? operation.body : {}))
        expect(names.has(schema)).toBe(true);
    }
  });
});
