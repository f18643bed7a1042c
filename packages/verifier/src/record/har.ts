import { writeFile } from 'node:fs/promises';
import { SECRET_HEADER, USER_ID_HEADER } from '@print-contracts/client';
import { REDACTED, redact, redactor, secretForms } from '@print-contracts/client/kit';
import type { RecordedExchange } from './recorder.js';

interface NameValue {
  readonly name: string;
  readonly value: string;
}

/** Headers whose values never enter the file, in any form. */
const CREDENTIAL_HEADERS = new Set([
  USER_ID_HEADER.toLowerCase(),
  SECRET_HEADER.toLowerCase(),
  'authorization',
]);

/** What the HAR log holds beside the entries. */
interface HarContext {
  readonly creator: { readonly name: string; readonly version: string };
  readonly secrets: readonly string[];
  /** The target's user ids: a secret may travel base64-encoded after one of them (`user:secret`). */
  readonly userIds: readonly string[];
}

/**
 * The run's exchanges as a HAR 1.2 log (http://www.softwareishard.com/blog/har-12-spec/), so
 * that any HAR tool can read what the vendor answered. Credential headers are replaced, and
 * every form of every secret (as it is, JSON-escaped, percent-encoded, base64) is redacted from
 * URLs, headers and bodies. A request that got no answer has status 0 and its reason in `_error`.
 */
export function toHar(exchanges: readonly RecordedExchange[], context: HarContext) {
  const forms = context.secrets.flatMap((secret) => secretForms(secret, context.userIds));
  const hidden = [...context.secrets, ...forms];
  const clean = redactor(hidden);
  // A name as undici gives it, lower-cased: a secret echoed in one is found in lower case too.
  const cleanLower = redactor(hidden.map((form) => form.toLowerCase()));
  const headers = (raw: RecordedExchange['requestHeaders']): NameValue[] =>
    Object.entries(raw).flatMap(([name, value]) => {
      if (value === undefined) return [];
      const values = Array.isArray(value) ? value : [value];
      return values.map((one) => ({
        name: cleanLower(clean(name)),
        value: CREDENTIAL_HEADERS.has(name.toLowerCase()) ? REDACTED : clean(String(one)),
      }));
    });
  const mimeOf = (list: readonly NameValue[]) =>
    list.find((header) => header.name.toLowerCase() === 'content-type')?.value ?? 'application/octet-stream';

  const entries = exchanges.map((exchange) => {
    const url = new URL(clean(exchange.url));
    const requestHeaders = headers(exchange.requestHeaders);
    const requestText = exchange.requestBody ? clean(exchange.requestBody.toString('utf8')) : undefined;
    const answer = exchange.response;
    const responseHeaders = answer ? headers(answer.headers) : [];
    // Bytes still in a content coding that would not decode: no secret can be found inside them, so none are kept.
    const undecodable = answer !== undefined && !answer.decoded && codingOf(answer.headers) !== '';
    const content = answer && !undecodable ? bodyText(answer.body, hidden, clean) : { text: '' };
    const responseSize = undecodable
      ? (answer?.bodySize ?? 0)
      : content.encoding
        ? (answer?.body.length ?? 0)
        : Buffer.byteLength(content.text);
    // Bytes the content coding saved, when the body was decoded (HAR's `compression`).
    const decoded = answer?.decoded === true;
    const timings = { send: 0, wait: round(exchange.waitMs), receive: round(exchange.receiveMs) };
    return {
      startedDateTime: exchange.startedAt.toISOString(),
      time: timings.send + timings.wait + timings.receive,
      request: {
        method: exchange.method,
        url: url.href,
        httpVersion: 'HTTP/1.1',
        cookies: [],
        headers: requestHeaders,
        queryString: [...url.searchParams].map(([name, value]) => ({ name, value })),
        ...(requestText === undefined
          ? {}
          : { postData: { mimeType: mimeOf(requestHeaders), text: requestText } }),
        headersSize: -1,
        bodySize:
          requestText === undefined
            ? exchange.requestBodyStreamed
              ? -1
              : 0
            : Buffer.byteLength(requestText),
      },
      response: {
        status: answer?.status ?? 0,
        statusText: clean(answer?.statusText ?? ''),
        httpVersion: answer ? 'HTTP/1.1' : '',
        cookies: [],
        headers: responseHeaders,
        content: {
          size: responseSize,
          ...(decoded ? { compression: responseSize - (answer?.bodySize ?? 0) } : {}),
          mimeType: answer ? mimeOf(responseHeaders) : 'x-unknown',
          ...(undecodable
            ? { comment: `left out: the body would not decode from ${codingOf(answer?.headers ?? {})}` }
            : responseSize > 0
              ? content
              : {}),
        },
        redirectURL: clean([answer?.headers.location ?? ''].flat()[0] ?? ''),
        headersSize: -1,
        bodySize: answer ? answer.bodySize : -1,
      },
      cache: {},
      timings,
      ...(exchange.error === undefined ? {} : { _error: clean(exchange.error) }),
    };
  });
  return { log: { version: '1.2', creator: { ...context.creator }, entries } };
}

const UTF8 = new TextDecoder('utf-8', { fatal: true });

/** The content codings an answer declares, `identity` aside: `gzip`, `x-vendor, gzip`; empty for none. */
const codingOf = (headers: RecordedExchange['requestHeaders']) =>
  [headers['content-encoding'] ?? []]
    .flat()
    .join(', ')
    .split(',')
    .map((coding) => coding.trim())
    .filter((coding) => coding !== '' && coding.toLowerCase() !== 'identity')
    .join(', ');

/**
 * A body as HAR text, redacted: UTF-8, or base64 when it is not (a content coding that would not
 * decode, say), redacted byte for byte first, each secret form read as the bytes it is in UTF-8.
 */
function bodyText(
  body: Buffer,
  hidden: readonly string[],
  clean: (text: string) => string,
): { text: string; encoding?: 'base64' } {
  let text: string;
  try {
    text = UTF8.decode(body);
  } catch {
    const asBytes = hidden.map((form) => Buffer.from(form, 'utf8').toString('latin1'));
    const redacted = redact(body.toString('latin1'), asBytes);
    return { text: Buffer.from(redacted, 'latin1').toString('base64'), encoding: 'base64' };
  }
  return { text: clean(text) };
}

/** Milliseconds to three decimals: HAR wants numbers, tools show them. */
const round = (ms: number) => Math.round(ms * 1000) / 1000;

/** Writes the HAR log to `path` (`verify-exchanges.har` in the report folder), redacted once more on the way out. */
export async function writeHar(
  path: string,
  har: ReturnType<typeof toHar>,
  secrets: readonly string[],
): Promise<string> {
  await writeFile(path, redact(`${JSON.stringify(har, null, 2)}\n`, secrets));
  return path;
}
