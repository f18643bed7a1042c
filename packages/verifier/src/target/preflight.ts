import {
  describeTransportFailure,
  notConnected,
  SECRET_HEADER,
  USER_ID_HEADER,
  untrusted,
} from '@print-contracts/client';
import { CONTROL_BASE_PATH, FAULTS_PATH } from '@print-contracts/sample-api/control-surface';
import type { Dispatcher } from 'undici';
import { TargetError } from '../errors/target-error.js';
import type { Target } from './target.js';

/**
 * Checks, read-only and before anything is arranged, that the target answers, can be trusted
 * and accepts the credentials, and that a declared control surface exists: an unreachable or
 * untrusted target is exit 2 with one reason, not a column of failures. Any answer but a
 * refusal counts as reachable, even a misbehaving one: the contracts judge what answers hold.
 */
export async function preflight(dispatcher: Dispatcher, target: Target, timeoutMs: number): Promise<void> {
  /** The status of a GET, or undefined when a server is there but gave no complete answer (a fault). */
  const statusOf = async (url: URL, headers: Record<string, string> = {}) => {
    try {
      const response = await dispatcher.request({
        origin: url.origin,
        path: `${url.pathname}${url.search}`,
        method: 'GET',
        headers,
        headersTimeout: timeoutMs,
        bodyTimeout: timeoutMs,
      });
      await response.body.dump();
      return response.statusCode;
    } catch (error) {
      if (!notConnected(error) && !untrusted(error)) return undefined;
      throw new TargetError(`cannot use the target at ${url.origin}: ${describeTransportFailure(error)}`, {
        cause: error,
      });
    }
  };

  const orders = new URL(`${target.baseUrl}/orders?limit=1`);
  const { main, other } = target.credentials;
  const checks = Object.entries({ main, second: other }).map(async ([which, credentials]) => {
    if (!credentials) return;
    const status = await statusOf(orders, {
      [USER_ID_HEADER]: credentials.userId,
      [SECRET_HEADER]: credentials.secret,
    });
    if (status === 401 || status === 403) {
      throw new TargetError(
        `the target refused the ${which} credentials (user "${credentials.userId}", status ${status}) on GET ${orders.pathname}`,
      );
    }
  });
  const { controlOrigin } = target;
  if (controlOrigin) {
    const control = statusOf(new URL(FAULTS_PATH, controlOrigin)).then((status) => {
      if (status !== undefined && status !== 200) {
        throw new TargetError(
          `--control is set, but ${controlOrigin}${CONTROL_BASE_PATH} is no control surface (status ${status})`,
        );
      }
    });
    checks.push(control);
  }
  await Promise.all(checks);
}
