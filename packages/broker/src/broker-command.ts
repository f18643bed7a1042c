import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { createRequire } from 'node:module';
import { connect } from 'node:net';
import { createInterface } from 'node:readline';
import {
  describeTransportFailure,
  redact,
  type StopSources,
  untilStopped,
  usageLine,
} from '@print-contracts/client/kit';
import { pactCliBinary } from '@print-contracts/consumer-contracts/pact-cli';
import { brokerSecrets, isUsageError, UsageError } from '@print-contracts/verifier';

/**
 * Exit statuses of `pnpm can-i-deploy` and `pnpm contracts:publish`, one table for both.
 */
export const BROKER_EXIT_CODES = {
  /** The Pact CLI succeeded: the version can be deployed, or the pacts were published. */
  ok: 0,
  /** The Pact CLI failed: can-i-deploy says no, or the broker refused the request (its message is printed). */
  failed: 1,
  /** The command could not start: bad flags, no broker URL, a credential given as an argument. */
  notStarted: 2,
  /** No answer from the broker: it could not be reached, or did not answer within `--timeout`. */
  noAnswer: 3,
  /** Stopped by SIGINT (Ctrl-C); the Pact CLI was stopped too. */
  interrupted: 130,
  /** Stopped by SIGTERM, SIGHUP or the exit of its parent; the Pact CLI was stopped too. */
  terminated: 143,
} as const;

export type Env = Readonly<Record<string, string | undefined>>;

/** Where a broker command writes, what it reads, and its interrupt. */
export interface BrokerIo {
  readonly stdout: { write(text: string): unknown };
  readonly stderr: { write(text: string): unknown };
  readonly env: Env;
  readonly cwd: string;
  /** Aborted with the signal's name (`'SIGINT'`, `'SIGTERM'`): the Pact CLI is stopped. */
  readonly signal?: AbortSignal;
}

/** One broker command line: how it reads its arguments, its help, and what it runs. */
export interface BrokerTool<Options> {
  /** Leads every line the wrapper prints: `can-i-deploy`, `contracts:publish`. */
  readonly tool: string;
  readonly usage: string;
  /** The options, `'version'` for the package version, `undefined` for `--help`; throws `UsageError`. */
  parse(argv: readonly string[], io: BrokerIo): Options | 'version' | undefined;
  run(options: Options, io: BrokerIo): Promise<number>;
}

/** One run of the official `pact broker …` CLI, bounded. */
export interface BrokerCommand {
  readonly tool: string;
  /** What the run does, for the first line: `asking the Pact Broker at … whether …`. */
  readonly purpose: string;
  readonly brokerUrl: string;
  /** The arguments after `pact`. */
  readonly args: readonly string[];
  readonly timeoutMs: number;
}

/** How long `can-i-deploy` and `contracts:publish` wait for the Pact Broker before giving up. */
export const DEFAULT_BROKER_TIMEOUT_SECONDS = 60;
/** The longest bound `--timeout` accepts: a day. */
const MAX_TIMEOUT_SECONDS = 86_400;
/** Pact's message for a request that never got an answer (refused, reset, DNS, TLS). */
const TRANSPORT_FAILURE = /Failed to access pact broker/i;
/** Pact's message for an answer outside 2xx: `… failed: 401 Unauthorized.` */
const BROKER_REFUSAL = /Request to pact broker path .*? failed: (\d{3}[^.]*)/i;
/** Enough of the Pact CLI's output to find why it failed. */
const KEPT_OUTPUT_CHARS = 64 * 1024;
const VERSION = (createRequire(import.meta.url)('../package.json') as { version: string }).version;

