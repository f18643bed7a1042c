import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { API_VERSIONS } from '@print-contracts/client';
import { isJsonObject, type JsonObject } from '@print-contracts/client/kit';
import { UsageError } from '../errors/index.js';

/** The committed OpenAPI document of one API version, read as data. */
export type OpenApiDocument = ReturnType<typeof loadOpenApiDocuments>[number];
/** One operation of a document: how a request finds it, and its responses by status key. */
export type DocumentOperation = OpenApiDocument['operations'][number];

const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options', 'trace'];

/** `/orders/{id}` → a pattern that takes one path segment for each parameter. */
function templatePattern(template: string): RegExp {
  const parts = template.split(/\{[^}]+\}/).map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  return new RegExp(`^${parts.join('[^/]+')}$`);
}

function operationsOf(document: JsonObject) {
  const paths = isJsonObject(document.paths) ? document.paths : {};
  return Object.entries(paths).flatMap(([template, item]) =>
    METHODS.flatMap((method) => {
      const operation = isJsonObject(item) ? item[method] : undefined;
      if (!isJsonObject(operation)) return [];
      const { operationId, responses } = operation;
      return [
        {
          operationId: typeof operationId === 'string' ? operationId : `${method} ${template}`,
          method: method.toUpperCase(),
          pattern: templatePattern(template),
          responses: isJsonObject(responses) ? responses : {},
        },
      ];
    }),
  );
}

/**
 * Reads every `*.json` OpenAPI document in `dir` whose `info.version` names an API version (the
 * files `packages/openapi` generates). Plain data: no OpenAPI library runs here. A folder that
 * cannot be read, or holds no such document, is a usage error naming `--openapi`.
 */
export function loadOpenApiDocuments(dir: string) {
  let names: string[];
  try {
    names = readdirSync(dir)
      .filter((name) => name.endsWith('.json'))
      .sort();
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? 'error';
    throw new UsageError(
      `--openapi ${dir} cannot be read (${code}); give the folder of the OpenAPI documents`,
    );
  }
  const documents = names.flatMap((file) => {
    let document: unknown;
    try {
      document = JSON.parse(readFileSync(join(dir, file), 'utf8'));
    } catch {
      throw new UsageError(`--openapi: ${join(dir, file)} is not JSON; give a folder of OpenAPI documents`);
    }
    if (!isJsonObject(document) || typeof document.openapi !== 'string' || !isJsonObject(document.info))
      return [];
    const stated = document.info.version;
    const version = API_VERSIONS.find((candidate) => candidate === stated);
    return version ? [{ version, document, operations: operationsOf(document) }] : [];
  });
  if (documents.length === 0) {
    throw new UsageError(`--openapi ${dir} holds no OpenAPI document of ${API_VERSIONS.join(' or ')}`);
  }
  return documents;
}
