import { REDACTED } from '@print-contracts/client';

/** Headers that describe one connection, not the message: never forwarded. */
export const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-authenticate',
  'proxy-authorization',
  'proxy-connection',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
  'host',
  'content-length',
]);

/** A body with every secret replaced; the buffer itself when none occurs in it. */
export function redactBuffer(body: Buffer, secrets: readonly string[]): Buffer {
  let out = body;
  for (const secret of secrets) {
    if (!secret || out.indexOf(secret) < 0) continue;
    out = Buffer.from(out.toString('utf8').split(secret).join(REDACTED), 'utf8');
  }
  return out;
}

const FAILURES: Readonly<Record<string, string>> = {
  UND_ERR_CONNECT_TIMEOUT: 'timed out connecting',
  UND_ERR_HEADERS_TIMEOUT: 'timed out waiting for the answer',
  UND_ERR_BODY_TIMEOUT: 'timed out waiting for the rest of the answer',
  ECONNREFUSED: 'refused the connection',
  ECONNRESET: 'dropped the connection before answering completely',
  EPIPE: 'dropped the connection before answering completely',
  UND_ERR_SOCKET: 'dropped the connection before answering completely',
  UND_ERR_CLOSED: 'dropped the connection before answering completely',
  UND_ERR_RES_CONTENT_LENGTH_MISMATCH: 'sent a body shorter than its Content-Length (truncated answer)',
  ENOTFOUND: 'could not be found (DNS)',
  EAI_AGAIN: 'could not be found (DNS)',
  UND_ERR_ABORTED: 'was abandoned: the run was interrupted',
  ABORT_ERR: 'was abandoned: the run was interrupted',
};

/** What went wrong below HTTP, in words: "the target timed out waiting for the answer". */
export function describeTransportFailure(error: unknown): string {
  const code =
    (error as { code?: unknown } | null)?.code ??
    (error as { cause?: { code?: unknown } } | null)?.cause?.code;
  const known = typeof code === 'string' ? FAILURES[code] : undefined;
  if (known) return `the target ${known}`;
  return `the request to the target failed: ${error instanceof Error ? error.message : String(error)}`;
}

/** The answer's headers arrived, its body did not arrive whole. */
export class IncompleteBodyError extends Error {
  constructor(cause: unknown) {
    super('incomplete body', { cause });
  }
}

/** Why a body stopped short: too slow, or the connection closed mid-answer (a truncated answer). */
export function describeIncompleteBody(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  if (code === 'UND_ERR_BODY_TIMEOUT') return 'the target timed out waiting for the rest of the answer';
  if (code === 'UND_ERR_ABORTED' || code === 'ABORT_ERR')
    return 'the request was abandoned: the run was interrupted';
  return 'the target closed the connection before the body was complete (truncated answer)';
}
