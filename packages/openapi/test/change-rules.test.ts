import { describe, expect, it } from 'vitest';
import { CHANGE_RULES, type ChangeRuleName, type ChangeSeverity } from '../src/diff/change-rules.js';
import { type DocumentChange, diffDocuments } from '../src/diff/diff-documents.js';
import type { Json, JsonObject } from '../src/json.js';

// biome-ignore lint/suspicious/noExplicitAny: the rows below edit hand-made documents at any depth
type Doc = any;

/** A small document: a create that sends `Create` and reads `Order`, and a list with one query parameter. */
function document(): Doc {
  const json = { 'application/json': { schema: { $ref: '#/components/schemas/Order' } } };
  return {
    openapi: '3.1.0',
    info: { title: 'Orders', version: '2' },
    'x-version-header': { name: 'Accept', value: 'application/vnd.printdeal-api.v2', required: true },
    paths: {
      '/orders': {
        post: {
          operationId: 'createOrder',
          requestBody: {
            required: true,
            content: { 'application/json': { schema: { $ref: '#/components/schemas/Create' } } },
          },
          responses: {
            '2XX': { description: 'created', 'x-documented': false, content: json },
            '400': { description: 'refused', 'x-documented': true },
            '4XX': { description: 'other refusals', 'x-documented': false },
          },
        },
        get: {
          operationId: 'listOrders',
          parameters: [{ name: 'limit', in: 'query', required: false, schema: { type: 'integer' } }],
          responses: { '2XX': { description: 'a page', content: json } },
        },
      },
    },
    components: {
      schemas: {
        Create: {
          type: 'object',
          properties: {
            deliveryMethod: { type: 'integer', enum: [1, 6, 18, 19] },
            reference: { type: 'string', maxLength: 35 },
            note: { type: 'string' },
            quantity: { type: 'number' },
            quoteLineItemId: { anyOf: [{ type: 'string' }, { type: 'integer' }] },
            meta: {},
          },
          required: ['deliveryMethod'],
          additionalProperties: false,
        },
        Order: {
          type: 'object',
          properties: {
            status: { type: 'string', enum: ['new', 'shipped'] },
            id: { type: 'integer' },
            name: { type: 'string' },
          },
          required: ['status', 'id'],
        },
      },
    },
  };
}

const create = (d: Doc) => d.components.schemas.Create;
const order = (d: Doc) => d.components.schemas.Order;
const post = (d: Doc) => d.paths['/orders'].post;
const get = (d: Doc) => d.paths['/orders'].get;

/** Diffs `document()` as `from` leaves it against `document()` as `to` leaves it. */
function changesOf(to: (d: Doc) => void, from: (d: Doc) => void = () => {}): DocumentChange[] {
  const before = document();
  from(before);
  const after = structuredClone(before);
  to(after);
  return diffDocuments(before as JsonObject, after as JsonObject);
}

interface Row {
  readonly rule: ChangeRuleName;
  readonly given: string;
  readonly from?: (d: Doc) => void;
  readonly to: (d: Doc) => void;
  readonly want: ChangeSeverity;
}

const nullable = (schema: Json) => ({ anyOf: [schema, { type: 'null' }] });

