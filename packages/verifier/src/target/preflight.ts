import {
  DEFAULT_VERSION_HEADER,
  ENV,
  SECRET_HEADER,
  USER_ID_HEADER,
  versionHeaderValue,
} from '@print-contracts/client';
import { UNKNOWN_ORDER_ID, WRONG_SECRET } from '@print-contracts/client/kit';
import { CONTROL_BASE_PATH, FAULTS_PATH } from '@print-contracts/sample-api/control-surface';
import type { Dispatcher } from 'undici';
import { TargetError } from '../errors/index.js';
import { OTHER_SECRET_ENV, OTHER_USER_ID_ENV } from '../options/credentials.js';
import type { Target } from './target.js';
import { type Lost, sendWithRetries, type Transport } from './transport.js';

/**
 * Statuses HTTP gives a cause of their own (a wrong path or method, a version or media type not
 * served, a request too large, throttling): never taken for a refusal of the credentials, even
 * when a wrong secret gets the same.
 */
const OTHER_CAUSES: ReadonlySet<number> = new Set([
  404, 405, 406, 407, 408, 409, 410, 411, 412, 413, 414, 415, 416, 417, 421, 426, 428, 429, 431, 451,
]);

/** A refusal that may be the vendor's answer to credentials it does not take (it documents none). */
const mayRefuseCredentials = (status: number | Lost): status is number =>
  typeof status === 'number' && status >= 400 && status < 500 && !OTHER_CAUSES.has(status);

/**
 * Checks, read-only and before anything is arranged, that the target answers, can be trusted
 * and accepts the credentials, and that a declared control surface exists: an unreachable or
 * untrusted target is exit 2 with one reason, not a column of failures. Any answer but a
 * refusal counts as reachable, even a misbehaving one: the contracts judge what answers hold.
 * Its requests are retried like every other of the run (a throttling target is waited out).
 *
 * Credentials are refused on a 401 or a 403; the vendor documents no status for them, so at a
 * `--base-url` any other refusal counts too when a wrong secret (the contracts' own, never one of
 * the user's) gets the same status, both for the list and for a read of an unknown order in v2:
 * the list alone may be refused for everyone (v1 no longer served, say). The list with the wrong
 * secret goes out beside the real one, and is not waited for once that one is answered otherwise
 * (a vendor may answer a wrong secret slowly); the reads only follow such a refusal. A target that
 * answers any credentials alike (sample data) is a target whose answers the contracts judge.
 */
export async function preflight(
  dispatcher: Dispatcher,
  target: Target,
  timeoutMs: number,
  transport: Transport,
  /** A signal before anything was created ends a wait between attempts at once. */
  signal?: AbortSignal,
): Promise<void> {
  const request = (url: URL, headers: Record<string, string>) =>
    ({ origin: url.origin, path: `${url.pathname}${url.search}`, method: 'GET', headers }) as const;
  /** The status of a GET, or why no complete answer came when a server is there (a fault). */
  const statusOf = async (url: URL, headers: Record<string, string> = {}): Promise<number | Lost> => {
    const { last } = await sendWithRetries(dispatcher, request(url, headers), transport, {
      timeoutMs,
      ...(signal ? { signal } : {}),
    });
    if (last.answered) return last.status;
    if (!last.unsent && !last.hopeless) return last.error as Lost;
    const { failure, cause } = last.error as Lost;
    throw new TargetError(`cannot use the target at ${url.origin}: ${failure}`, { cause });
  };
  /**
   * The status of a GET sent only to compare with, or undefined: no answer, or `abandon` (or a
   * signal) ended a wait between its attempts. Abandoned, an attempt in flight still ends like any
   * other (the HAR has its answer); a signal ends it at once.
   */
  const comparedOf = async (url: URL, headers: Record<string, string>, abandon: AbortSignal) => {
    const waits = signal ? AbortSignal.any([abandon, signal]) : abandon;
    const { last } = await sendWithRetries(
      dispatcher,
      { ...request(url, headers), ...(signal ? { signal } : {}) },
      transport,
      { timeoutMs, signal: waits },
    ).catch(() => ({ last: undefined }));
    return last?.answered ? last.status : undefined;
  };

  const orders = new URL(`${target.baseUrl}/orders?limit=1`);
  const order = new URL(`${target.baseUrl}/orders/${UNKNOWN_ORDER_ID}`);
  const v2 = { [DEFAULT_VERSION_HEADER.name]: versionHeaderValue('v2') };
  const { main, other } = target.credentials;
  const checks = Object.entries({ main, second: other }).map(async ([which, credentials]) => {
    if (!credentials) return;
    const headers = { [USER_ID_HEADER]: credentials.userId, [SECRET_HEADER]: credentials.secret };
    const wrong = { ...headers, [SECRET_HEADER]: WRONG_SECRET };
    const compare = target.kind === 'url' && credentials.secret !== WRONG_SECRET;
    const abandon = new AbortController();
    const listedWrong = compare ? comparedOf(orders, wrong, abandon.signal) : Promise.resolve(undefined);
    try {
      const status = await statusOf(orders, headers);
      if (typeof status !== 'number' && which === 'main') {
        // A fault of the list, or a target that answers nothing at all: a read of one order tells.
        const read = await statusOf(order, headers);
        if (typeof read !== 'number') {
          throw new TargetError(
            `cannot use the target at ${orders.origin}: it gave no complete answer to GET ${orders.pathname} (${status.failure}) nor to GET ${order.pathname} (${read.failure})`,
          );
        }
      }
      if (status === 401 || status === 403) {
        throw refused(which, credentials.userId, `status ${status}`, `GET ${orders.pathname}`);
      }
      if (!mayRefuseCredentials(status) || (await listedWrong) !== status) return;
      const [read, readWrong] = await Promise.all([
        statusOf(order, { ...headers, ...v2 }),
        comparedOf(order, { ...wrong, ...v2 }, abandon.signal),
      ]);
      if (read === 401 || read === 403) {
        throw refused(which, credentials.userId, `status ${read}`, `GET ${order.pathname}`);
      }
      if (mayRefuseCredentials(read) && read === readWrong) {
        const statuses = read === status ? `status ${status}` : `statuses ${status} and ${read}`;
        const on = `GET ${orders.pathname} and GET ${order.pathname}`;
        throw refused(which, credentials.userId, `${statuses}, as a wrong secret gets`, on);
      }
    } finally {
      abandon.abort();
    }
  });
  const { controlOrigin } = target;
  if (controlOrigin) {
    const control = statusOf(new URL(FAULTS_PATH, controlOrigin)).then((status) => {
      if (typeof status === 'number' && status !== 200) {
        throw new TargetError(
          `--control is set, but ${controlOrigin}${CONTROL_BASE_PATH} is no control surface (status ${status})`,
        );
      }
    });
    checks.push(control);
  }
  await Promise.all(checks);
}

/** Exit 2 with one line: the credentials were refused (`seen` on the requests `on`), and where they come from. */
function refused(which: string, userId: string, seen: string, on: string): TargetError {
  const where =
    which === 'main'
      ? `${ENV.userId} and ${ENV.secret} (or --user-id and --secret-file)`
      : `${OTHER_USER_ID_ENV} and ${OTHER_SECRET_ENV} (or --other-user-id and --other-secret-file)`;
  return new TargetError(
    `the target refused the ${which} credentials (user "${userId}", ${seen}) on ${on}; check ${where}: the secret may be mistyped, or the set revoked or rotated at the vendor`,
  );
}
