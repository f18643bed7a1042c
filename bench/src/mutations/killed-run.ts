import { once } from 'node:events';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { OperationName } from '@print-contracts/client';
import { captureIo } from '@print-contracts/test-support';
import { REPORT_FILES, type RunReport, runVerify } from '@print-contracts/verifier';
import { spawnTracked, stopProcess, VERIFIER_CLI } from '../processes.js';
import type { Mutation } from './generate.js';
import { exists, flagsOf, inPool, runFolder, withStandIn } from './harness.js';

/** The operations `--cleanup` sends (reads, the list, cancels) and the create its ledger is about. */
const CLEANUP_OPERATIONS: ReadonlySet<OperationName | 'any'> = new Set([
  'any',
  'createOrder',
  'getOrder',
  'listOrders',
  'cancelOrder',
]);

/**
 * What a settling request reads of an answer, by the weakest signal: a list's orders and their
 * id, uuid, date and status; an order's id, uuid, status and reference; a create's uuid; a
 * cancel's success. Field changes elsewhere (an order's lines, say) the replay judges alone.
 */
const SETTLING_FIELD = /^\$(\.orders(\[\*\])?|(\.orders\[\*\])?\.(id|uuid|date|status|reference|success))$/;

/**
 * The mutations a killed run and its `--cleanup` are tried against: on an operation the cleanup's
 * requests or the killed run's creates meet, every behaviour of the vendor, and every change of a
 * field a settling request reads.
 */
export const killedRunMutations = (mutations: readonly Mutation[]) =>
  mutations.filter(
    (mutation) =>
      CLEANUP_OPERATIONS.has(mutation.scope.operation) &&
      (!('path' in mutation) || SETTLING_FIELD.test(mutation.path)),
  );

/**
 * `clean`: nothing the killed run made is left open and `--cleanup` exits 0. `unsure`: nothing is
 * left, but `--cleanup` could not prove it (exit 1, the ledger kept). `said`: orders are left
 * open, and `--cleanup` says so (exit 1, each of them still open in the ledger). `unsaid`: orders
 * are left open while `--cleanup` exits 0, removes its ledger, or crossed some of them off.
 */
export type CleanupOutcome = 'clean' | 'unsure' | 'said' | 'unsaid';

/**
 * How the run was stopped. SIGKILL: nothing of it runs after, its ledger is `--cleanup`'s. SIGTERM
 * (a cancelled CI job): it must tear down what it made itself, exit 143, and keep the ledger of
 * what it could not settle.
 */
export type StopSignal = 'SIGKILL' | 'SIGTERM';

/**
 * A SIGTERM'd run's own teardown. `clean`: exit 143, nothing left open, its ledger gone. `handed
 * over`: exit 143 with its ledger kept, for `--cleanup` (whose outcome is the run's). `unsaid`:
 * more orders left open than its ledger holds open (none when it is gone). `status`: another exit
 * status than 143. `hung`: still running `STOP_BOUND_MS` after the signal (then killed).
 */
export type TeardownOutcome = 'clean' | 'handed over' | 'unsaid' | 'status' | 'hung';

export interface StoppedRun {
  readonly exitCode: number | null;
  /** Seconds from the signal to the process's exit. */
  readonly seconds: number;
  /** Orders the run made still open at the sample API once it exited, before any `--cleanup`. */
  readonly leftOpen: number;
  readonly ledgerKept: boolean;
  /** Entries its ledger holds open: each order left open must be one of them. */
  readonly heldOpen: number;
  readonly outcome: TeardownOutcome;
  /**
   * Interactions its report calls FAILED (undefined when it wrote none): behind a harmless vendor,
   * each is a false alarm, since a stop is never the vendor's fault.
   */
  readonly failed?: number;
}

