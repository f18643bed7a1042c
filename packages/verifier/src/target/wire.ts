import { REDACTED, secretForms } from '@print-contracts/client';

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

/** A body with every form of every secret replaced; the buffer itself when none occurs in it. */
export function redactBuffer(body: Buffer, secrets: readonly string[]): Buffer {
  let out = body;
  for (const secret of secrets) {
    for (const form of secretForms(secret)) {
      if (out.indexOf(form) < 0) continue;
      out = Buffer.from(out.toString('utf8').split(form).join(REDACTED), 'utf8');
    }
  }
  return out;
}

/** Certificate failures: the target answers, but cannot be trusted. */
const UNTRUSTED = new Set([
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'CERT_HAS_EXPIRED',
  'CERT_NOT_YET_VALID',
  'CERT_REVOKED',
  'CERT_UNTRUSTED',
  'ERR_TLS_CERT_ALTNAME_INVALID',
  'ERR_SSL_WRONG_VERSION_NUMBER',
]);

/** No connection could even be made: nothing was sent, so nothing was processed. */
const NOT_CONNECTED = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'UND_ERR_CONNECT_TIMEOUT',
]);

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
  EHOSTUNREACH: 'could not be reached (no route to host)',
  ENETUNREACH: 'could not be reached (network unreachable)',
  UND_ERR_ABORTED: 'was abandoned: the run was interrupted',
  ABORT_ERR: 'was abandoned: the run was interrupted',
};

/** The code of a transport error, or of its cause (undici wraps the socket's). */
function failureCode(error: unknown): string | undefined {
  const code =
    (error as { code?: unknown } | null)?.code ??
    (error as { cause?: { code?: unknown } } | null)?.cause?.code;
  return typeof code === 'string' ? code : undefined;
}

/** True when no connection was made: the request never left, and may safely be sent again. */
export const notConnected = (error: unknown) => NOT_CONNECTED.has(failureCode(error) ?? '');

/** True when the target's TLS certificate is not trusted. */
export const untrusted = (error: unknown) => UNTRUSTED.has(failureCode(error) ?? '');

/** What went wrong below HTTP, in words: "the target timed out waiting for the answer". */
export function describeTransportFailure(error: unknown): string {
  const code = failureCode(error);
  if (code !== undefined && UNTRUSTED.has(code)) {
    return `the target's TLS certificate is not trusted (${code}); give its CA with NODE_EXTRA_CA_CERTS`;
  }
  const known = code === undefined ? undefined : FAILURES[code];
  if (known) return `the target ${known}`;
  return `the request to the target failed: ${error instanceof Error ? error.message : String(error)}`;
}

/** Why a body stopped short: too slow, or the connection closed mid-answer (a truncated answer). */
export function describeIncompleteBody(error: unknown): string {
  const code = failureCode(error);
  if (code === 'UND_ERR_BODY_TIMEOUT') return 'the target timed out waiting for the rest of the answer';
  if (code === 'UND_ERR_ABORTED' || code === 'ABORT_ERR')
    return 'the request was abandoned: the run was interrupted';
  return 'the target closed the connection before the body was complete (truncated answer)';
}
