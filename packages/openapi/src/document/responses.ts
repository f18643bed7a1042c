import type { ApiVersion, OperationDefinition } from '@print-contracts/client';
import * as client from '@print-contracts/client';
import type { z } from 'zod';
import type { SchemaComponents } from '../schemas/components.js';
import type { JsonObject } from '../schemas/json-schema.js';
import { ACCEPTED_MEDIA_RANGE, JSON_MEDIA_TYPE } from './conventions.js';

/** The extension that tells a status the vendor documents from one the kit assumes. */
export const DOCUMENTED_EXTENSION = 'x-documented';

/** `2xx` in the operations table → `2XX`, OpenAPI's spelling of a status class. */
const statusClass = (success: OperationDefinition['success']) => success.toUpperCase();

/**
 * The client's schema of error bodies, when it exports one (`errorBodySchema`). The vendor
 * documents no error format, so without it an error body is any JSON value.
 */
function errorBody(components: SchemaComponents): JsonObject {
  const schema = (client as unknown as Record<string, unknown>).errorBodySchema;
  const known = typeof schema === 'object' && schema !== null && '_zod' in schema;
  return { schema: known ? components.ref(schema as z.ZodType) : {} };
}

/** A response's content: JSON, and the same schema for the version's `Accept` (see `ACCEPTED_MEDIA_RANGE`). */
function content(media: JsonObject): JsonObject {
  return { [JSON_MEDIA_TYPE]: media, [ACCEPTED_MEDIA_RANGE]: { schema: media.schema ?? {} } };
}

/** The refusal the kit assumes for every operation, beside what the vendor documents. */
const ASSUMED_REFUSAL = '4XX';

/**
 * The responses of one operation in one version. The vendor documents no success status, so
 * success is the class from the table (`2XX`, assumed); each error status the table lists as
 * documented is its own response (`x-documented: true`); every other refusal (credentials,
 * invalid input, an order the caller cannot reach, an unknown version) is one assumed `4XX`,
 * since the vendor documents neither its status nor its body.
 */
export function responsesOf(
  operation: OperationDefinition,
  version: ApiVersion,
  components: SchemaComponents,
  successExamples: JsonObject | undefined,
): JsonObject {
  const success = components.ref(operation.response[version]);
  const refusal = errorBody(components);
  const responses: JsonObject = {
    [statusClass(operation.success)]: {
      description: `Success. Assumed by the kit: the vendor documents no success status, so the kit relies on the class (${operation.success}) only.`,
      [DOCUMENTED_EXTENSION]: false,
      content: content({ schema: success, ...(successExamples ? { examples: successExamples } : {}) }),
    },
  };
  const documented = Object.entries(operation.documentedErrors).sort(([a], [b]) => Number(a) - Number(b));
  for (const [status, when] of documented) {
    responses[status] = {
      description: `Documented by the vendor: ${when}. The body's format is not documented.`,
      [DOCUMENTED_EXTENSION]: true,
      content: content(refusal),
    };
  }
  responses[ASSUMED_REFUSAL] = {
    description:
      'Assumed by the kit, not documented by the vendor: a refusal whose status the vendor does not document (missing or wrong credentials, invalid input, an order the caller cannot reach, an unknown version). The kit relies on the class only.',
    [DOCUMENTED_EXTENSION]: false,
    content: content(refusal),
  };
  return responses;
}
