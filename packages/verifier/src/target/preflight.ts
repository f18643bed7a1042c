import { SECRET_HEADER, USER_ID_HEADER } from '@print-contracts/client';
import { CONTROL_BASE_PATH } from '@print-contracts/sample-api/control-surface';
import type { Dispatcher } from 'undici';
import { TargetError } from '../errors/target-error.js';
import { describeTransportFailure } from '../replay/wire.js';
import type { Credentials, Target } from './target.js';

/** Failures that mean nothing listens there: no HTTP exchange could even begin. */
const UNREACHABLE = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'UND_ERR_CONNECT_TIMEOUT',
]);

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
    const code = (error as { code?: unknown } | null)?.code;
    if (typeof code === 'string' && UNREACHABLE.has(code)) {
      throw new TargetError(`cannot reach the target at ${url.origin}: ${describeTransportFailure(error)}`, {
        cause: error,
      });
    }
    return undefined;
  }
}

async function checkCredentials(
  dispatcher: Dispatcher,
  target: Target,
  credentials: Credentials,
  which: string,
  timeoutMs: number,
): Promise<void> {
  const url = new URL(`${target.baseUrl}/orders?limit=1`);
  const status = await probe(
    dispatcher,
    url,
    { [USER_ID_HEADER]: credentials.userId, [SECRET_HEADER]: credentials.secret },
    timeoutMs,
  );
  if (status === 401 || status === 403) {
    throw new TargetError(
      `the target refused the ${which} credentials (user "${credentials.userId}", status ${status}) on GET ${url.pathname}`,
    );
  }
}

/**
 * Checks, read-only, that the target answers and accepts the credentials before anything is
 * arranged (so an unreachable target is exit 2 with a clear reason, not a column of
 * failures), and that a declared control surface exists. Any HTTP answer other than a
 * refusal counts as reachable, and so does a server that accepts the connection and then
 * misbehaves: what the answers hold is for the contracts to judge.
 */
export async function preflight(dispatcher: Dispatcher, target: Target, timeoutMs: number): Promise<void> {
  const checks = [checkCredentials(dispatcher, target, target.credentials.main, 'main', timeoutMs)];
  if (target.credentials.other) {
    checks.push(checkCredentials(dispatcher, target, target.credentials.other, 'second', timeoutMs));
  }
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
