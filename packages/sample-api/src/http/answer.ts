import type { ServerResponse } from 'node:http';
import { ApiAnswerError } from '../errors/api-answer-error.js';

/** What the server sends back: a status, a serialized JSON body and extra headers. */
export interface Answer {
  readonly status: number;
  /** Already serialized, so a cached order is never serialized twice. */
  readonly body: string;
  readonly headers?: Readonly<Record<string, string>>;
}

const JSON_TYPE = 'application/json; charset=utf-8';

/** An answer whose body is `value` as JSON. */
export const jsonAnswer = (status: number, value: unknown, headers?: Record<string, string>): Answer =>
  headers ? { status, body: JSON.stringify(value), headers } : { status, body: JSON.stringify(value) };

/** The JSON error answer for a refusal. */
export const errorAnswer = (error: ApiAnswerError): Answer =>
  error.headers
    ? { status: error.status, body: JSON.stringify(error.toBody()), headers: error.headers }
    : { status: error.status, body: JSON.stringify(error.toBody()) };

/** Stack traces never leave the process; the caller only learns that the simulator failed. */
const INTERNAL = new ApiAnswerError(
  500,
  'The sample API failed unexpectedly; this is a bug in the simulator',
);

/** Any thrown value as an answer: refusals keep their status, everything else is a bare 500. */
export function answerFor(error: unknown): Answer {
  if (error instanceof ApiAnswerError) return errorAnswer(error);
  const reason = error instanceof Error ? error.message : String(error);
  process.stderr.write(`sample-api: unexpected error: ${reason}\n`);
  return errorAnswer(INTERNAL);
}

/** Writes an answer, unless the client has already gone. */
export function send(res: ServerResponse, answer: Answer): void {
  if (res.headersSent || res.destroyed) return;
  res.writeHead(answer.status, {
    'content-type': JSON_TYPE,
    'content-length': Buffer.byteLength(answer.body),
    ...answer.headers,
  });
  res.end(answer.body);
}
