import type { IncomingMessage } from 'node:http';
import { ApiAnswerError } from '../errors/api-answer-error.js';
import { ClientGoneError } from '../errors/client-gone-error.js';

const JSON_MEDIA_TYPE = /^\s*application\/(?:[\w.+-]+\+)?json\s*(?:;|$)/i;

const tooLarge = (limit: number) =>
  new ApiAnswerError(413, `Request body too large: the limit is ${limit} bytes`);

/** True when the request announces a body (a length above 0, or chunked transfer). */
export function announcesBody(req: IncomingMessage): boolean {
  const length = req.headers['content-length'];
  if (length !== undefined) return length !== '0';
  return req.headers['transfer-encoding'] !== undefined;
}

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
 * The request's JSON body, or `undefined` when it sent none. `strictType` refuses (415) a
 * body that is not declared as JSON; malformed JSON is a 400 that quotes the parser.
 */
export async function readJsonBody(
  req: IncomingMessage,
  limit: number,
  strictType: boolean,
): Promise<unknown> {
  if (strictType && announcesBody(req)) {
    const type = req.headers['content-type'];
    if (type === undefined || !JSON_MEDIA_TYPE.test(type)) {
      throw new ApiAnswerError(
        415,
        type === undefined
          ? 'Missing Content-Type: send the body as application/json'
          : `Unsupported Content-Type "${type.slice(0, 80)}": send the body as application/json`,
      );
    }
  }
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
