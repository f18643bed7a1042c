import { describe, expect, it } from 'vitest';
import { type DocumentChange, diffDocuments } from '../src/diff/diff-documents.js';
import { buildOpenApiDocument } from '../src/document/build-document.js';
import type { JsonObject } from '../src/json.js';

type Schema = { properties: Record<string, JsonObject>; required?: string[]; enum?: string[] };
type Document = JsonObject & { components: { schemas: Record<string, Schema> } };

const base = () => buildOpenApiDocument('v2') as Document;
const component = (document: Document, name: string): Schema => {
  const schema = document.components.schemas[name];
  if (!schema) throw new Error(`No component ${name}`);
  return schema;
};
const brief = (changes: readonly DocumentChange[]) =>
  changes.map((change) => `${change.severity} ${change.operation} | ${change.location} | ${change.change}`);

describe('diffDocuments', () => {
  it('finds nothing between a document and itself', () => {
    expect(diffDocuments(base(), base())).toEqual([]);
  });

  it('reports a renamed response field as breaking (removed) and additive (added)', () => {
    const after = base();
    const shipment = component(after, 'OrderDetail');
    const { reference, ...rest } = shipment.properties;
    shipment.properties = { ...rest, customerReference: reference as JsonObject };
    shipment.required = shipment.required?.map((name) => (name === 'reference' ? 'customerReference' : name));
    const changes = brief(diffDocuments(base(), after));
    expect(changes).toContain('breaking getOrder (GET /orders/{id}) | response 2XX: reference | removed');
    expect(changes).toContain(
      'additive getOrder (GET /orders/{id}) | response 2XX: customerReference | added (required)',
    );
  });

  it('compares a recursive component without looping, and still finds a change inside it', () => {
    const recursive = () => {
      const document = base();
      // A line that holds lines: each level refers back to the component itself.
      component(document, 'OrderSummary').properties.children = {
        type: 'array',
        items: { $ref: '#/components/schemas/OrderSummary' },
      };
      return document;
    };
    expect(diffDocuments(recursive(), recursive())).toEqual([]);
    const after = recursive();
    component(after, 'OrderSummary').properties.channel = { type: 'string' };
    expect(brief(diffDocuments(recursive(), after))).toContain(
      'additive listOrders (GET /orders) | response 2XX: orders[].channel | added (optional)',
    );
  });

  it('reports an optional field added to a response as additive only', () => {
    const after = base();
    component(after, 'OrderSummary').properties.channel = { type: 'string' };
    const changes = diffDocuments(base(), after);
    expect(brief(changes)).toEqual([
      'additive listOrders (GET /orders) | response 2XX: orders[].channel | added (optional)',
    ]);
  });

  it('reports an optional request field as additive and a required one as breaking', () => {
    const optional = base();
    component(optional, 'CancelOrder').properties.note = { type: 'string' };
    expect(brief(diffDocuments(base(), optional))).toEqual([
      'additive cancelOrder (DELETE /orders/{id}) | request body: note | added (optional)',
    ]);
    const required = structuredClone(optional);
    component(required, 'CancelOrder').required?.push('note');
    expect(brief(diffDocuments(base(), required))).toEqual([
      'breaking cancelOrder (DELETE /orders/{id}) | request body: note | added (required)',
    ]);
  });

  it('reads a new enumeration value as breaking in an answer and additive in a request', () => {
    const after = base();
    component(after, 'OrderStatus').enum?.push('on-hold');
    const changes = brief(diffDocuments(base(), after));
    expect(changes).toContain(
      'breaking getOrder (GET /orders/{id}) | response 2XX: status | new value "on-hold"',
    );
    expect(changes).toContain('additive listOrders (GET /orders) | query status | new value "on-hold"');
  });

  it('reads a field that may now be null as breaking for a reader', () => {
    const after = base();
    const summary = component(after, 'OrderSummary');
    summary.properties.number = { anyOf: [{ type: 'string' }, { type: 'null' }] };
    expect(brief(diffDocuments(base(), after))).toEqual([
      'breaking listOrders (GET /orders) | response 2XX: orders[].number | may now be null',
    ]);
  });

  it('reports a removed operation as breaking and a new document as all additive', () => {
    const after = base() as Document & { paths: Record<string, Record<string, unknown>> };
    delete after.paths['/orders/{id}']?.delete;
    expect(brief(diffDocuments(base(), after))).toEqual([
      'breaking cancelOrder (DELETE /orders/{id}) | operation | removed',
    ]);
    const added = diffDocuments(undefined, base());
    expect(added.every((change) => change.severity === 'additive' && change.change === 'added')).toBe(true);
    expect(added).toHaveLength(6);
  });
});
