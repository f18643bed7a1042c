import type { Json } from '../schemas/json-schema.js';

/**
 * A document as committed: two-space JSON and a final newline. Key order is the order the
 * builder writes, which depends only on the client's code, so the same client gives the same
 * bytes.
 */
export const serialiseDocument = (document: Json): string => `${JSON.stringify(document, null, 2)}\n`;