export interface KilledRunResult {
  readonly name: string;
  readonly kind: Mutation['kind'];
  /** Whether the vendor broke the contract (absent in older summaries). */
  readonly harmful?: boolean;
  /** SIGKILL when absent (older summaries). */
  readonly signal?: StopSignal;
  /** A SIGTERM'd run's own teardown, before `--cleanup`. */
  readonly teardown?: StoppedRun;
  /** Creates the run had sent (its ledger's `creating` lines) when it was killed. */
  readonly creates: number;
  /** Of those, creates without an answer yet (no uuid in the ledger): only a scan by reference finds their orders. */
  readonly unanswered: number;
  /** The run ended by itself before the kill (then its own teardown settled what it made). */
  readonly endedFirst: boolean;
  /** `--cleanup`'s exit status; undefined when the run left no ledger. */
  readonly exitCode: number | undefined;
  /** Orders the run made still open at the sample API after `--cleanup` (read past the proxy). */
  readonly leftOpen: number;
  readonly ledgerKept: boolean;
  /** Entries the ledger holds open after `--cleanup` (0 without a ledger; absent in older summaries). */
  readonly heldOpen?: number;
  readonly outcome: CleanupOutcome;
  readonly seconds: number;
}

/**
 * The run is killed once this many creates are answered: the arranger sends a version's creates
 * at once, so others are often still in flight, and those answered wait to be read.
 */
const KILL_AFTER_ANSWERS = 2;
/** The killed run's and the cleanup's bound on a creation (and each request's retry budget). */
const CREATION_TIMEOUT_MS = 5_000;
/** A run with fewer creates answered by then is killed where it stands. */
const KILL_BY_MS = 60_000;
/**
 * A SIGTERM'd run still running this long after the signal is `hung`. Its teardown waits up to 15 s
 * for creates in flight, then cancels each order within the retry budget (`CREATION_TIMEOUT_MS`).
 */
const STOP_BOUND_MS = 90_000;

const count = (text: string, part: string) => text.split(part).length - 1;
const countEvents = (text: string, event: string) => count(text, `"event":"${event}"`);

/** Entries a ledger's text holds open: announced by `creating`, not crossed off by `closed`. */
export function openInLedger(text: string): number {
  const open = new Set<string>();
  for (const line of text.split('\n')) {
    // A torn last line (the process killed mid-write) is no event.
    const event = (() => {
      try {
        return JSON.parse(line) as { event?: unknown; key?: unknown };
      } catch {
        return {};
      }
    })();
    if (event.event === 'creating') open.add(String(event.key));
    if (event.event === 'closed') open.delete(String(event.key));
  }
  return open.size;
}

export function cleanupOutcome(
  run: Pick<KilledRunResult, 'leftOpen' | 'exitCode' | 'ledgerKept'> & { heldOpen: number },
): CleanupOutcome {
  const saidSo = run.exitCode !== 0 && run.ledgerKept;
  if (run.leftOpen === 0) return saidSo ? 'unsure' : 'clean';
  return saidSo && run.heldOpen >= run.leftOpen ? 'said' : 'unsaid';
}

export function teardownOutcome(
  run: Pick<StoppedRun, 'exitCode' | 'leftOpen' | 'ledgerKept' | 'heldOpen'> & { hung: boolean },
): TeardownOutcome {
  if (run.hung) return 'hung';
  if (run.leftOpen > (run.ledgerKept ? run.heldOpen : 0)) return 'unsaid';
  if (run.exitCode !== 143) return 'status';
  return run.ledgerKept ? 'handed over' : 'clean';
}

/**
 * A `pnpm verify` process against a fresh sample API behind the mutation's proxy, stopped by
 * `signal` (SIGKILL by default; to its process group) once `KILL_AFTER_ANSWERS` of its creates are
 * answered, then, when it left its ledger, `pnpm verify --cleanup` in-process through the same
 * proxy: what a killed or cancelled night leaves to the next step of its job.
 */
