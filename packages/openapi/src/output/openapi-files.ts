import { fileURLToPath } from 'node:url';
import { buildOpenApiDocuments, documentName } from '../document/build-document.js';
import type { JsonObject } from '../schemas/json-schema.js';
import { readGenerated, writeGenerated } from './generated-folder.js';
import { renderHtmlReference } from './html.js';
import { serialiseDocument } from './serialise.js';

/** The committed `contracts/openapi/` folder at the top of the monorepo. */
export const OPENAPI_DIR = fileURLToPath(new URL('../../../../contracts/openapi/', import.meta.url));

/** The git-ignored folder (under `reports/`) that `print-contracts-openapi html` writes by default. */
export const HTML_DIR = fileURLToPath(new URL('../../../../reports/openapi-html/', import.meta.url));

/**
 * Files of `contracts/openapi/` this package generates: the documents. HTML references were
 * committed there once; counting them as generated removes a leftover one on the next run.
 */
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
 * The HTML reference of each document (`print-order-api-v2.json` → `print-order-api-v2.html`),
 * built by the Redocly CLI, one process per document, in parallel. Not committed: 2.5 MB each,
 * rewritten whenever Redoc changes; `print-contracts-openapi html` writes them on demand.
 */
export async function generateHtmlReferences(
  documents: ReadonlyMap<string, string>,
): Promise<Map<string, string>> {
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
  return new Map(pages.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

/** The documents as committed in `dir`, by file name; none when `dir` is absent. */
export const readOpenApiFiles = (dir: string = OPENAPI_DIR) =>
  readGenerated(dir, (file) => file.endsWith('.json'));

/** Makes `dir` hold exactly `files` of the generated ones; other files are left alone. */
export const writeOpenApiFiles = (files: ReadonlyMap<string, string>, dir: string = OPENAPI_DIR) =>
  writeGenerated(dir, files, isGenerated);