const seconds = (ms: number) => `${Number((ms / 1_000).toFixed(1))} s`;
const exitForSignal = (signal: unknown) =>
  signal === 'SIGINT' ? BROKER_EXIT_CODES.interrupted : BROKER_EXIT_CODES.terminated;

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
  // A header that carries credentials, as `--custom-header "Authorization: Bearer …"` (its value, or the next argument).
  const credentialHeader = (value: string | undefined) =>
    value !== undefined &&
    /^\s*(?:authorization|proxy-authorization|cookie|[\w-]*(?:token|secret|key)[\w-]*)\s*:/i.test(value);
  const given = args.find(
    (arg, index) =>
      /^--(?:broker-)?(?:token|password|username)(?:=|$)/.test(arg) ||
      (short?.test(arg) ?? false) ||
      (arg === '--custom-header' && credentialHeader(args[index + 1])) ||
      (arg.startsWith('--custom-header=') && credentialHeader(arg.slice('--custom-header='.length))),
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
function describeAuth(env: Env): string {
  if (env.PACT_BROKER_TOKEN) return 'bearer token from PACT_BROKER_TOKEN';
  if (env.PACT_BROKER_USERNAME) return 'basic auth from PACT_BROKER_USERNAME and PACT_BROKER_PASSWORD';
  return 'no broker credentials set';
}

/**
 * A broker command as a function: its help, its version, one usage line (redacted) for bad
 * arguments, else its run; resolves with a status of `BROKER_EXIT_CODES`.
 */
export async function runBrokerTool<Options>(
  command: BrokerTool<Options>,
  argv: readonly string[],
  io: BrokerIo,
): Promise<number> {
  let options: Options | 'version' | undefined;
  try {
    options = command.parse(argv, io);
  } catch (error) {
    if (!isUsageError(error)) throw error;
    io.stderr.write(usageLine(command.tool, redact(error.message, brokerSecrets(io.env))));
    return BROKER_EXIT_CODES.notStarted;
  }
  if (options === undefined) io.stdout.write(`${command.usage}\n`);
  else if (options === 'version') io.stdout.write(`@print-contracts/broker ${VERSION}\n`);
  else return command.run(options, io);
  return BROKER_EXIT_CODES.ok;
}

/**
 * Runs a broker command as this process's command line. The kit's one stop watch (SIGINT,
 * SIGTERM, SIGHUP, or the parent gone) aborts its signal, so the command stops the Pact CLI
 * it started and exits 130 (SIGINT) or 143 instead of leaving it running.
 */
export async function runAsCommandLine(
  command: (argv: readonly string[], io: BrokerIo) => Promise<number>,
  sources?: StopSources,
): Promise<void> {
  const stop = new AbortController();
  void untilStopped(sources).stopped.then((reason) => stop.abort(reason));
  process.exitCode = await command(process.argv.slice(2), {
    stdout: process.stdout,
    stderr: process.stderr,
    env: process.env,
    cwd: process.cwd(),
    signal: stop.signal,
  });
}

/**
 * Opens (and closes) a connection to the broker's host and port before the Pact CLI starts,
 * which takes seconds to boot and then retries a refused connection until the bound. Resolves
 * with why the broker cannot be reached (refused, no such host), or `undefined` once it
 * accepts a connection or when `timeoutMs` or `signal` ends the wait (the caller says which).
 */
async function brokerUnreachable(brokerUrl: string, timeoutMs: number, signal?: AbortSignal) {
  const url = new URL(brokerUrl);
  const port = Number(url.port) || (url.protocol === 'https:' ? 443 : 80);
  const socket = connect({ host: url.hostname.replace(/^\[|\]$/g, ''), port });
  const waits = [AbortSignal.timeout(timeoutMs), ...(signal ? [signal] : [])];
  try {
    await once(socket, 'connect', { signal: AbortSignal.any(waits) });
    return undefined;
  } catch (error) {
    if (waits.some((wait) => wait.aborted)) return undefined;
    return describeTransportFailure(error).replace('the target', 'it');
  } finally {
    socket.destroy();
  }
}

/**
 * `sh -c WATCHDOG pact <binary> <args…>`: the shell becomes the Pact CLI (`exec`, same process id,
 * leader of its own group) and leaves a subshell that waits for the end of the stdin pipe from
 * this process, then kills the group. The pipe ends however this process goes, SIGKILL
 * included: against a silent broker the Pact CLI would otherwise wait on forever.
 */
const WATCHDOG =
  'exec 3<&0; (read -r _ <&3; kill -KILL -$$ 2>/dev/null) </dev/null >/dev/null 2>&1 & exec "$@" </dev/null 3<&-';

/** Stops the Pact CLI and anything it started: it runs as the leader of its own process group. */
function stop(child: ChildProcess): void {
  if (child.exitCode !== null || child.signalCode !== null || child.pid === undefined) return;
  try {
    process.kill(process.platform === 'win32' ? child.pid : -child.pid, 'SIGKILL');
  } catch {
    child.kill('SIGKILL');
  }
}

/**
 * Runs the official Pact CLI (`pact broker …`) within a bound, saying what it asks and then, now
 * and then, that it still waits; on the bound or `io.signal` it kills the CLI's process group.
 * Credentials reach the CLI through its environment only. Its own lines go to stderr, so
 * stdout stays the Pact CLI's (`--output json` can be piped).
 */
export async function runBrokerCommand(command: BrokerCommand, io: BrokerIo): Promise<number> {
  const { tool, purpose, brokerUrl, args, timeoutMs: bound } = command;
  const secrets = brokerSecrets(io.env);
  const say = (line: string) => io.stderr.write(`${tool}: ${redact(line, secrets)}\n`);
  const stopped = (after: string) => {
    say(`stopped on ${String(io.signal?.reason)}${after}`);
    return exitForSignal(io.signal?.reason);
  };
  const gaveUp = () => {
    say(
      `gave up after ${seconds(bound)}: no answer from the Pact Broker at ${brokerUrl} (unreachable or too slow; --timeout sets the bound)`,
    );
    return BROKER_EXIT_CODES.noAnswer;
  };
  if (io.signal?.aborted) return stopped(' before starting');
  say(`${purpose} (${describeAuth(io.env)}; gives up after ${seconds(bound)})`);
  const probed = performance.now();
  const unreachable = await brokerUnreachable(brokerUrl, bound, io.signal);
  if (io.signal?.aborted) return stopped(' before starting the Pact CLI');
  if (unreachable) {
    say(`could not reach the Pact Broker at ${brokerUrl}: ${unreachable}`);
    return BROKER_EXIT_CODES.noAnswer;
  }
  const timeoutMs = bound - (performance.now() - probed);
  if (timeoutMs <= 0) return gaveUp();

  let child: ChildProcess;
  try {
    const posix = process.platform !== 'win32';
    child = spawn(
      posix ? '/bin/sh' : pactCliBinary(),
      posix ? ['-c', WATCHDOG, 'pact', pactCliBinary(), ...args] : args,
      {
        cwd: io.cwd,
        env: { ...io.env, PACT_DO_NOT_TRACK: 'true' } as NodeJS.ProcessEnv,
        stdio: [posix ? 'pipe' : 'ignore', 'pipe', 'pipe'],
        // Its own process group, so stopping it also stops anything it started.
        detached: posix,
      },
    );
  } catch (error) {
    say(`cannot run the Pact CLI: ${error instanceof Error ? error.message : String(error)}`);
    return BROKER_EXIT_CODES.notStarted;
  }

  let kept = '';
  const outputs = [
    [child.stdout, io.stdout],
    [child.stderr, io.stderr],
  ] as const;
  for (const [from, to] of outputs) {
    from?.setEncoding('utf8').on('data', (chunk: string) => {
      kept = (kept + chunk).slice(-KEPT_OUTPUT_CHARS);
    });
    // Whole lines, each redacted, so a secret split across two chunks is still caught.
    if (from) createInterface({ input: from }).on('line', (line) => to.write(redact(`${line}\n`, secrets)));
  }

  const started = performance.now();
  let ended: 'timeout' | 'signal' | undefined;
  const end = (why: 'timeout' | 'signal') => {
    ended ??= why;
    stop(child);
  };
  const deadline = setTimeout(() => end('timeout'), timeoutMs);
  // A line now and then, so a CI log shows the command is waiting, not stuck.
  const heartbeat = setInterval(
    () =>
      say(
        `still waiting for the Pact Broker at ${brokerUrl} (${seconds(performance.now() - started)} so far)`,
      ),
    Math.min(10_000, Math.max(1_000, timeoutMs / 4)),
  );
  const onAbort = () => end('signal');
  io.signal?.addEventListener('abort', onAbort, { once: true });
  let code: number | null;
  try {
    code = await new Promise<number | null>((resolve, reject) => {
      // A binary that could not start never closes; one that started closes after its error.
      child.on('error', (error) => child.pid === undefined && reject(error));
      child.once('close', resolve);
    });
  } catch (error) {
    say(`cannot run the Pact CLI: ${(error as Error).message}`);
    return BROKER_EXIT_CODES.notStarted;
  } finally {
    child.stdin?.destroy(); // the watchdog has nothing left to guard
    clearTimeout(deadline);
    clearInterval(heartbeat);
    io.signal?.removeEventListener('abort', onAbort);
  }
  if (ended === 'timeout') return gaveUp();
  if (ended === 'signal') return stopped(`; the Pact CLI was stopped, nothing more was sent to ${brokerUrl}`);
  if (code === 0) return BROKER_EXIT_CODES.ok;
  if (TRANSPORT_FAILURE.test(kept)) {
    say(`could not reach the Pact Broker at ${brokerUrl} (the Pact CLI's reason is above)`);
    return BROKER_EXIT_CODES.noAnswer;
  }
  const refusal = BROKER_REFUSAL.exec(kept)?.[1];
  if (refusal) {
    say(`the Pact Broker at ${brokerUrl} answered ${refusal.trim()}`);
    return BROKER_EXIT_CODES.failed;
  }
  // 2 is the Pact CLI's own status for arguments it refuses.
  return code === 2 ? BROKER_EXIT_CODES.notStarted : BROKER_EXIT_CODES.failed;
}
