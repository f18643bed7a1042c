import { once } from 'node:events';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { OperationName } from '@print-contracts/client';
import { captureIo } from '@print-contracts/test-support';
import { runVerify } from '@print-contracts/verifier';
import { spawnTracked, stopProcess, VERIFIER_CLI } from '../processes.js';
import type { Mutation } from './generate.js';
import { exists, inPool, runFolder, withStandIn } from './harness.js';

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
 * open, and `--cleanup` says so (exit 1, the ledger kept). `unsaid`: orders are left open while
 * `--cleanup` exits 0 or removes its ledger.
 */
export type CleanupOutcome = 'clean' | 'unsure' | 'said' | 'unsaid';

export interface KilledRunResult {
  readonly name: string;
  readonly kind: Mutation['kind'];
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

const count = (text: string, part: string) => text.split(part).length - 1;
const countEvents = (text: string, event: string) => count(text, `"event":"${event}"`);

export function cleanupOutcome(run: Pick<KilledRunResult, 'leftOpen' | 'exitCode' | 'ledgerKept'>) {
  const saidSo = run.exitCode !== 0 && run.ledgerKept;
  if (run.leftOpen === 0) return saidSo ? 'unsure' : 'clean';
  return saidSo ? 'said' : 'unsaid';
}

/**
 * A `pnpm verify` process against a fresh sample API behind the mutation's proxy, killed (SIGKILL,
 * its process group) once `KILL_AFTER_ANSWERS` of its creates are answered, then `pnpm verify --cleanup`
 * in-process through the same proxy: what a killed night leaves to the next step of its job.
 */
export async function killThenCleanUp(
  mutation: Mutation,
  options: { work: string; pacts: string },
): Promise<KilledRunResult> {
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
      ],
      { cwd: dir, env: { ...process.env, PACT_DO_NOT_TRACK: 'true', ...env }, stderr: 'pipe' },
    );
    child.stdout.resume();
    child.stderr?.resume();
    const exited = once(child, 'exit');
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
    if (ranOn && child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
    await stopProcess(child, true);
    const events = await text();
    const creates = countEvents(events, 'creating');
    const unanswered = creates - countEvents(events, 'created') - count(events, '"outcome":"not-created"');
    let exitCode: number | undefined;
    if (await exists(ledger)) {
      const output = captureIo({ cwd: dir, env });
      const flags = ['--poll-interval', '50', '--creation-timeout', String(CREATION_TIMEOUT_MS)];
      exitCode = await runVerify(['--cleanup', '--ledger', ledger, ...flags], output.io);
      // What the cleanup said, beside the ledger it left: the first thing to read on a run not clean.
      await writeFile(join(dir, 'cleanup.txt'), output.stdout() + output.stderr());
    }
    const result = { leftOpen: await openSince(), exitCode, ledgerKept: await exists(ledger) };
    return {
      name: mutation.name,
      kind: mutation.kind,
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
