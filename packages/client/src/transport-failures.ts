import type { TransportFailure } from './errors/transport-error.js';
import { MAX_ANSWER_BYTES } from './read-body.js';

interface CodeMeaning {
  readonly failure: TransportFailure;
  /** What the server did, after "the target …"; without it the error's own message is shown. */
  readonly says?: string;
  /** No connection was made: nothing was sent, so the request may safely be sent again. */
  readonly unsent?: true;
  /** The server answers, but its TLS certificate cannot be trusted (or it speaks no TLS at all). */
  readonly untrusted?: true;
  /** Refused here, before anything was sent (a header no HTTP message can carry): sending again cannot help. */
  readonly local?: true;
  /** What to do about it, after the code: leads the user to the fix. */
  readonly fix?: string;
}

const DROPPED = 'dropped the connection before answering completely';
const ABANDONED = 'was abandoned: the run was interrupted';
const UNTRUSTED_CODES = [
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
];
/** An https:// URL to a server that answers in plain HTTP: no certificate is involved at all. */
const NO_TLS_CODES = ['ERR_SSL_WRONG_VERSION_NUMBER', 'ERR_SSL_PACKET_LENGTH_TOO_LONG'];

/** The one table of undici and socket error codes; any other code is a `network` failure. */
const CODES: Readonly<Record<string, CodeMeaning>> = {
  UND_ERR_CONNECT_TIMEOUT: { failure: 'timeout', says: 'timed out connecting', unsent: true },
  UND_ERR_HEADERS_TIMEOUT: { failure: 'timeout', says: 'timed out waiting for the answer' },
  UND_ERR_BODY_TIMEOUT: { failure: 'timeout', says: 'timed out waiting for the rest of the answer' },
  ETIMEDOUT: { failure: 'timeout' },
  ECONNREFUSED: { failure: 'refused', says: 'refused the connection', unsent: true },
  ECONNRESET: { failure: 'reset', says: DROPPED },
  EPIPE: { failure: 'reset', says: DROPPED },
  UND_ERR_SOCKET: { failure: 'reset', says: DROPPED },
  UND_ERR_CLOSED: { failure: 'network', says: DROPPED },
  UND_ERR_RES_CONTENT_LENGTH_MISMATCH: {
    failure: 'reset',
    says: 'sent a body shorter than its Content-Length (truncated answer)',
  },
  UND_ERR_RES_EXCEEDED_MAX_SIZE: {
    failure: 'network',
    says: `sent an answer larger than ${MAX_ANSWER_BYTES / 1024 / 1024} MB (cut off)`,
  },
  ENOTFOUND: { failure: 'dns', says: 'could not be found (DNS)', unsent: true },
  EAI_AGAIN: { failure: 'dns', says: 'could not be found (DNS)', unsent: true },
  EHOSTUNREACH: { failure: 'network', says: 'could not be reached (no route to host)', unsent: true },
  ENETUNREACH: { failure: 'network', says: 'could not be reached (network unreachable)', unsent: true },
  UND_ERR_ABORTED: { failure: 'aborted', says: ABANDONED },
  UND_ERR_INVALID_ARG: { failure: 'network', local: true },
  ABORT_ERR: { failure: 'aborted', says: ABANDONED },
  ...Object.fromEntries(UNTRUSTED_CODES.map((code) => [code, { failure: 'network', untrusted: true }])),
  ...Object.fromEntries(
    NO_TLS_CODES.map((code) => [
      code,
      {
        failure: 'network',
        untrusted: true,
        fix: 'does not speak TLS on that port; if it serves plain HTTP, use an http:// URL',
      },
    ]),
  ),
};

/** The first code of the error, or of its cause (undici wraps the socket's), that the table knows. */
function knownCode(error: unknown): string | undefined {
  const codes = [
    (error as { code?: unknown } | null)?.code,
    (error as { cause?: { code?: unknown } } | null)?.cause?.code,
  ];
  return codes.find((code): code is string => typeof code === 'string' && Object.hasOwn(CODES, code));
}

const meaningOf = (error: unknown) => CODES[knownCode(error) ?? ''];

/** The `TransportError` failure of what a request threw; a caller's abort wins over the code. */
export function transportFailure(error: unknown, signal: AbortSignal | undefined): TransportFailure {
  return signal?.aborted ? 'aborted' : (meaningOf(error)?.failure ?? 'network');
}

/** True when no connection was made: the request never left, and may safely be sent again. */
export const notConnected = (error: unknown) => meaningOf(error)?.unsent === true;

/** True when the target's TLS certificate is not trusted. */
export const untrusted = (error: unknown) => meaningOf(error)?.untrusted === true;

/** True when sending again cannot help: an untrusted target, or a request refused before it left. */
export const hopeless = (error: unknown) => untrusted(error) || meaningOf(error)?.local === true;

/** What went wrong below HTTP, in words: "the target timed out waiting for the answer". */
export function describeTransportFailure(error: unknown): string {
  const code = knownCode(error);
  const meaning = CODES[code ?? ''];
  if (meaning?.fix) return `the target ${meaning.fix} (${code})`;
  if (meaning?.untrusted) {
    return `the target's TLS certificate is not trusted (${code}); give its CA with NODE_EXTRA_CA_CERTS`;
  }
  if (meaning?.says) return `the target ${meaning.says}`;
  const message = error instanceof Error ? error.message : String(error);
  if (meaning?.local) return `the request could not be sent: ${message} (nothing reached the target)`;
  return `the request to the target failed: ${message}`;
}

/** Why a body stopped short: too slow, or the connection closed mid-answer (a truncated answer). */
export function describeIncompleteBody(error: unknown): string {
  const code = knownCode(error);
  if (code === 'UND_ERR_BODY_TIMEOUT') return 'the target timed out waiting for the rest of the answer';
  if (CODES[code ?? '']?.failure === 'aborted') return 'the request was abandoned: the run was interrupted';
  if (code === 'UND_ERR_RES_EXCEEDED_MAX_SIZE') return `the target ${CODES[code]?.says}`;
  return 'the target closed the connection before the body was complete (truncated answer)';
}