/** One row per rule of `CHANGE_RULES`: a change that only that rule classifies, and its verdict. */
const rows: Row[] = [
  {
    rule: 'document-level-changed',
    given: 'a new version header value',
    to: (d) => {
      d['x-version-header'].value = 'application/vnd.printdeal-api.v3';
    },
    want: 'breaking',
  },
  {
    rule: 'operation-removed',
    given: 'the list removed',
    to: (d) => delete d.paths['/orders'].get,
    want: 'breaking',
  },
  {
    rule: 'operation-added',
    given: 'a new PUT',
    to: (d) => {
      d.paths['/orders'].put = { responses: { '2XX': { description: 'ok' } } };
    },
    want: 'additive',
  },
  {
    rule: 'security-changed',
    given: 'another credential scheme on the list',
    to: (d) => {
      get(d).security = [{ token: [] }];
    },
    want: 'breaking',
  },
  {
    rule: 'parameter-removed',
    given: 'query limit removed',
    to: (d) => get(d).parameters.pop(),
    want: 'breaking',
  },
  {
    rule: 'parameter-now-required',
    given: 'query limit now required',
    to: (d) => {
      get(d).parameters[0].required = true;
    },
    want: 'breaking',
  },
  {
    rule: 'parameter-now-optional',
    given: 'a required query limit now optional',
    from: (d) => {
      get(d).parameters[0].required = true;
    },
    to: (d) => {
      get(d).parameters[0].required = false;
    },
    want: 'compatible',
  },
  {
    rule: 'parameter-added-required',
    given: 'a new required query parameter',
    to: (d) =>
      get(d).parameters.push({ name: 'shop', in: 'query', required: true, schema: { type: 'string' } }),
    want: 'breaking',
  },
  {
    rule: 'parameter-added-optional',
    given: 'a new optional query parameter',
    to: (d) => get(d).parameters.push({ name: 'shop', in: 'query', schema: { type: 'string' } }),
    want: 'additive',
  },
  {
    rule: 'body-removed',
    given: "the create's body removed",
    to: (d) => delete post(d).requestBody,
    want: 'breaking',
  },
  {
    rule: 'body-added-required',
    given: 'a required body on the list',
    to: (d) => {
      get(d).requestBody = { required: true, content: {} };
    },
    want: 'breaking',
  },
  {
    rule: 'body-added-optional',
    given: 'an optional body on the list',
    to: (d) => {
      get(d).requestBody = { content: {} };
    },
    want: 'additive',
  },
  {
    rule: 'media-type-removed',
    given: "the create's JSON body removed",
    to: (d) => {
      post(d).requestBody.content = {};
    },
    want: 'breaking',
  },
  {
    rule: 'media-type-added',
    given: 'an answer also as application/*',
    to: (d) => {
      post(d).responses['2XX'].content['application/*'] = { schema: {} };
    },
    want: 'additive',
  },
  {
    rule: 'status-removed',
    given: 'the documented 400 removed',
    to: (d) => delete post(d).responses['400'],
    want: 'breaking',
  },
  {
    rule: 'status-added-covered',
    given: 'a documented 409 under the existing 4XX',
    to: (d) => {
      post(d).responses['409'] = { description: 'conflict' };
    },
    want: 'additive',
  },
  {
    rule: 'status-added-uncovered',
    given: 'a 500 no range covered',
    to: (d) => {
      post(d).responses['500'] = { description: 'failed' };
    },
    want: 'breaking',
  },
  {
    rule: 'status-documentation-changed',
    given: 'the 2XX now documented by the vendor',
    to: (d) => {
      post(d).responses['2XX']['x-documented'] = true;
    },
    want: 'compatible',
  },
  {
    rule: 'enum-value-removed',
    given: 'a delivery method the request no longer accepts',
    to: (d) => {
      create(d).properties.deliveryMethod.enum = [1, 6, 18];
    },
    want: 'breaking',
  },
  {
    rule: 'enum-value-added',
    given: 'a new status in an answer',
    to: (d) => order(d).properties.status.enum.push('on-hold'),
    want: 'breaking',
  },
  {
    rule: 'alternative-removed',
    given: 'a request field no longer accepting an integer',
    to: (d) => create(d).properties.quoteLineItemId.anyOf.pop(),
    want: 'breaking',
  },
  {
    rule: 'alternative-added',
    given: 'an answer field that may now be a string',
    to: (d) => {
      order(d).properties.id = { anyOf: [{ type: 'integer' }, { type: 'string', format: 'uuid' }] };
    },
    want: 'breaking',
  },
  {
    rule: 'type-narrowed',
    given: 'a request number now an integer',
    to: (d) => {
      create(d).properties.quantity.type = 'integer';
    },
    want: 'breaking',
  },
  {
    rule: 'type-widened',
    given: 'an answer integer now any number',
    to: (d) => {
      order(d).properties.id.type = 'number';
    },
    want: 'breaking',
  },
  {
    rule: 'type-changed',
    given: 'an answer string now an integer',
    to: (d) => {
      order(d).properties.name.type = 'integer';
    },
    want: 'breaking',
  },
  {
    rule: 'null-refused',
    given: 'a request field that may no longer be null',
    from: (d) => {
      create(d).properties.note = nullable({ type: 'string' });
    },
    to: (d) => {
      create(d).properties.note = { type: 'string' };
    },
    want: 'breaking',
  },
  {
    rule: 'null-allowed',
    given: 'an answer field that may now be null',
    to: (d) => {
      order(d).properties.name = nullable({ type: 'string' });
    },
    want: 'breaking',
  },
  {
    rule: 'any-value-refused',
    given: 'a request field of any value now an object',
    to: (d) => {
      create(d).properties.meta = { type: 'object' };
    },
    want: 'breaking',
  },
  {
    rule: 'any-value-allowed',
    given: 'an answer field now of any value',
    to: (d) => {
      order(d).properties.name = {};
    },
    want: 'breaking',
  },
  {
    rule: 'now-forbidden',
    given: 'a request field that must now be absent',
    to: (d) => {
      create(d).properties.note = { not: {} };
    },
    want: 'breaking',
  },
  {
    rule: 'no-longer-forbidden',
    given: 'an answer field that was never there and now may be',
    from: (d) => {
      order(d).properties.name = { not: {} };
    },
    to: (d) => {
      order(d).properties.name = { type: 'string' };
    },
    want: 'breaking',
  },
  {
    rule: 'bound-tightened',
    given: 'a shorter maximum for a request reference',
    to: (d) => {
      create(d).properties.reference.maxLength = 20;
    },
    want: 'breaking',
  },
  {
    rule: 'bound-loosened',
    given: 'a longer maximum for an answer name',
    from: (d) => {
      order(d).properties.name.maxLength = 10;
    },
    to: (d) => {
      order(d).properties.name.maxLength = 20;
    },
    want: 'breaking',
  },
  {
    rule: 'constraint-added',
    given: 'a pattern on a request note',
    to: (d) => {
      create(d).properties.note.pattern = '^[a-z]+$';
    },
    want: 'breaking',
  },
  {
    rule: 'constraint-removed',
    given: 'a pattern dropped from an answer name',
    from: (d) => {
      order(d).properties.name.pattern = '^[a-z]+$';
    },
    to: (d) => delete order(d).properties.name.pattern,
    want: 'breaking',
  },
  {
    rule: 'constraint-changed',
    given: 'another format for a request note',
    from: (d) => {
      create(d).properties.note.format = 'date';
    },
    to: (d) => {
      create(d).properties.note.format = 'date-time';
    },
    want: 'breaking',
  },
  {
    rule: 'field-removed',
    given: 'an answer field removed',
    to: (d) => delete order(d).properties.name,
    want: 'breaking',
  },
  {
    rule: 'field-now-required',
    given: 'a request note now required',
    to: (d) => create(d).required.push('note'),
    want: 'breaking',
  },
  {
    rule: 'field-now-optional',
    given: 'an answer id that may now be absent',
    to: (d) => {
      order(d).required = ['status'];
    },
    want: 'breaking',
  },
  {
    rule: 'field-added-optional',
    given: 'a new optional request field',
    to: (d) => {
      create(d).properties.channel = { type: 'string' };
    },
    want: 'additive',
  },
  {
    rule: 'field-added-required',
    given: 'a new required request field',
    to: (d) => {
      create(d).properties.channel = { type: 'string' };
      create(d).required.push('channel');
    },
    want: 'breaking',
  },
  {
    rule: 'other-fields-refused',
    given: 'an open request body now closed',
    from: (d) => delete create(d).additionalProperties,
    to: (d) => {
      create(d).additionalProperties = false;
    },
    want: 'breaking',
  },
  {
    rule: 'other-fields-allowed',
    given: 'a closed request body now open',
    to: (d) => delete create(d).additionalProperties,
    want: 'compatible',
  },
  {
    rule: 'code-check-changed',
    given: 'another check the client makes in code on a request field',
    from: (d) => {
      create(d).properties.note.description = 'The client also checks: must be a shop code.';
    },
    to: (d) => {
      create(d).properties.note.description = 'The client also checks: must be a v2 shop code.';
    },
    want: 'breaking',
  },
  {
    rule: 'description-changed',
    given: 'a reworded description',
    from: (d) => {
      create(d).properties.note.description = 'A note.';
    },
    to: (d) => {
      create(d).properties.note.description = 'A note for the printer.';
    },
    want: 'compatible',
  },
];

