import { DocumentError } from './errors/document-error.js';

/** A JSON value as the documents hold it. */
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** A JSON object: a JSON Schema, an OpenAPI object. */
export type JsonObject = { [key: string]: Json };

/** True for a JSON object (not an array, not null). */
export const isJsonObject = (value: unknown): value is JsonObject =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** `text` as a JSON object; a one-line `DocumentError` naming `where` otherwise. */
export function parseJsonObject(text: string, where: string): JsonObject {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new DocumentError(`${where} is not JSON: ${(error as Error).message.split('\n')[0]}`, {
      cause: error,
    });
  }
  if (!isJsonObject(value)) throw new DocumentError(`${where} does not hold a JSON object`);
  return value;
}

/** Where components live in an OpenAPI document, as a `$ref` prefix. */
export const SCHEMA_REF_PREFIX = '#/components/schemas/';

/** Every `$ref` string anywhere inside `value`. */
export function refsIn(value: unknown, found: Set<string> = new Set()): Set<string> {
  if (Array.isArray(value)) {
    for (const item of value) refsIn(item, found);
  } else if (isJsonObject(value)) {
    for (const [key, child] of Object.entries(value)) {
      if (key === '$ref' && typeof child === 'string') found.add(child);
      else refsIn(child, found);
    }
  }
  return found;
}
