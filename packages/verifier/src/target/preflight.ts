import { ENV, SECRET_HEADER, USER_ID_HEADER } from '@print-contracts/client';
import { UNKNOWN_ORDER_ID } from '@print-contracts/client/kit';
import { CONTROL_BASE_PATH, FAULTS_PATH } from '@print-contracts/sample-api/control-surface';
import type { Dispatcher } from 'undici';
import { TargetError } from '../errors/index.js';
import { OTHER_SECRET_ENV, OTHER_USER_ID_ENV } from '../options/credentials.js';
import type { Target } from './target.js';
import { type Lost, sendWithRetries, type Transport } from './transport.js';

/**
 * Checks, read-only and before anything is arranged, that the target answers, can be trusted
 * and accepts the credentials, and that a declared control surface exists: an unreachable or
 * untrusted target is exit 2 with one reason, not a column of failures. Any answer but a
 * refusal counts as reachable, even a misbehaving one: the contracts judge what answers hold.
 * Its requests are retried like every other of the run (a throttling target is waited out).
 */
export async function preflight(
  dispatcher: Dispatcher,
  target: Target,
  timeoutMs: number,
  transport: Transport,
  /** A signal before anything was created ends a wait between attempts at once. */
  signal?: AbortSignal,
): Promise<void> {
  /** The status of a GET, or why no complete answer came when a server is there (a fault). */
  const statusOf = async (url: URL, headers: Record<string, string> = {}): Promise<number | Lost> => {
    const request = {
      origin: url.origin,
      path: `${url.pathname}${url.search}`,
      method: 'GET',
      headers,
    } as const;
    const { last } = await sendWithRetries(dispatcher, request, transport, {
      timeoutMs,
      ...(signal ? { signal } : {}),
    });
    if (last.answered) return last.status;
    if (!last.unsent && !last.hopeless) return last.error as Lost;
    const { failure, cause } = last.error as Lost;
    throw new TargetError(`cannot use the target at ${url.origin}: ${failure}`, { cause });
  };

  const orders = new URL(`${target.baseUrl}/orders?limit=1`);
  const { main, other } = target.credentials;
  const checks = Object.entries({ main, second: other }).map(async ([which, credentials]) => {
    if (!credentials) return;
    const headers = { [USER_ID_HEADER]: credentials.userId, [SECRET_HEADER]: credentials.secret };
    const status = await statusOf(orders, headers);
    if (typeof status !== 'number' && which === 'main') {
      // A fault of the list, or a target that answers nothing at all: a read of one order tells.
      const order = new URL(`${target.baseUrl}/orders/${UNKNOWN_ORDER_ID}`);
      const read = await statusOf(order, headers);
      if (typeof read !== 'number') {
        throw new TargetError(
          `cannot use the target at ${orders.origin}: it gave no complete answer to GET ${orders.pathname} (${status.failure}) nor to GET ${order.pathname} (${read.failure})`,
        );
      }
    }
    if (status === 401 || status === 403) {
      const where =
        which === 'main'
          ? `${ENV.userId} and ${ENV.secret} (or --user-id and --secret-file)`
          : `${OTHER_USER_ID_ENV} and ${OTHER_SECRET_ENV} (or --other-user-id and --other-secret-file)`;
      throw new TargetError(
        `the target refused the ${which} credentials (user "${credentials.userId}", status ${status}) on GET ${orders.pathname}; check ${where}: the secret may be mistyped, or the set revoked or rotated at the vendor`,
      );
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
