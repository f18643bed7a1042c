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
