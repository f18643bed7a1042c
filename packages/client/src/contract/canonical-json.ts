const compareText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** A copy of `value` with every object's keys in code-point order. */
export function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(
    Object.keys(value)
      .sort(compareText)
      .map((key) => [key, sortKeys((value as Record<string, unknown>)[key])]),
  );
}

/** JSON with sorted keys, for comparing values regardless of key order. */
export const canonicalJson = (value: unknown) => JSON.stringify(sortKeys(value));