export async function killThenCleanUp(
  mutation: Mutation,
  options: { work: string; pacts: string; signal?: StopSignal },
): Promise<KilledRunResult> {
  const signal = options.signal ?? 'SIGKILL';
  const started = process.hrtime.bigint();
  return withStandIn(mutation, 0, async ({ url, env, openSince }) => {
    const dir = await runFolder(options.work);
    const ledger = join(dir, 'ledger.jsonl');
    const child = spawnTracked(
      process.execPath,
      [
        VERIFIER_CLI,
        ...['--base-url', url, '--mode', 'sample', '--control', '--quiet'],
        ...['--pact', options.pacts, '--report-dir', dir, '--ledger', ledger],
        ...['--poll-interval', '50', '--creation-timeout', String(CREATION_TIMEOUT_MS)],
        ...flagsOf(mutation),
      ],
      { cwd: dir, env: { ...process.env, PACT_DO_NOT_TRACK: 'true', ...env }, stderr: 'pipe' },
    );
    child.stdout.resume();
    let said = '';
    child.stderr?.on('data', (chunk: Buffer) => {
      said += chunk.toString();
    });
    const exited = once(child, 'exit') as Promise<[number | null]>;
    let endedFirst = false;
    void exited.then(() => {
      endedFirst = true;
    });
    const text = () => readFile(ledger, 'utf8').catch(() => '');
    const deadline = Date.now() + KILL_BY_MS;
    while (
      !endedFirst &&
      Date.now() < deadline &&
      countEvents(await text(), 'created') < KILL_AFTER_ANSWERS
    ) {
      await sleep(20);
    }
    const ranOn = !endedFirst;
    // A SIGTERM'd run removes its ledger once its teardown settled everything: count its creates first.
    const beforeSignal = signal === 'SIGTERM' ? await text() : '';
    const signalled = process.hrtime.bigint();
    if (ranOn && child.pid !== undefined) process.kill(-child.pid, signal);
    const bound = new AbortController();
    const hung = !(await Promise.race([
      exited.then(() => true),
      sleep(STOP_BOUND_MS, false, { signal: bound.signal }).catch(() => true),
    ]));
    bound.abort();
    const stopSeconds = Number(process.hrtime.bigint() - signalled) / 1e9;
    await stopProcess(child, true);
    const [runExit] = await exited;
    let teardown: StoppedRun | undefined;
    if (ranOn && signal === 'SIGTERM') {
      // What the run said on its way out, beside its ledger: the first thing to read on a teardown not clean.
      await writeFile(join(dir, 'run.txt'), said);
      const stopped = {
        exitCode: runExit,
        leftOpen: await openSince(),
        ledgerKept: await exists(ledger),
        heldOpen: openInLedger(await text()),
      };
      const report = await readFile(join(dir, REPORT_FILES.json), 'utf8').then(
        (json) => JSON.parse(json) as RunReport,
        () => undefined,
      );
      teardown = {
        ...stopped,
        seconds: stopSeconds,
        outcome: teardownOutcome({ ...stopped, hung }),
        ...(report ? { failed: report.totals.failed } : {}),
      };
    }
    const events = signal === 'SIGKILL' ? await text() : beforeSignal;
    const creates = countEvents(events, 'creating');
    const unanswered = creates - countEvents(events, 'created') - count(events, '"outcome":"not-created"');
    let exitCode: number | undefined;
    if (await exists(ledger)) {
      const output = captureIo({ cwd: dir, env });
      const flags = [
        '--poll-interval',
        '50',
        '--creation-timeout',
        String(CREATION_TIMEOUT_MS),
        ...flagsOf(mutation),
      ];
      exitCode = await runVerify(['--cleanup', '--ledger', ledger, ...flags], output.io);
      // What the cleanup said, beside the ledger it left: the first thing to read on a run not clean.
      await writeFile(join(dir, 'cleanup.txt'), output.stdout() + output.stderr());
    }
    const result = {
      leftOpen: await openSince(),
      exitCode,
      ledgerKept: await exists(ledger),
      heldOpen: openInLedger(await text()),
    };
    return {
      name: mutation.name,
      kind: mutation.kind,
      harmful: mutation.harmful,
      signal,
      ...(teardown ? { teardown } : {}),
      creates,
      unanswered,
      endedFirst: !ranOn,
      ...result,
      outcome: cleanupOutcome(result),
      seconds: Number(process.hrtime.bigint() - started) / 1e9,
    };
  });
}

/** `killThenCleanUp` for each of `mutations`, `concurrency` at a time. */
export function runKilledRuns(
  mutations: readonly Mutation[],
  options: {
    work: string;
    pacts: string;
    concurrency: number;
    signal?: StopSignal;
    onResult?: (result: KilledRunResult, done: number) => void;
  },
): Promise<KilledRunResult[]> {
  let done = 0;
  return inPool(mutations, options.concurrency, async (mutation) => {
    const result = await killThenCleanUp(mutation, options);
    options.onResult?.(result, ++done);
    return result;
  });
}
