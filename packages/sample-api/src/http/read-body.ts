import type { IncomingMessage } from 'node:http';
import { ApiAnswerError } from '../errors/api-answer-error.js';
import { ClientGoneError } from '../errors/client-gone-error.js';

const tooLarge = (limit: number) =>
  new ApiAnswerError(413, `Request body too large: the limit is ${limit} bytes`);

/**
 * Reads the whole body, refusing (413) as soon as it passes `limit`; the rest is drained by
 * node:http after the answer, so the connection stays usable.
 */
export function readBody(req: IncomingMessage, limit: number): Promise<Buffer> {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > limit) return Promise.reject(tooLarge(limit));
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const cleanup = () => {
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onGone);
      req.off('aborted', onGone);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        cleanup();
        req.resume();
        reject(tooLarge(limit));
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = () => {
      cleanup();
      resolve(chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks, size));
    };
    const onGone = () => {
      cleanup();
      reject(new ClientGoneError());
    };
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onGone);
    req.on('aborted', onGone);
  });
}

/**
 * The request's JSON body, or `undefined` when it sent none, whatever its declared
 * Content-Type: the vendor's own PHP examples send JSON as form data (curl's default).
 * Malformed JSON is a 400 that quotes the parser.
 */
export async function readJsonBody(req: IncomingMessage, limit: number): Promise<unknown> {
  const raw = await readBody(req, limit);
  if (raw.length === 0) return undefined;
  const text = raw.toString('utf8');
  if (text.trim() === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    const reason = error instanceof SyntaxError ? error.message : 'unreadable';
    throw new ApiAnswerError(400, `Malformed JSON body: ${reason}`);
  }
}
