import type { ChangeSeverity, DocumentChange } from './diff-documents.js';

/** Changes of one document file, as `pnpm contracts:diff` reports them. */
export interface FileChanges {
  readonly file: string;
  readonly changes: readonly DocumentChange[];
}

const LABEL: Readonly<Record<ChangeSeverity, string>> = {
  breaking: 'BREAKING',
  additive: 'additive',
  compatible: 'compatible',
};

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
        `  ${LABEL[change.severity].padEnd(10)} ${change.operation}  ${change.location}  ${change.change}`,
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
const code = (text: string) => `\`${text}\``;

/** A markdown table of changes: operation, where, what, and what it means for a client. */
export function renderChangesTable(changes: readonly DocumentChange[], meaning: string): string[] {
  if (changes.length === 0) return ['No differences.'];
  return [
    `| operation | where | change | ${meaning} |`,
    '|---|---|---|---|',
    ...changes.map(
      (change) =>
        `| ${cell(change.operation)} | ${cell(code(change.location))} | ${cell(change.change)} | ${change.severity === 'breaking' ? '**breaking**' : change.severity} |`,
    ),
  ];
}
