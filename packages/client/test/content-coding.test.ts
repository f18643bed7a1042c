import * as zlib from 'node:zlib';
import { errors } from 'undici';
import { describe, expect, it } from 'vitest';
import { HttpError, ResponseValidationError } from '../src/index.js';
import { decodeContent, MAX_ANSWER_BYTES } from '../src/kit.js';
import { ORDER_ID, orderDetail } from './support/fixtures.js';
import { type Handler, useScriptedServer } from './support/scripted-server.js';

const api = useScriptedServer();

type Encode = (data: Buffer) => Buffer;

/** Each coding a vendor may apply unasked, as `Content-Encoding` names it; zstd where Node has it. */
const CODINGS: [string, Encode][] = [
  ['gzip', zlib.gzipSync],
  ['x-gzip', zlib.gzipSync],
  ['deflate', zlib.deflateSync],
  // Some servers send HTTP's deflate without its zlib wrapper.
  ['deflate', zlib.deflateRawSync],
  ['br', zlib.brotliCompressSync],
  // Two codings, applied in the order listed: gzip first, then br.
  ['gzip, br', (data) => zlib.brotliCompressSync(zlib.gzipSync(data))],
  ['GZIP', zlib.gzipSync],
  ...('zstdCompressSync' in zlib ? [['zstd', zlib.zstdCompressSync as Encode] as [string, Encode]] : []),
];

function encoded(status: number, body: unknown, coding: string, encode: Encode): Handler {
  return (_request, response) => {
    const bytes = encode(Buffer.from(JSON.stringify(body)));
    response.writeHead(status, {
      'content-type': 'application/json',
      'content-encoding': coding,
      'content-length': String(bytes.length),
    });
    response.end(bytes);
  };
}

describe('an answer in a content coding the client did not ask for', () => {
  it.each(CODINGS)('reads an order sent as %s (%#)', async (coding, encode) => {
    api.server.handle(encoded(200, orderDetail, coding, encode));
    expect(await api.client().getOrder(ORDER_ID)).toEqual(orderDetail);
    // The client sends no Accept-Encoding: the vendor chose the coding.
    expect(api.server.request().headers['accept-encoding']).toBeUndefined();
  });

  it('reads the vendor message of a compressed error answer', async () => {
    api.server.handle(encoded(404, { message: 'Order not found' }, 'gzip', zlib.gzipSync));
    const error = await api
      .client()
      .getOrder(ORDER_ID)
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(HttpError);
    expect(error).toMatchObject({ status: 404, vendorMessage: 'Order not found' });
  });

  it('reports a coding it does not know as an answer that is not JSON, read as it came', async () => {
    api.server.handle(encoded(200, orderDetail, 'x-unknown', (data) => data.reverse()));
    const error = await api
      .client()
      .getOrder(ORDER_ID)
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect(String((error as Error).message)).toContain('is not valid JSON');
  });

  it('reads a body labelled gzip that is not gzip as it came', async () => {
    api.server.handle(encoded(200, orderDetail, 'gzip', (data) => data));
    expect(await api.client().getOrder(ORDER_ID)).toEqual(orderDetail);
  });
});

describe('decodeContent', () => {
  const text = Buffer.from('{"count":0}');

  it('returns the body itself when no coding, or only identity, is named, or it is empty', () => {
    expect(decodeContent(text, undefined)).toBe(text);
    expect(decodeContent(text, 'identity')).toBe(text);
    expect(decodeContent(text, ['identity', ''])).toBe(text);
    // A 204 or a HEAD answer with the header of the coding it would have used.
    expect(decodeContent(Buffer.alloc(0), 'gzip')).toEqual(Buffer.alloc(0));
  });

  it('drops a UTF-8 byte order mark, as JSON readers do, also from a decoded body', () => {
    const marked = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), text]);
    expect(decodeContent(marked, undefined)?.toString()).toBe('{"count":0}');
    expect(decodeContent(zlib.gzipSync(marked), 'gzip')?.toString()).toBe('{"count":0}');
  });

  it('undoes codings named in separate header lines, last to first', () => {
    const twice = zlib.deflateSync(zlib.gzipSync(text));
    expect(decodeContent(twice, ['gzip', 'deflate'])?.toString()).toBe('{"count":0}');
  });

  it('refuses more codings than any server stacks, without decoding any', () => {
    let body = text;
    for (let index = 0; index < 6; index++) body = zlib.gzipSync(body);
    expect(decodeContent(body, Array(6).fill('gzip'))).toBeUndefined();
  });

  it('fails a body that decodes to more than any answer, as one that arrived that large', () => {
    const bomb = zlib.gzipSync(Buffer.alloc(MAX_ANSWER_BYTES + 1, ' '));
    expect(bomb.length).toBeLessThan(MAX_ANSWER_BYTES / 100);
    expect(() => decodeContent(bomb, 'gzip')).toThrow(errors.ResponseExceededMaxSizeError);
  });
});
