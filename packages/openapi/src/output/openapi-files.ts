import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildOpenApiDocuments, documentName } from '../document/build-document.js';
import type { JsonObject } from '../schemas/json-schema.js';
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
export function readOpenApiFiles(dir: string = OPENAPI_DIR): Map<string, string> {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return new Map();
  }
  return new Map(
    names
      .filter(isGenerated)
      .sort()
      .map((name) => [name, readFileSync(join(dir, name), 'utf8')]),
  );
}

/**
 * Makes `dir` hold exactly `files`: writes each one, and deletes generated files no longer
 * produced (a retired version's document never lingers). Other files are left alone.
 */
export function writeOpenApiFiles(files: ReadonlyMap<string, string>, dir: string = OPENAPI_DIR): void {
  mkdirSync(dir, { recursive: true });
  for (const name of readdirSync(dir)) {
    if (isGenerated(name) && !files.has(name)) rmSync(join(dir, name));
  }
  for (const [name, content] of files) writeFileSync(join(dir, name), content);
}
