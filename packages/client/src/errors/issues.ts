import type { z } from 'zod';

/** One bad field: a dotted path such as `orderLines[0].files` and what is wrong with it. */
export interface FieldIssue {
  path: string;
  message: string;
}

/** `['orderLines', 0, 'files']` → `orderLines[0].files`. */
export function formatPath(path: readonly PropertyKey[]): string {
  return path.reduce<string>((out, key) => {
    if (typeof key === 'number') return `${out}[${key}]`;
    return out ? `${out}.${String(key)}` : String(key);
  }, '');
}

/**
 * Flattens zod issues into field issues. For a union that matched no branch, the branch
 * with the fewest issues is taken as what the caller meant.
 */
export function toFieldIssues(
  issues: readonly z.core.$ZodIssue[],
  prefix: readonly PropertyKey[] = [],
): FieldIssue[] {
  return issues.flatMap((issue) => {
    const path = [...prefix, ...issue.path];
    if (issue.code === 'invalid_union' && issue.errors.length > 0) {
      const closest = issue.errors.reduce((best, branch) => (branch.length < best.length ? branch : best));
      if (closest.length > 0) return toFieldIssues(closest, path);
    }
    if (issue.code === 'unrecognized_keys') {
      return issue.keys.map((key) => ({ path: formatPath([...path, key]), message: 'is not a known field' }));
    }
    const missing = issue.code === 'invalid_type' && issue.message.endsWith('received undefined');
    return [{ path: formatPath(path), message: missing ? 'is required' : issue.message }];
  });
}
