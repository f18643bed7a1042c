import { type ChildProcess, spawn } from 'node:child_process';
import { redact } from '@print-contracts/client';
import { pactCliBinary } from '@print-contracts/consumer-contracts/pact-cli';
import { brokerSecrets } from '@print-contracts/verifier';
import { describeAuth } from './broker-options.js';
import { brokerUnreachable } from './broker-reachable.js';

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

/** Where a broker command writes, what it reads, and its interrupt. */
export interface BrokerIo {
  readonly stdout: { write(text: string): unknown };
  readonly stderr: { write(text: string): unknown };
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly cwd: string;
  /** Aborted with the signal's name (`'SIGINT'`, `'SIGTERM'`): the Pact CLI is stopped. */
  readonly signal?: AbortSignal;
}

/** One run of the official `pact broker …` CLI, bounded. */
export interface BrokerCommand {
  /** Leads every line the wrapper prints: `can-i-deploy`, `contracts:publish`. */
  readonly tool: string;
  /** What the run does, for the first line: `asking the Pact Broker at … whether …`. */
  readonly purpose: string;
  readonly brokerUrl: string;
  /** The arguments after `pact`. */
  readonly args: readonly string[];
  readonly timeoutMs: number;
}

/** Pact's message for a request that never got an answer (refused, reset, DNS, TLS). */
const TRANSPORT_FAILURE = /Failed to access pact broker/i;
/** Pact's message for an answer outside 2xx: `… failed: 401 Unauthorized.` */
const BROKER_REFUSAL = /Request to pact broker path .*? failed: (\d{3}[^.]*)/i;
/** Enough of the Pact CLI's output to find why it failed. */
const KEPT_OUTPUT_CHARS = 64 * 1024;

const seconds = (ms: number) => `${Number((ms / 1_000).toFixed(1))} s`;

/** Writes whole lines, each redacted, so a secret split across two chunks is still caught. */
function lineWriter(sink: { write(text: string): unknown }, secrets: readonly string[]) {
  let pending = '';
  return {
    write(chunk: string) {
      pending += chunk;
      const end = pending.lastIndexOf('\n');
      if (end === -1) return;
      sink.write(redact(pending.slice(0, end + 1), secrets));
      pending = pending.slice(end + 1);
    },
    flush() {
      if (pending) sink.write(redact(`${pending}\n`, secrets));
      pending = '';
    },
  };
}

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
  if (io.signal?.aborted) {
    say(`stopped on ${String(io.signal.reason)} before starting`);
    return exitForSignal(io.signal.reason);
  }
  say(`${purpose} (${describeAuth(io.env)}; gives up after ${seconds(bound)})`);
  const probed = performance.now();
  const unreachable = await brokerUnreachable(brokerUrl, bound, io.signal);
  if (io.signal?.aborted) {
    say(`stopped on ${String(io.signal.reason)} before starting the Pact CLI`);
    return exitForSignal(io.signal.reason);
  }
  if (unreachable) {
    say(`could not reach the Pact Broker at ${brokerUrl}: ${unreachable}`);
    return BROKER_EXIT_CODES.noAnswer;
  }
  const timeoutMs = bound - (performance.now() - probed);
  if (timeoutMs <= 0) {
    say(
      `gave up after ${seconds(bound)}: no answer from the Pact Broker at ${brokerUrl} (unreachable or too slow; --timeout sets the bound)`,
    );
    return BROKER_EXIT_CODES.noAnswer;
  }
  return runPactCli({ brokerUrl, args, bound, timeoutMs }, io, say, secrets);
}

/** The Pact CLI's run within what is left of the bound (`timeoutMs`); messages name the whole `bound`. */
function runPactCli(
  run: { brokerUrl: string; args: readonly string[]; bound: number; timeoutMs: number },
  io: BrokerIo,
  say: (line: string) => void,
  secrets: readonly string[],
): Promise<number> {
  const { brokerUrl, args, bound, timeoutMs } = run;

  let child: ChildProcess;
  try {
    child = spawn(pactCliBinary(), args, {
      cwd: io.cwd,
      env: { ...io.env, PACT_DO_NOT_TRACK: 'true' } as NodeJS.ProcessEnv,
      stdio: ['ignore', 'pipe', 'pipe'],
      // Its own process group, so stopping it also stops anything it started.
      detached: process.platform !== 'win32',
    });
  } catch (error) {
    say(`cannot run the Pact CLI: ${error instanceof Error ? error.message : String(error)}`);
    return Promise.resolve(BROKER_EXIT_CODES.notStarted);
  }

  let kept = '';
  const keep = (chunk: string) => {
    kept = (kept + chunk).slice(-KEPT_OUTPUT_CHARS);
  };
  const stdout = lineWriter(io.stdout, secrets);
  const stderr = lineWriter(io.stderr, secrets);
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
    keep(chunk);
    stdout.write(chunk);
  });
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
    keep(chunk);
    stderr.write(chunk);
  });

  const started = performance.now();
  let ended: 'timeout' | 'signal' | undefined;
  let signalName: unknown;
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
  const onAbort = () => {
    signalName = io.signal?.reason;
    end('signal');
  };
  io.signal?.addEventListener('abort', onAbort, { once: true });

  return new Promise<number>((resolve) => {
    let settled = false;
    const settle = (status: number) => {
      if (settled) return;
      settled = true;
      clearTimeout(deadline);
      clearInterval(heartbeat);
      io.signal?.removeEventListener('abort', onAbort);
      stdout.flush();
      stderr.flush();
      resolve(status);
    };
    child.on('error', (error) => {
      // A binary that could not start never closes; one that started closes after this.
      if (child.pid !== undefined) return;
      say(`cannot run the Pact CLI: ${error.message}`);
      settle(BROKER_EXIT_CODES.notStarted);
    });
    child.once('close', (code) => settle(outcome(code)));

    const outcome = (code: number | null): number => {
      if (ended === 'timeout') {
        say(
          `gave up after ${seconds(bound)}: no answer from the Pact Broker at ${brokerUrl} (unreachable or too slow; --timeout sets the bound)`,
        );
        return BROKER_EXIT_CODES.noAnswer;
      }
      if (ended === 'signal') {
        say(
          `stopped on ${String(signalName)}; the Pact CLI was stopped, nothing more was sent to ${brokerUrl}`,
        );
        return exitForSignal(signalName);
      }
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
    };
  });
}

function exitForSignal(signal: unknown): number {
  return signal === 'SIGINT' ? BROKER_EXIT_CODES.interrupted : BROKER_EXIT_CODES.terminated;
}
