export const REDACTED = '[REDACTED]';

/**
 * Every form in which `secret` can appear in text the kit writes: as it is, JSON-escaped (a
 * secret holding `"` or `\\` in a JSON document), percent-encoded (in a URL), hex in either
 * case (a server's debug echo), and base64 or base64url (in a header such as Basic
 * authorization, alone or after a user id and a colon, or anywhere inside a longer encoded
 * value). Longest first, so a longer form is replaced before a shorter one inside it.
 */
export function secretForms(secret: string, userIds: readonly string[] = []): string[] {
  if (!secret) return [];
  const bytes = Buffer.from(secret, 'utf8');
  const base64 = (data: Buffer) => data.toString('base64').replace(/=+$/, '');
  const hex = bytes.toString('hex');
  const forms = new Set([
    secret,
    JSON.stringify(secret).slice(1, -1),
    JSON.stringify(JSON.stringify(secret).slice(1, -1)).slice(1, -1),
    encodeURIComponent(secret),
    encodeURI(secret),
    hex,
    hex.toUpperCase(),
    bytes.toString('base64'),
    base64(bytes),
    ...[0, 1, 2].map((offset) => base64Core(bytes, offset)),
    ...userIds.map((userId) => base64(Buffer.from(`${userId}:${secret}`, 'utf8'))),
  ]);
  const withUrlAlphabet = [...forms].map((form) => form.replaceAll('+', '-').replaceAll('/', '_'));
  return [...new Set([...forms, ...withUrlAlphabet])]
    .filter((form) => form.length > 0)
    .sort((a, b) => b.length - a.length);
}

/**
 * The characters of base64 that `bytes` alone decide when they start `offset` bytes into a
 * group of three: a secret inside a longer encoded value (`user:secret`, a token) shows only
 * these, whatever comes before and after it. Empty for a secret too short to leave a few.
 */
function base64Core(bytes: Buffer, offset: number): string {
  const encoded = Buffer.concat([Buffer.alloc(offset), bytes]).toString('base64');
  // The characters that mix in a byte before the secret, and those of a group it does not fill.
  const first = offset === 0 ? 0 : offset + 1;
  const last = Math.floor((offset + bytes.length) / 3) * 4;
  const core = encoded.slice(first, last);
  return core.length >= 8 ? core : '';
}

/**
 * Replaces every occurrence of each secret in `text`, in every form `secretForms` names.
 * Used on anything the server sent back before it enters an error (a server may echo a
 * request header in its answer) and on everything the kit prints or writes.
 */
export function redact(text: string, secrets: readonly string[]): string {
  return redactForms(text, formsOf(secrets));
}

/**
 * `redact` with `secrets` as they are now, worked out once, for a caller that redacts many
 * texts with one list (a HAR record's every header and body).
 */
export function redactor(secrets: readonly string[]): (text: string) => string {
  const forms = formsOf(secrets);
  return (text) => redactForms(text, forms);
}

function redactForms(text: string, { any, spelled, forms }: Forms): string {
  if (!any?.test(text)) return text;
  // A pass per secret, then per fixed form, longest first: a longer one that overlaps a shorter goes whole.
  let out = text;
  for (const pattern of spelled) out = out.replace(pattern, REDACTED);
  for (const form of forms) out = out.split(form).join(REDACTED);
  return out;
}

/** `redact` over bytes (a proxied body); the buffer itself when no secret occurs in it. */
export function redactBuffer(body: Buffer, secrets: readonly string[]): Buffer {
  const text = body.toString('utf8');
  const redacted = redact(text, secrets);
  return redacted === text ? body : Buffer.from(redacted, 'utf8');
}

/**
 * Every form of every secret in a list, longest first, and one pattern that finds any of them,
 * worked out once per list: `redact` runs on every key and string of a body and on every header
 * of the HAR record, where most hold no secret (a pass per form there cost a run a tenth of its
 * time).
 */
type Forms = {
  readonly any?: RegExp;
  readonly spelled: readonly RegExp[];
  readonly forms: readonly string[];
};
const FORMS = new Map<string, Forms>();
function formsOf(secrets: readonly string[]): Forms {
  // By content, not by the list: a run adds the target's secrets to its list once it knows them.
  const key = JSON.stringify(secrets);
  let found = FORMS.get(key);
  if (!found) {
    const forms = [...new Set(secrets.flatMap((secret) => secretForms(secret)))].sort(
      (a, b) => b.length - a.length,
    );
    const spelled = [...new Set(secrets.filter((secret) => secret.length > 0))]
      .sort((a, b) => b.length - a.length)
      .map((secret) => [...secret].map(spellings).join(''));
    const sources = [...spelled, ...forms.map(escapeRegExp)];
    found =
      sources.length === 0
        ? { spelled: [], forms }
        : {
            any: new RegExp(sources.join('|')),
            spelled: spelled.map((source) => new RegExp(source, 'g')),
            forms,
          };
    // A process sees a handful of lists; the bound only guards against a caller that varies them.
    if (FORMS.size >= 64) FORMS.clear();
    FORMS.set(key, found);
  }
  return found;
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** `[aA]` for a letter: hex digits in either case. */
const anyCase = (hex: string) =>
  [...hex].map((digit) => (/[a-f]/.test(digit) ? `[${digit}${digit.toUpperCase()}]` : digit)).join('');

/** JSON's short escapes and the HTML entities a server may write for a character, as text. */
const ESCAPES: Readonly<Record<string, readonly string[]>> = {
  '"': ['\\"', '&quot;'],
  '\\': ['\\\\'],
  '/': ['\\/'],
  '\b': ['\\b'],
  '\f': ['\\f'],
  '\n': ['\\n'],
  '\r': ['\\r'],
  '\t': ['\\t'],
  '&': ['&amp;'],
  '<': ['&lt;'],
  '>': ['&gt;'],
  "'": ['&apos;'],
  ' ': ['+'],
};

/**
 * A pattern for every spelling of one character in text a server may echo: as it is,
 * percent-encoded in either case (a URL, a form, where a space may also be `+`), a JSON `\uXXXX`
 * or short escape (`\/` as PHP writes a slash), an HTML entity. A secret is its characters'
 * patterns in a row, so a mix of spellings is found too.
 */
function spellings(char: string): string {
  const code = char.codePointAt(0) ?? 0;
  const units = [...Array(char.length).keys()].map((index) => char.charCodeAt(index));
  const alternatives = [
    escapeRegExp(char),
    [...Buffer.from(char, 'utf8')].map((byte) => `%${anyCase(byte.toString(16).padStart(2, '0'))}`).join(''),
    units.map((unit) => `\\\\u${anyCase(unit.toString(16).padStart(4, '0'))}`).join(''),
    `&#0*${code};`,
    `&#[xX]0*${anyCase(code.toString(16))};`,
    ...(ESCAPES[char] ?? []).map(escapeRegExp),
  ];
  return `(?:${alternatives.join('|')})`;
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
