export const REDACTED = '[REDACTED]';

/**
 * Replaces every occurrence of each secret in `text`. Used on anything the server sent back
 * before it enters an error: a server may echo a request header in its answer.
 */
export function redact(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const secret of secrets) {
    if (secret) out = out.split(secret).join(REDACTED);
  }
  return out;
}

/**
 * `redact` over any JSON-like value (strings and keys at any depth), returning a copy. It
 * walks the value rather than its JSON text, where a secret holding `"` or `\` is escaped.
 */
export function redactValue<T>(value: T, secrets: readonly string[]): T {
  if (typeof value === 'string') return redact(value, secrets) as T;
  if (Array.isArray(value)) return value.map((item: unknown) => redactValue(item, secrets)) as T;
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, item]) => [redact(key, secrets), redactValue(item, secrets)]),
  ) as T;
}
