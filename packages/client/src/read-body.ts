import * as zlib from 'node:zlib';
import { type Dispatcher, errors } from 'undici';

/**
 * No answer the vendor documents comes near this (a page of 50 orders is a few kB): a bigger one
 * is cut off rather than held in memory (a 300 MB answer once took a run to 3 GB and a crash).
 */
export const MAX_ANSWER_BYTES = 16 * 1024 * 1024;

/**
 * The whole body of an answer, within `timeoutMs` of its headers and `MAX_ANSWER_BYTES`. undici's
 * `bodyTimeout` bounds only the pause between two chunks, so a target trickling a byte a second
 * would hold a request for ever; past the bound the body fails as undici's own body timeout does.
 */
export async function readBody(body: Dispatcher.ResponseData['body'], timeoutMs: number): Promise<Buffer> {
  const timer = setTimeout(() => body.destroy(new errors.BodyTimeoutError()), timeoutMs);
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of body as AsyncIterable<Buffer>) {
      size += chunk.length;
      // Leaving the loop destroys the body, which ends the request.
      if (size > MAX_ANSWER_BYTES) throw new errors.ResponseExceededMaxSizeError();
      chunks.push(chunk);
    }
    return Buffer.concat(chunks);
  } finally {
    clearTimeout(timer);
  }
}

type Decoder = (data: Buffer, options: zlib.ZlibOptions) => Buffer;

/** HTTP's `deflate` is zlib-wrapped (RFC 9110 §8.4.1.2); some servers send it raw. */
const inflate: Decoder = (data, options) => {
  try {
    return zlib.inflateSync(data, options);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'Z_DATA_ERROR') throw error;
    return zlib.inflateRawSync(data, options);
  }
};

/** The content codings undone; zstd where Node has it (22.15 and later). */
const DECODERS: Readonly<Record<string, Decoder>> = {
  gzip: zlib.gunzipSync,
  'x-gzip': zlib.gunzipSync,
  deflate: inflate,
  br: zlib.brotliDecompressSync,
  ...('zstdDecompressSync' in zlib ? { zstd: zlib.zstdDecompressSync as Decoder } : {}),
};

/**
 * `body` as its reader takes it: without the content codings its `Content-Encoding` names,
 * undone last to first, and without a UTF-8 byte order mark, which JSON readers drop (RFC 8259
 * §8.1; undici's `text()` and `fetch` do). A request without `Accept-Encoding` accepts any
 * coding (RFC 9110 §12.5.3), so a vendor may compress what the kit never asked to be
 * compressed; the contract is about what was encoded. The decoded body is bounded as an answer
 * is (`MAX_ANSWER_BYTES`). Undefined when a coding is unknown or the bytes do not decode: the
 * answer is then read as it came.
 */
export function decodeContent(
  body: Buffer,
  contentEncoding: string | string[] | undefined,
): Buffer | undefined {
  const codings = [contentEncoding ?? []]
    .flat()
    .join(',')
    .split(',')
    .map((coding) => coding.trim().toLowerCase())
    .filter((coding) => coding !== '' && coding !== 'identity');
  // An empty body (a 204, a HEAD) has nothing coded, whatever the header says.
  if (body.length === 0) return body;
  // More codings than any server stacks is a decompression bomb in the making (undici allows 5).
  if (codings.length > 5) return undefined;
  let decoded = body;
  for (const coding of codings.reverse()) {
    const decode = DECODERS[coding];
    if (!decode) return undefined;
    try {
      decoded = decode(decoded, { maxOutputLength: MAX_ANSWER_BYTES });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE') {
        throw new errors.ResponseExceededMaxSizeError();
      }
      return undefined;
    }
  }
  return decoded.subarray(0, 3).equals(BYTE_ORDER_MARK) ? decoded.subarray(3) : decoded;
}

const BYTE_ORDER_MARK = Buffer.from([0xef, 0xbb, 0xbf]);
