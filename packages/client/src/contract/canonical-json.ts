/** A parsed JSON object whose values are not yet checked. */
export type JsonObject = { [key: string]: unknown };

/** True for a JSON object: not an array, not null. */
export const isJsonObject = (value: unknown): value is JsonObject =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const compareText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** A copy of `value` with every object's keys in code-point order. */
export function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (!isJsonObject(value)) return value;
  return Object.fromEntries(
    Object.keys(value)
      .sort(compareText)
      .map((key) => [key, sortKeys(value[key])]),
  );
}

/** JSON with sorted keys, for comparing values regardless of key order. */
export const canonicalJson = (value: unknown) => JSON.stringify(sortKeys(value));
