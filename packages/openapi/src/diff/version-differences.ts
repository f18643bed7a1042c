import { type ApiVersion, DEFAULT_VERSION_HEADER } from '@print-contracts/client';
import type { JsonObject } from '../schemas/json-schema.js';
import { diffDocuments } from './diff-documents.js';
import { renderChangesTable } from './render-changes.js';

/**
 * `contracts/README.md`'s section on what differs between two API versions (v1 → v2 by
 * default), generated from their OpenAPI documents: each difference per operation and field,
 * marked breaking or not for a client that moves from the older version to the newer one.
 * Pure: same documents in, same lines out. Empty when one of the two documents is missing.
 */
export function renderVersionDifferences(
  documents: ReadonlyMap<ApiVersion, JsonObject>,
  from: ApiVersion = 'v1',
  to: ApiVersion = 'v2',
): string[] {
  const before = documents.get(from);
  const after = documents.get(to);
  if (!before || !after) return [];
  const changes = diffDocuments(before, after);
  return [
    `## What differs between ${from} and ${to}`,
    '',
    `Generated from the OpenAPI documents: what changes for a client that moves from ${from} to ${to}, besides the`,
    `version header (\`${DEFAULT_VERSION_HEADER.name}\`). "breaking" means a ${from} request or reading that can fail in ${to};`,
    '"additive" something new; "compatible" neither. Checks the client makes in code show as description changes.',
    '',
    ...renderChangesTable(changes, `for a ${from} client`),
    '',
  ];
}
