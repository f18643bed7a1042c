import { ENV } from '@print-contracts/client';
import { UsageError } from '../errors/usage-error.js';
import { readFlagFile } from './paths.js';
import type { Credentials } from './verify-options.js';

/** A second credential set, for the tenant-isolation interactions on URL targets. */
export const OTHER_USER_ID_ENV = 'PRINT_API_OTHER_USER_ID';
export const OTHER_SECRET_ENV = 'PRINT_API_OTHER_SECRET';

type Env = Readonly<Record<string, string | undefined>>;

const present = (value: string | undefined) => (value?.trim() ? value.trim() : undefined);

/** The secret on the first line of a file (trimmed); the message never shows the content. */
function readSecretFile(path: string, cwd: string, flag: string): string {
  const secret = readFlagFile(flag, path, cwd).split(/\r?\n/)[0]?.trim();
  if (!secret) throw new UsageError(`${flag} ${path} is empty; put the secret on its first line`);
  return secret;
}

/**
 * The main credential set of a URL target; the secret comes from a file or the environment,
 * never a visible argument. A missing part is a `UsageError` naming where to put it.
 */
export function mainCredentials(
  flags: { userId?: string; secretFile?: string },
  env: Env,
  cwd: string,
): Credentials {
  const userId = present(flags.userId) ?? present(env[ENV.userId]);
  if (!userId) throw new UsageError(`no user id for the target: set ${ENV.userId} or pass --user-id`);
  const secret = flags.secretFile
    ? readSecretFile(flags.secretFile, cwd, '--secret-file')
    : present(env[ENV.secret]);
  if (!secret) throw new UsageError(`no secret for the target: set ${ENV.secret} or pass --secret-file PATH`);
  return { userId, secret };
}

/** The second credential set, when both its parts are given; half of one is a `UsageError`. */
export function otherCredentials(
  flags: { otherUserId?: string; otherSecretFile?: string },
  env: Env,
  cwd: string,
): Credentials | undefined {
  const userId = present(flags.otherUserId) ?? present(env[OTHER_USER_ID_ENV]);
  const secret = flags.otherSecretFile
    ? readSecretFile(flags.otherSecretFile, cwd, '--other-secret-file')
    : present(env[OTHER_SECRET_ENV]);
  if (!userId && !secret) return undefined;
  if (!userId)
    throw new UsageError(
      `a second secret is set but no user id: set ${OTHER_USER_ID_ENV} or pass --other-user-id`,
    );
  if (!secret)
    throw new UsageError(
      `a second user id is set but no secret: set ${OTHER_SECRET_ENV} or pass --other-secret-file PATH`,
    );
  return { userId, secret };
}
