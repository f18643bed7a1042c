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

/** `redact` over any JSON-like value, returning a copy. */
export function redactValue<T>(value: T, secrets: readonly string[]): T {
  if (typeof value === 'string') return redact(value, secrets) as T;
  if (value === null || typeof value !== 'object') return value;
  return JSON.parse(redact(JSON.stringify(value), secrets)) as T;
}
