import type { FieldIssue } from '@print-contracts/client';

const SHOWN = 3;

/** `orderLines[0].files must hold exactly one file; reference …`: the first few issues, readable. */
export function describeIssues(issues: readonly FieldIssue[]): string {
  const shown = issues.slice(0, SHOWN).map((issue) => `${issue.path || 'body'} ${issue.message}`);
  const more = issues.length > SHOWN ? ` (and ${issues.length - SHOWN} more, see errors)` : '';
  return `${shown.join('; ')}${more}`;
}
