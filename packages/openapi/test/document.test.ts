import {
  API_BASE_PATH,
  API_VERSIONS,
  DEFAULT_BASE_URL,
  OPERATION_NAMES,
  operations,
  SECRET_HEADER,
  USER_ID_HEADER,
} from '@print-contracts/client';
import { VENDOR_EXAMPLES } from '@print-contracts/client/kit';
import { describe, expect, it } from 'vitest';
import { buildOpenApiDocuments } from '../src/document/build-document.js';
import { EXAMPLE_PLACEMENTS } from '../src/document/examples.js';
import type { JsonObject } from '../src/json.js';

type Operation = JsonObject & {
  operationId: string;
  description: string;
  'x-idempotent': boolean;
  requestBody?: { content: Record<string, { examples?: Record<string, { $ref: string }> }> };
  responses: Record<
    string,
    { 'x-documented': boolean; content?: Record<string, { examples?: Record<string, { $ref: string }> }> }
  >;
};
type Document = JsonObject & {
  paths: Record<string, Record<string, Operation>>;
  components: { examples?: Record<string, { value: unknown }>; securitySchemes: Record<string, JsonObject> };
};

const documents = buildOpenApiDocuments() as Map<string, Document>;
const operationIn = (document: Document, name: (typeof OPERATION_NAMES)[number]) => {
  const definition = operations[name];
  const found = document.paths[definition.path]?.[definition.method.toLowerCase()];
  if (!found) throw new Error(`${name} missing`);
  return found;
};

describe.each(API_VERSIONS)('the %s document', (version) => {
  const document = documents.get(version) as Document;

  it('holds every operation of the table in that version, with its summary and retry behaviour', () => {
    for (const name of OPERATION_NAMES) {
      const operation = operationIn(document, name);
      expect(operation).toMatchObject({ operationId: name, summary: operations[name].summary });
      expect(operation['x-idempotent']).toBe(operations[name].idempotent);
    }
  });

  it('tells documented statuses from assumed ones', () => {
    for (const name of OPERATION_NAMES) {
      const { responses } = operationIn(document, name);
      const documented = Object.keys(operations[name].documentedErrors);
      expect(Object.keys(responses).sort()).toEqual(['2XX', '4XX', ...documented].sort());
      for (const status of documented) expect(responses[status]?.['x-documented']).toBe(true);
      expect(responses['2XX']?.['x-documented']).toBe(false);
      expect(responses['4XX']?.['x-documented']).toBe(false);
    }
  });

  it('asks for both credential headers on every request, and names the version header', () => {
    expect(document.security).toEqual([{ UserId: [], ApiSecret: [] }]);
    expect(document.components.securitySchemes.UserId).toMatchObject({
      type: 'apiKey',
      in: 'header',
      name: USER_ID_HEADER,
    });
    expect(document.components.securitySchemes.ApiSecret).toMatchObject({
      type: 'apiKey',
      in: 'header',
      name: SECRET_HEADER,
    });
    expect(document['x-version-header']).toEqual({
      name: 'Accept',
      value: `application/vnd.printdeal-api.${version}`,
      required: version !== 'v1',
    });
    expect(document.servers).toEqual([expect.objectContaining({ url: DEFAULT_BASE_URL })]);
    expect((document.info as JsonObject)['x-opc-config-base-path']).toBe(API_BASE_PATH);
  });

  it("shows each of the vendor's examples placed in this version, or says why the schema refuses it", () => {
    for (const placement of EXAMPLE_PLACEMENTS.filter((candidate) => candidate.versions.includes(version))) {
      for (const name of placement.operations) {
        const operation = operationIn(document, name);
        const media =
          placement.part === 'request'
            ? operation.requestBody?.content['application/json']
            : operation.responses['2XX']?.content?.['application/json'];
        const shown = media?.examples?.[placement.example];
        if (shown) {
          expect(shown).toEqual({ $ref: `#/components/examples/${placement.example}` });
          expect(document.components.examples?.[placement.example]?.value).toEqual(
            VENDOR_EXAMPLES[placement.example].body,
          );
        } else {
          expect(operation.description).toContain(
            `(\`${placement.example}\`, \`${VENDOR_EXAMPLES[placement.example].source.path}\`)`,
          );
        }
      }
    }
  });
});
