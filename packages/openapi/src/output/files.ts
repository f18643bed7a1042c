import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildOpenApiDocuments, documentName } from '../document/build-document.js';
import type { Json } from '../json.js';

/** The committed `contracts/` folder with the pact files, at the top of the monorepo. */
export const PACTS_DIR = fileURLToPath(new URL('../../../../contracts/', import.meta.url));

export const OPENAPI_DIR = join(PACTS_DIR, 'openapi/');

/** The git-ignored folder (under `reports/`) that `print-contracts-openapi html` writes by default. */
export const HTML_DIR = fileURLToPath(new URL('../../../../reports/openapi-html/', import.meta.url));

/** Which files of a folder a generator owns; the others (hand-written notes) are left alone. */
export type IsGenerated = (file: string) => boolean;

/** The generated files as committed in `dir`, by name; none when `dir` is absent. */
export function readGenerated(dir: string, isGenerated: IsGenerated): Map<string, string> {
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
 * Makes `dir` hold exactly `files` of what the generator owns: writes each, and deletes the
 * generated files no longer produced, so a retired version or interaction never lingers.
 */
export function writeGenerated(
  dir: string,
  files: ReadonlyMap<string, string>,
  isGenerated: IsGenerated,
): void {
  mkdirSync(dir, { recursive: true });
  for (const name of readdirSync(dir)) {
    if (isGenerated(name) && !files.has(name)) rmSync(join(dir, name));
  }
  for (const [name, content] of files) writeFileSync(join(dir, name), content);
}

/**
 * A document as committed: two-space JSON and a final newline. Key order is the order the
 * builder writes, which depends only on the client's code, so the same client gives the same
 * bytes.
 */
export const serialiseDocument = (document: Json): string => `${JSON.stringify(document, null, 2)}\n`;

/** The documents as committed text, by file name (`print-order-api-v2.json`). */
export function generateOpenApiDocuments(): Map<string, string> {
  return new Map(
    [...buildOpenApiDocuments()].map(([version, document]) => [
      `${documentName(version)}.json`,
      serialiseDocument(document),
    ]),
  );
}

/** The documents as committed in `dir`, by file name; none when `dir` is absent. */
export const readOpenApiFiles = (dir: string = OPENAPI_DIR) =>
  readGenerated(dir, (file) => file.endsWith('.json'));

/**
 * Makes `dir` hold exactly `files` of the generated ones; other files are left alone. HTML
 * references were committed there once; counting them as generated removes a leftover one.
 */
export const writeOpenApiFiles = (files: ReadonlyMap<string, string>, dir: string = OPENAPI_DIR) =>
  writeGenerated(dir, files, (file) => file.endsWith('.json') || file.endsWith('.html'));
