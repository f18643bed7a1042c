import { UsageError } from '@print-contracts/verifier';

export type Env = Readonly<Record<string, string | undefined>>;

/** How long `can-i-deploy` and `contracts:publish` wait for the Pact Broker before giving up. */
export const DEFAULT_BROKER_TIMEOUT_SECONDS = 60;

/** The longest bound `--timeout` accepts: a day. */
const MAX_TIMEOUT_SECONDS = 86_400;

/** `--timeout SECONDS` as milliseconds; the default when it is not given. */
export function timeoutMs(value: string | undefined): number {
  if (value === undefined) return DEFAULT_BROKER_TIMEOUT_SECONDS * 1_000;
  const seconds = /^\d+(?:\.\d+)?$/.test(value) ? Number(value) : Number.NaN;
  if (!(seconds > 0 && seconds <= MAX_TIMEOUT_SECONDS)) {
    throw new UsageError(
      `--timeout must be a number of seconds above 0 and at most ${MAX_TIMEOUT_SECONDS}, got "${value.slice(0, 20)}"`,
    );
  }
  return Math.round(seconds * 1_000);
}

/**
 * Refuses broker credentials given as arguments, which every user of the machine can read
 * in the process list. The value is never echoed.
 */
export function refuseCredentialArguments(args: readonly string[], shortFlags = ''): void {
  const short = shortFlags ? new RegExp(`^-[${shortFlags}]`) : undefined;
  const given = args.find(
    (arg) => /^--(?:broker-)?(?:token|password|username)(?:=|$)/.test(arg) || (short?.test(arg) ?? false),
  );
  if (given !== undefined) {
    // Only the flag's name: `-kVALUE` and `--broker-token=VALUE` carry the secret itself.
    const flag = given.startsWith('--') ? given.split('=')[0] : given.slice(0, 2);
    throw new UsageError(
      `broker credentials are not accepted as arguments (${flag}); set PACT_BROKER_TOKEN, or PACT_BROKER_USERNAME and PACT_BROKER_PASSWORD`,
    );
  }
}

/** Which credentials the Pact CLI will send, by the variable's name only. */
export function describeAuth(env: Env): string {
  if (env.PACT_BROKER_TOKEN) return 'bearer token from PACT_BROKER_TOKEN';
  if (env.PACT_BROKER_USERNAME) return 'basic auth from PACT_BROKER_USERNAME and PACT_BROKER_PASSWORD';
  return 'no broker credentials set';
}
