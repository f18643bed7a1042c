import { ENV, redact } from '@print-contracts/client';
import { isVerifierError } from './errors/verifier-error.js';
import { OTHER_SECRET_ENV } from './options/credentials.js';
import { parseVerifyArgs } from './options/parse-args.js';
import { VERIFY_USAGE } from './options/usage.js';
import { runCleanup } from './run/cleanup-run.js';
import type { VerifyIo } from './run/verify-io.js';
import { VerifyRun } from './run/verify-run.js';

/** Exit statuses of `pnpm verify`. */
export const EXIT_CODES = {
  /** Every verifiable interaction passed. */
  passed: 0,
  /** A contract broke (or, with --strict, an interaction was not verifiable here). */
  failed: 1,
  /** The run could not start: bad flags, unreadable pact, unknown state, unreachable target. */
  notStarted: 2,
  interrupted: 130,
} as const;

/**
 * The `pnpm verify` command as a function: parses `argv` (a leading `--` from
 * `pnpm verify -- --flag` is accepted), runs the verification or the cleanup, and resolves
 * with the exit status. Problems that stop the run before anything was replayed print one
 * line on stderr and give 2; nothing it prints holds a secret.
 */
export async function runVerify(argv: readonly string[], io: VerifyIo): Promise<number> {
  const secrets = [ENV.secret, OTHER_SECRET_ENV, 'PACT_BROKER_TOKEN', 'PACT_BROKER_PASSWORD']
    .map((name) => io.env[name])
    .filter((value): value is string => Boolean(value));
  try {
    const command = parseVerifyArgs(argv, io.env, io.cwd);
    if (command.help) {
      io.stdout.write(`${VERIFY_USAGE}\n`);
      return EXIT_CODES.passed;
    }
    if (command.options.cleanup) return await runCleanup(command.options, io);
    return await new VerifyRun(command.options, io).execute();
  } catch (error) {
    if (isVerifierError(error)) {
      const usage = error.code === 'ERR_VERIFY_USAGE' ? ' (see pnpm verify --help)' : '';
      io.stderr.write(`verify: ${redact(error.message, secrets)}${usage}\n`);
    } else {
      // Not one of the verifier's own errors: a bug. One line, no stack trace, no secret.
      const message = error instanceof Error ? error.message : String(error);
      io.stderr.write(`verify: unexpected error: ${redact(message, secrets)}\n`);
    }
    return EXIT_CODES.notStarted;
  } finally {
    io.pactWorker?.child.kill('SIGKILL');
  }
}