describe('CHANGE_RULES', () => {
  it.each(rows)('$rule: $given is $want', ({ rule, from, to, want }) => {
    // A component used by both operations changes in both: one verdict, once per operation.
    const verdicts = new Set(changesOf(to, from).map((change) => `${change.rule} ${change.severity}`));
    expect([...verdicts]).toEqual([`${rule} ${want}`]);
  });

  it('has one row above for every rule', () => {
    expect(rows.map((row) => row.rule).sort()).toEqual(Object.keys(CHANGE_RULES).sort());
  });
});

describe('diffDocuments, by direction', () => {
  const severities = (changes: readonly DocumentChange[]) => changes.map((change) => change.severity);
  const deliveryMethods = (d: Doc, methods: number[]) => {
    create(d).properties.deliveryMethod.enum = methods;
  };

  it("classifies a request's deliveryMethod narrowed from {1, 6, 18, 19} to {1} as breaking", () => {
    const changes = changesOf((d) => deliveryMethods(d, [1]));
    expect(severities(changes)).toEqual(['breaking', 'breaking', 'breaking']);
    expect(changes.map((change) => change.location)).toEqual(Array(3).fill('request body: deliveryMethod'));
  });

  it("classifies a request's deliveryMethod widened from {1} to {1, 6, 18, 19} as additive", () => {
    const changes = changesOf(
      (d) => deliveryMethods(d, [1, 6, 18, 19]),
      (d) => deliveryMethods(d, [1]),
    );
    expect(severities(changes)).toEqual(['additive', 'additive', 'additive']);
  });

  it('classifies a removed response 400 as breaking', () => {
    const changes = changesOf((d) => delete post(d).responses['400']);
    expect(changes).toEqual([
      {
        operation: 'createOrder (POST /orders)',
        location: 'response 400',
        change: 'removed',
        rule: 'status-removed',
        severity: 'breaking',
      },
    ]);
  });

  it('classifies a response 400 added under an existing 4XX as additive', () => {
    const changes = changesOf(
      (d) => {
        post(d).responses['400'] = { description: 'refused', 'x-documented': true };
      },
      (d) => delete post(d).responses['400'],
    );
    expect(severities(changes)).toEqual(['additive']);
  });

  it('classifies an enumeration narrowed in an answer as compatible, and widened as breaking', () => {
    expect(severities(changesOf((d) => order(d).properties.status.enum.pop()))).toEqual([
      'compatible',
      'compatible',
    ]);
    expect(severities(changesOf((d) => order(d).properties.status.enum.push('lost')))).toEqual([
      'breaking',
      'breaking',
    ]);
  });

  it('classifies a request type widened as compatible and an answer type narrowed as compatible', () => {
    expect(severities(changesOf((d) => (create(d).properties.quantity.type = ['number', 'string'])))).toEqual(
      ['compatible'],
    );
    expect(
      severities(
        changesOf(
          (d) => (order(d).properties.id.type = 'integer'),
          (d) => (order(d).properties.id.type = 'number'),
        ),
      ),
    ).toEqual(['compatible', 'compatible']);
  });
});
