import { SECRET_HEADER, USER_ID_HEADER } from '@print-contracts/client';
import { CONTROL_BASE_PATH } from '@print-contracts/sample-api/control-surface';
import type { Dispatcher } from 'undici';
import { TargetError } from '../errors/target-error.js';
import type { Target } from './target.js';
import { describeTransportFailure, notConnected, untrusted } from './wire.js';

/** The status of a GET, or undefined when a server is there but gave no complete answer (a fault). */
async function probe(
  dispatcher: Dispatcher,
  url: URL,
  headers: Record<string, string>,
  timeoutMs: number,
): Promise<number | undefined> {
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
    if (notConnected(error) || untrusted(error)) {
      throw new TargetError(`cannot use the target at ${url.origin}: ${describeTransportFailure(error)}`, {
        cause: error,
      });
    }
    return undefined;
  }
}

/**
 * Checks, read-only and before anything is arranged, that the target answers, can be trusted
 * and accepts the credentials, and that a declared control surface exists: an unreachable or
 * untrusted target is exit 2 with one reason, not a column of failures. Any answer but a
 * refusal counts as reachable, even a misbehaving one: the contracts judge what answers hold.
 */
export async function preflight(dispatcher: Dispatcher, target: Target, timeoutMs: number): Promise<void> {
  const url = new URL(`${target.baseUrl}/orders?limit=1`);
  const sets = [
    ['main', target.credentials.main],
    ['second', target.credentials.other],
  ] as const;
  const checks = sets.map(async ([which, credentials]) => {
    if (!credentials) return;
    const headers = { [USER_ID_HEADER]: credentials.userId, [SECRET_HEADER]: credentials.secret };
    const status = await probe(dispatcher, url, headers, timeoutMs);
    if (status === 401 || status === 403) {
      throw new TargetError(
        `the target refused the ${which} credentials (user "${credentials.userId}", status ${status}) on GET ${url.pathname}`,
      );
    }
  });
  if (target.controlOrigin) {
    checks.push(
      probe(dispatcher, new URL(`${CONTROL_BASE_PATH}/faults`, target.controlOrigin), {}, timeoutMs).then(
        (status) => {
          if (status !== undefined && status !== 200) {
            throw new TargetError(
              `--control is set, but ${target.controlOrigin}${CONTROL_BASE_PATH} is no control surface (status ${status})`,
            );
          }
        },
      ),
    );
  }
  await Promise.all(checks);
}
