import { ENV } from '@print-contracts/client';
import { UsageError } from '../errors/index.js';
import { readFlagFile } from './paths.js';
import type { Credentials } from './verify-options.js';

/** A second credential set, for the tenant-isolation interactions on URL targets. */
export const OTHER_USER_ID_ENV = 'PRINT_API_OTHER_USER_ID';
export const OTHER_SECRET_ENV = 'PRINT_API_OTHER_SECRET';

type Env = Readonly<Record<string, string | undefined>>;
/** The credential flags as given; `--cleanup` reads them only for the sets its ledger needs. */
export type CredentialFlags = Readonly<
  Partial<Record<'user-id' | 'secret-file' | 'other-user-id' | 'other-secret-file', string>>
>;

const present = (value: string | undefined) => value?.trim() || undefined;

/**
 * `value` as a header can carry it, or a `UsageError` naming where it came from: undici refuses any
 * other character before sending, and a pasted control or invisible character is a typo, not a
 * target that stopped answering. The value is never shown.
 */
function headerSafe(value: string, from: string): string {
  const bad = /[^\t\x20-\x7e\x80-\xff]/.exec(value)?.[0];
  if (bad === undefined) return value;
  const code = `U+${(bad.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}`;
  throw new UsageError(
    `${from} holds a character no HTTP header can carry (${code}, a control or invisible character: pasted with it?); give it again without`,
  );
}

/** The secret on the first line of a file (trimmed); the message never shows the content. */
function secretFrom(flag: string, path: string, cwd: string): string {
  const secret = readFlagFile(flag, path, cwd).split(/\r?\n/)[0]?.trim();
  if (!secret) throw new UsageError(`${flag} ${path} is empty; put the secret on its first line`);
  return secret;
}

/** The main set of a URL target: the secret from a file or the environment, never an argument. */
export function mainCredentials(flags: CredentialFlags, env: Env, cwd: string): Credentials {
  const userId = present(flags['user-id']) ?? present(env[ENV.userId]);
  if (!userId) throw new UsageError(`no user id for the target: set ${ENV.userId} or pass --user-id`);
  const secret = flags['secret-file']
    ? secretFrom('--secret-file', flags['secret-file'], cwd)
    : present(env[ENV.secret]);
  if (!secret) throw new UsageError(`no secret for the target: set ${ENV.secret} or pass --secret-file PATH`);
  return {
    userId: headerSafe(userId, flags['user-id'] ? '--user-id' : ENV.userId),
    secret: headerSafe(secret, flags['secret-file'] ? `--secret-file ${flags['secret-file']}` : ENV.secret),
  };
}

/** The second set when both its parts are given; half of one is a `UsageError`. */
export function otherCredentials(flags: CredentialFlags, env: Env, cwd: string): Credentials | undefined {
  const userId = present(flags['other-user-id']) ?? present(env[OTHER_USER_ID_ENV]);
  const secret = flags['other-secret-file']
    ? secretFrom('--other-secret-file', flags['other-secret-file'], cwd)
    : present(env[OTHER_SECRET_ENV]);
  if (!userId && !secret) return undefined;
  if (!userId) {
    throw new UsageError(
      `a second secret is set but no user id: set ${OTHER_USER_ID_ENV} or pass --other-user-id`,
    );
  }
  if (!secret) {
    throw new UsageError(
      `a second user id is set but no secret: set ${OTHER_SECRET_ENV} or pass --other-secret-file PATH`,
    );
  }
  return {
    userId: headerSafe(userId, flags['other-user-id'] ? '--other-user-id' : OTHER_USER_ID_ENV),
    secret: headerSafe(
      secret,
      flags['other-secret-file'] ? `--other-secret-file ${flags['other-secret-file']}` : OTHER_SECRET_ENV,
    ),
  };
}
