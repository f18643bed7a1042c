/** How deep `vendorMessageOf` looks for a message in an error body. */
const MAX_DEPTH = 4;
const MAX_MESSAGE = 500;

const clip = (text: string) => (text.length > MAX_MESSAGE ? `${text.slice(0, MAX_MESSAGE - 1)}…` : text);

/**
 * The vendor's message in an error answer. The docs say only that an answer "contains the
 * message" (cancel refused, creation failed) and name no key, so this reads `message` or
 * `error` where present, and otherwise the first text found in the body, depth first; a
 * body that is itself text (not JSON, or a JSON string) is the message, unless it is markup.
 */
export function vendorMessageOf(body: unknown): string | undefined {
  // A page of markup (a gateway's error page) is no message.
  if (typeof body === 'string' && /^\s*</.test(body)) return undefined;
  const record = (body ?? {}) as Record<string, unknown>;
  for (const key of ['message', 'error']) {
    const value = record[key];
    if (typeof value === 'string' && value.trim() !== '') return clip(value.trim());
  }
  return firstText(body, 0);
}

function firstText(value: unknown, depth: number): string | undefined {
  if (typeof value === 'string') return value.trim() === '' ? undefined : clip(value.trim());
  if (value === null || typeof value !== 'object' || depth > MAX_DEPTH) return undefined;
  for (const item of Array.isArray(value) ? value : Object.values(value)) {
    const found = firstText(item, depth + 1);
    if (found !== undefined) return found;
  }
  return undefined;
}

/** The whole error body as text, for patterns the docs give without a key ("… failed"). */
export function bodyText(body: unknown): string {
  return typeof body === 'string' ? body : (JSON.stringify(body) ?? '');
}
