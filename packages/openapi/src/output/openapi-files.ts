import { fileURLToPath } from 'node:url';
import { buildOpenApiDocuments, documentName } from '../document/build-document.js';
import type { JsonObject } from '../schemas/json-schema.js';
import { readGenerated, writeGenerated } from './generated-folder.js';
import { renderHtmlReference } from './html.js';
import { serialiseDocument } from './serialise.js';

/** The committed `contracts/openapi/` folder at the top of the monorepo. */
export const OPENAPI_DIR = fileURLToPath(new URL('../../../../contracts/openapi/', import.meta.url));

/** Files of `contracts/openapi/` this package generates: the documents and their HTML references. */
const isGenerated = (file: string) => file.endsWith('.json') || file.endsWith('.html');

/** The documents as committed text, by file name (`print-order-api-v2.json`). */
export function generateOpenApiDocuments(): Map<string, string> {
  const files = new Map<string, string>();
  for (const [version, document] of buildOpenApiDocuments()) {
    files.set(`${documentName(version)}.json`, serialiseDocument(document));
  }
  return files;
}

/**
 * Everything `contracts/openapi/` holds, by file name: each document and its HTML reference.
 * The HTML is built by the Redocly CLI, one process per document, in parallel.
 */
export async function generateOpenApiFiles(): Promise<Map<string, string>> {
  const documents = generateOpenApiDocuments();
  const pages = await Promise.all(
    [...documents].map(async ([file, text]) => {
      const stem = file.replace(/\.json$/, '');
      const { info } = JSON.parse(text) as { info: JsonObject };
      return [
        `${stem}.html`,
        await renderHtmlReference(text, stem, `${String(info.title)} ${String(info.version)}`),
      ] as const;
    }),
  );
  return new Map([...documents, ...pages].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

/** The generated files as committed in `dir`; none when `dir` is absent. */
export const readOpenApiFiles = (dir: string = OPENAPI_DIR) => readGenerated(dir, isGenerated);

/** Makes `dir` hold exactly `files` of the generated ones; other files are left alone. */
export const writeOpenApiFiles = (files: ReadonlyMap<string, string>, dir: string = OPENAPI_DIR) =>
  writeGenerated(dir, files, isGenerated);
