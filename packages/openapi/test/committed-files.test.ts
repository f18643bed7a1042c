import { API_VERSIONS, OPERATION_NAMES, operations } from '@print-contracts/client';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildOpenApiDocuments, documentName } from '../src/document/build-document.js';
import { generateOpenApiFiles, OPENAPI_DIR, readOpenApiFiles } from '../src/output/openapi-files.js';
import { embeddedDefinition, prerenderedText } from './support/html.js';

const changed = (committed: ReadonlyMap<string, string>, generated: ReadonlyMap<string, string>) =>
  [...new Set([...committed.keys(), ...generated.keys()])].filter(
    (name) => committed.get(name) !== generated.get(name),
  );

describe('the committed contracts/openapi/', () => {
  let generated: Map<string, string>;
  const committed = readOpenApiFiles(OPENAPI_DIR);

  beforeAll(async () => {
    generated = await generateOpenApiFiles();
  }, 60_000);

  it('holds exactly what the generator writes (run pnpm contracts after changing the client)', () => {
    const stale = changed(committed, generated);
    if (stale.length > 0)
      console.error(`contracts/openapi/ is stale; run pnpm contracts: ${stale.join(', ')}`);
    expect(stale).toEqual([]);
  });

  it('holds one document and one HTML reference per API version', () => {
    const expected = API_VERSIONS.flatMap((version) => [
      `${documentName(version)}.html`,
      `${documentName(version)}.json`,
    ]);
    expect([...committed.keys()]).toEqual(expected);
  });
});

describe('the HTML reference', () => {
  const files = readOpenApiFiles(OPENAPI_DIR);
  const documents = buildOpenApiDocuments();

  it.each(API_VERSIONS)(
    'of %s embeds its committed document, which Redoc renders in the browser',
    (version) => {
      const html = files.get(`${documentName(version)}.html`) ?? '';
      const json = files.get(`${documentName(version)}.json`) ?? '';
      expect(embeddedDefinition(html)).toEqual(JSON.parse(json));
    },
  );

  it.each(API_VERSIONS)('of %s carries every operation of the table in that version', (version) => {
    const definition = embeddedDefinition(files.get(`${documentName(version)}.html`) ?? '') as {
      paths: Record<string, Record<string, { operationId?: string; summary?: string }>>;
    };
    for (const name of OPERATION_NAMES) {
      const operation = operations[name];
      const found = definition.paths[operation.path]?.[operation.method.toLowerCase()];
      if (operation.versions.includes(version)) {
        expect(found, name).toMatchObject({ operationId: name, summary: operation.summary });
      } else {
        expect(found, name).toBeUndefined();
      }
    }
  });

  it.each(API_VERSIONS)(
    'of %s is pre-rendered on the server with the title and the version header',
    (version) => {
      const text = prerenderedText(files.get(`${documentName(version)}.html`) ?? '');
      const info = documents.get(version)?.info as { title: string };
      expect(text).toContain(info.title);
      expect(text).toContain(`application/vnd.printdeal-api.${version}`);
    },
  );

  it.each(API_VERSIONS)('of %s inlines Redoc instead of loading it from a CDN', (version) => {
    const html = files.get(`${documentName(version)}.html`) ?? '';
    expect(html).not.toMatch(/<script[^>]+src=/);
  });
});
