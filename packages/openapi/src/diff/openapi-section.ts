import type { ApiVersion } from '@print-contracts/client';
import { documentName } from '../document/build-document.js';
import type { JsonObject } from '../schemas/json-schema.js';
import { renderVersionDifferences } from './version-differences.js';

/**
 * The OpenAPI part of `contracts/README.md`: links to each version's document (relative to
 * `contracts/`), how to get its HTML reference, then what differs between v1 and v2. Pure: the
 * consumer suite's README generator appends it, so the README stays one generated file.
 */
export function renderOpenApiSection(documents: ReadonlyMap<ApiVersion, JsonObject>): string[] {
  const links = [...documents.keys()].map((version) => {
    const name = documentName(version);
    return `- ${version}: [\`openapi/${name}.json\`](openapi/${name}.json)`;
  });
  return [
    '## OpenAPI',
    '',
    "The same API as OpenAPI 3.1, one document per version, generated from the client's operations table and schemas",
    "(`packages/openapi`) and checked against every interaction above with PactFlow's comparator:",
    '',
    ...links,
    '',
    'A browsable HTML reference of each (one self-contained file) is not committed: `pnpm contracts:html` writes it into',
    '`reports/openapi-html/`, and every CI run attaches it as the `openapi-html` artifact.',
    '',
    ...renderVersionDifferences(documents),
  ];
}
