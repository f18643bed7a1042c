import { type ApiVersion, DEFAULT_VERSION_HEADER } from '@print-contracts/client';
import { documentName } from '../document/build-document.js';
import type { JsonObject } from '../json.js';
import type { ChangeSeverity } from './change-rules.js';
import { type DocumentChange, diffDocuments } from './diff-documents.js';

/** Changes of one document file, as `pnpm contracts:diff` reports them. */
export interface FileChanges {
  readonly file: string;
  readonly changes: readonly DocumentChange[];
}

/** How many changes of each severity. */
export function countChanges(files: readonly FileChanges[]): Record<ChangeSeverity, number> {
  const counts: Record<ChangeSeverity, number> = { breaking: 0, additive: 0, compatible: 0 };
  for (const { changes } of files) for (const change of changes) counts[change.severity]++;
  return counts;
}

/**
 * Plain text for a terminal: per file, one line per change (`BREAKING  getOrder (GET
 * /orders/{id})  response 2XX: lines[].id  type integer → string`), then a count.
 */
export function renderChangesText(files: readonly FileChanges[], since: string): string {
  const lines: string[] = [];
  for (const { file, changes } of files) {
    if (changes.length === 0) continue;
    lines.push(file);
    for (const change of changes) {
      lines.push(
        `  ${(change.severity === 'breaking' ? 'BREAKING' : change.severity).padEnd(10)} ${change.operation}  ${change.location}  ${change.change}`,
      );
    }
    lines.push('');
  }
  const counts = countChanges(files);
  const total = counts.breaking + counts.additive + counts.compatible;
  lines.push(
    total === 0
      ? `No changes in the OpenAPI documents since ${since}.`
      : `${counts.breaking} breaking, ${counts.additive} additive, ${counts.compatible} compatible changes in the OpenAPI documents since ${since}.`,
  );
  return `${lines.join('\n')}\n`;
}

const cell = (text: string) => text.replace(/\|/g, '\\|');

/** A markdown table of changes: operation, where, what, and what it means for a client. */
function renderChangesTable(changes: readonly DocumentChange[], meaning: string): string[] {
  if (changes.length === 0) return ['No differences.'];
  return [
    `| operation | where | change | ${meaning} |`,
    '|---|---|---|---|',
    ...changes.map(
      (change) =>
        `| ${cell(change.operation)} | ${cell(`\`${change.location}\``)} | ${cell(change.change)} | ${change.severity === 'breaking' ? '**breaking**' : change.severity} |`,
    ),
  ];
}

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
  return [
    `## What differs between ${from} and ${to}`,
    '',
    `Generated from the OpenAPI documents: what changes for a client that moves from ${from} to ${to}, besides the`,
    `version header (\`${DEFAULT_VERSION_HEADER.name}\`). "breaking" means a ${from} request or reading that can fail in ${to};`,
    '"additive" something new; "compatible" neither. Checks the client makes in code show as description changes.',
    '',
    ...renderChangesTable(diffDocuments(before, after), `for a ${from} client`),
    '',
  ];
}

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
