import type { ServerResponse } from 'node:http';
import { ApiAnswerError } from '../errors/api-answer-error.js';
import { isClientGoneError } from '../errors/client-gone-error.js';

/** What the server sends back: a status, a serialized JSON body and extra headers. */
export interface Answer {
  readonly status: number;
  /** Already serialized, so a cached order is never serialized twice. */
  readonly body: string;
  readonly headers?: Readonly<Record<string, string>> | undefined;
}

export const JSON_TYPE = 'application/json; charset=utf-8';

/** An answer whose body is `value` as JSON. */
export const jsonAnswer = (status: number, value: unknown, headers?: Record<string, string>): Answer => ({
  status,
  body: JSON.stringify(value),
  headers,
});

/** The JSON error answer for a refusal. */
export const errorAnswer = (error: ApiAnswerError): Answer =>
  jsonAnswer(error.status, error.toBody(), error.headers);

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

/** Answers with what was thrown, unless the client went while sending its body. */
export function answerWith(res: ServerResponse, error: unknown): void {
  if (!isClientGoneError(error)) send(res, answerFor(error));
}
