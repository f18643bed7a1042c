import { decodeContent } from '@print-contracts/client/kit';
import type { Dispatcher } from 'undici';

type Headers = Readonly<Record<string, string | string[] | undefined>>;

/** One request the run sent to the target, as it went and as it came back, unredacted: kept in memory only. */
export interface RecordedExchange {
  readonly startedAt: Date;
  readonly method: string;
  /** Origin, path and query. */
  readonly url: string;
  readonly requestHeaders: Headers;
  /** Undefined when the request had no body, or one the recorder cannot read without consuming it (a stream). */
  readonly requestBody: Buffer | undefined;
  readonly requestBodyStreamed: boolean;
  /** Absent when no answer came (a refused connection, a timeout). */
  readonly response?: {
    readonly status: number;
    readonly statusText: string;
    readonly headers: Headers;
    /** Without its content codings, unless one would not decode (then as it came). */
    readonly body: Buffer;
    /** Bytes on the wire: the body before its content codings were undone. */
    readonly bodySize: number;
    /** Whether `body` is the decoded form of a coded answer. */
    readonly decoded: boolean;
  };
  readonly error?: string;
  /** Milliseconds from sending to the answer's headers, and from there to its last byte. */
  readonly waitMs: number;
  readonly receiveMs: number;
}

function bodyOf(body: unknown): { body: Buffer | undefined; streamed: boolean } {
  if (body === undefined || body === null) return { body: undefined, streamed: false };
  if (typeof body === 'string') return { body: Buffer.from(body, 'utf8'), streamed: false };
  if (Buffer.isBuffer(body)) return { body, streamed: false };
  if (body instanceof Uint8Array) return { body: Buffer.from(body), streamed: false };
  return { body: undefined, streamed: true };
}

/** The body as the run read it: the transport undoes the same codings. */
function plain(raw: Buffer, headers: Headers): { body: Buffer; bodySize: number; decoded: boolean } {
  const coding = headers['content-encoding'];
  const coded =
    [coding ?? []]
      .flat()
      .join(',')
      .replace(/identity|[\s,]/gi, '') !== '';
  let decoded: Buffer | undefined;
  try {
    decoded = decodeContent(raw, coding);
  } catch {
    // Past the size bound: the transport failed that answer; the record keeps what came.
  }
  return { body: decoded ?? raw, bodySize: raw.length, decoded: coded && decoded !== undefined };
}

function headersOf(headers: Dispatcher.DispatchOptions['headers']): Headers {
  if (!headers) return {};
  if (Array.isArray(headers)) {
    const out: Record<string, string> = {};
    for (let index = 0; index + 1 < headers.length; index += 2) {
      out[String(headers[index])] = String(headers[index + 1]);
    }
    return out;
  }
  if (typeof (headers as Iterable<unknown>)[Symbol.iterator] === 'function') {
    return Object.fromEntries(headers as Iterable<[string, string]>);
  }
  return headers as Headers;
}

/**
 * Records every exchange with the target at the one seam all of the run's requests share: an
 * undici interceptor on `TargetClients`' dispatcher (probe, arrange, replay, settle). Requests
 * to other origins (a Pact Broker) pass unrecorded. Nothing is redacted here; the HAR writer
 * and the drift check read `exchanges`.
 */
export class ExchangeRecorder {
  readonly #origins: ReadonlySet<string>;
  readonly #exchanges: RecordedExchange[] = [];

  constructor(origins: readonly (string | undefined)[]) {
    this.#origins = new Set(origins.flatMap((origin) => (origin ? [new URL(origin).origin] : [])));
  }

  /** What was recorded so far, in the order the requests were sent. */
  get exchanges(): readonly RecordedExchange[] {
    return this.#exchanges;
  }

  /** The interceptor for `dispatcher.compose`. */
  interceptor(): Dispatcher.DispatcherComposeInterceptor {
    return (dispatch) => (options, handler) => {
      const origin = options.origin === undefined ? '' : new URL(String(options.origin)).origin;
      if (!this.#origins.has(origin)) return dispatch(options, handler);
      return dispatch(options, this.#recording(origin, options, handler));
    };
  }

  #recording(
    origin: string,
    options: Dispatcher.DispatchOptions,
    handler: Dispatcher.DispatchHandler,
  ): Dispatcher.DispatchHandler {
    const startedAt = new Date();
    const t0 = performance.now();
    let tHeaders: number | undefined;
    let response: { status: number; statusText: string; headers: Headers } | undefined;
    const chunks: Buffer[] = [];
    const { body, streamed } = bodyOf(options.body);
    const record = (error?: Error) => {
      const end = performance.now();
      const wait = (tHeaders ?? end) - t0;
      this.#exchanges.push({
        startedAt,
        method: options.method,
        url: `${origin}${options.path}`,
        requestHeaders: headersOf(options.headers),
        requestBody: body,
        requestBodyStreamed: streamed,
        ...(response ? { response: { ...response, ...plain(Buffer.concat(chunks), response.headers) } } : {}),
        ...(error ? { error: error.message } : {}),
        waitMs: Math.max(0, wait),
        receiveMs: tHeaders === undefined ? 0 : Math.max(0, end - tHeaders),
      });
    };
    return {
      onRequestStart: (controller, context) => handler.onRequestStart?.(controller, context),
      onRequestUpgrade: (controller, statusCode, headers, socket) =>
        handler.onRequestUpgrade?.(controller, statusCode, headers, socket),
      onResponseStart: (controller, statusCode, headers, statusMessage) => {
        if (statusCode >= 200) {
          tHeaders = performance.now();
          response = { status: statusCode, statusText: statusMessage ?? '', headers: { ...headers } };
        }
        return handler.onResponseStart?.(controller, statusCode, headers, statusMessage);
      },
      onResponseData: (controller, chunk) => {
        chunks.push(Buffer.from(chunk));
        return handler.onResponseData?.(controller, chunk);
      },
      onResponseEnd: (controller, trailers) => {
        record();
        return handler.onResponseEnd?.(controller, trailers);
      },
      onResponseError: (controller, error) => {
        record(error);
        return handler.onResponseError?.(controller, error);
      },
    };
  }
}
