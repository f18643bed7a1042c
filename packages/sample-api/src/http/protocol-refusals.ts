import { type IncomingMessage, type ServerResponse, STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import { OPERATION_NAMES, operations } from '@print-contracts/client';
import { ApiAnswerError } from '../errors/api-answer-error.js';
import { errorAnswer, JSON_TYPE, send } from './answer.js';

/** Every method the API answers on some path. */
const API_METHODS = [...new Set(OPERATION_NAMES.map((name) => operations[name].method))].join(', ');

/**
 * Writes a JSON refusal straight to a socket that node:http does not answer on (an unparsable
 * request, a CONNECT tunnel) and closes it: the same `{ "message" }` body as every other answer.
 */
function writeRaw(socket: Duplex, refusal: ApiAnswerError): void {
  const answer = errorAnswer(refusal);
  const headers = {
    'content-type': JSON_TYPE,
    'content-length': String(Buffer.byteLength(answer.body)),
    ...answer.headers,
    connection: 'close',
  };
  const head = Object.entries(headers)
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join('');
  socket.end(`HTTP/1.1 ${answer.status} ${STATUS_CODES[answer.status]}\r\n${head}\r\n${answer.body}`);
}

/** The refusals of a request node:http could not parse, by its error code; any other is a 400. */
const UNPARSABLE: Readonly<Record<string, readonly [number, string]>> = {
  HPE_HEADER_OVERFLOW: [431, 'Request headers too large'],
  ERR_HTTP_REQUEST_TIMEOUT: [408, 'Request timed out before it was complete'],
};

/** A request node:http could not parse (`clientError`): 400, 408 or 431 as JSON. */
export function refuseUnparsable(error: Error & { code?: string }, socket: Duplex): void {
  if (error.code === 'ECONNRESET' || !socket.writable) {
    socket.destroy();
    return;
  }
  const [status, message] = UNPARSABLE[error.code ?? ''] ?? [
    400,
    `Malformed HTTP request (${error.code ?? 'unparsable'})`,
  ];
  writeRaw(socket, new ApiAnswerError(status, message));
}

/**
 * An `Expect` header other than `100-continue` (`checkExpectation`): 417 as JSON, where
 * node:http would send an empty body. The connection closes after it, since the client may or
 * may not send the body it announced. (`100-continue` stays node:http's: it answers 100 and
 * the request goes on as usual.)
 */
export function refuseExpectation(req: IncomingMessage, res: ServerResponse): void {
  const expectation = String(req.headers.expect ?? '').slice(0, 80);
  send(
    res,
    errorAnswer(
      new ApiAnswerError(417, `Expectation "${expectation}" cannot be met: only 100-continue is supported`, {
        headers: { connection: 'close' },
      }),
    ),
  );
}

/**
 * A CONNECT request (`connect`), which node:http would close without a word: 405 as JSON,
 * since the sample API is no proxy, then the connection closes.
 */
export function refuseConnect(req: IncomingMessage, socket: Duplex): void {
  socket.on('error', () => socket.destroy());
  writeRaw(
    socket,
    new ApiAnswerError(
      405,
      `CONNECT ${String(req.url ?? '').slice(0, 200)} is not supported: the sample API is not a proxy`,
      { headers: { allow: API_METHODS } },
    ),
  );
}
