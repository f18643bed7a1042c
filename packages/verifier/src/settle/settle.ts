import { setTimeout as sleep } from 'node:timers/promises';
import {
  bodyText,
  CANCEL_REFUSED_MESSAGE,
  isHttpError,
  isResponseValidationError,
} from '@print-contracts/client';
import { redact } from '@print-contracts/client/kit';
import type { Ledger, LedgerEntry, LedgerEvents, LedgerOutcome } from '../ledger/ledger.js';
import { reading, serverError, type TargetClients, unanswered } from '../target/clients.js';
import { setControlState } from '../target/control-surface.js';
import {
  CANCEL_REASON,
  OPEN_STATUS,
  pooled,
  scanUnresolved,
  sweepNotFound,
  sweepUnledgered,
} from './reference-scan.js';

/** The settle stage's result: what the run created, and what is left of it. */
export interface Settlement {
  /** Creates the run sent that the target did not refuse (arranged and replayed). */
  readonly created: number;
  /** Of those, orders no create answered for, found open by the run's reference (a target that made two of one create). */
  readonly unledgered: number;
  /** How the orders this run created ended, by outcome; those still open are not in it. */
  readonly ended: Readonly<Partial<Record<LedgerOutcome, number>>>;
  /** Orders still open in the ledger (this run's and earlier ones'). */
  readonly open: number;
  /** Of those, the orders earlier runs left open (in the same ledger). */
  readonly openEarlier: number;
  /** Of this run's open orders, those whose create got no usable answer and no scan found: maybe never made. */
  readonly unconfirmed: number;
  readonly problems: readonly string[];
  /** The ledger file, when it still exists. */
  readonly ledger: string | undefined;
}

/** What settling an entry needs; `clientsFor` is undefined for an entry whose credentials are unknown. */
export interface SettleContext {
  readonly ledger: Ledger;
  readonly clientsFor: (entry: LedgerEntry) => TargetClients | undefined;
  readonly pollIntervalMs: number;
  readonly secrets: readonly string[];
  /** Ends the waits early (a second signal, or the interrupt's budget). */
  readonly signal: AbortSignal;
  /** Where the reference scan says what it does. */
  readonly say: (line: string) => void;
}

const CREATION_FAILED = /fail/i;
/**
 * A cancel is retried at least this long, even for an order whose ledger deadline has passed; at
 * least its creation window (`--creation-timeout` when it was created), when that is shorter.
 */
const MIN_CANCEL_WINDOW_MS = 60_000;
/** Cancels sent at most to an order that still reads open after each answered success. */
const UNCONFIRMED_CANCELS = 3;

const message = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** An order as a settling read takes it: unchecked, only its status, id and uuid matter. */
type ReadOrder = { status?: unknown; id?: unknown; uuid?: unknown };

/**
 * Whether `order`, as read, is known to be the one of `id` or `uuid`: a sample-data set answers
 * its own sample for any id, so only a matching id or uuid tells.
 */
export const isSameOrder = (order: ReadOrder | null | undefined, id: number | undefined, uuid: string) =>
  (id !== undefined && order?.id === id) ||
  (typeof order?.uuid === 'string' && order.uuid.toLowerCase() === uuid.toLowerCase());

/** `order 1f2e… (state "an order exists", v2, https://…/api)` */
export const describeEntry = (entry: LedgerEntry) =>
  `order ${entry.uuid ?? '(uuid unknown)'} (${entry.source}, ${entry.version}, ${entry.target})`;

/**
 * The settle stage: cancels every order of this run still open; one whose create got no answer
 * stays for `--cleanup`, which finds it by the run's reference. An empty ledger is removed.
 */
export async function settle(context: SettleContext): Promise<Settlement> {
  const { ledger } = context;
  const mine = () => ledger.open().filter((entry) => entry.run === ledger.run);
  const { problems, unledgered } = await settleAndSweep(mine(), ledger.mine(), context);
  // The run's orders are all on its own target: embedded ones end with it.
  const gone = { outcome: 'gone', note: 'the embedded sample API ends with the run' } as const;
  for (const entry of mine()) {
    if (entry.embedded) {
      ledger.record('closed', entry.key, gone);
    } else if (entry.uuid === undefined) {
      problems.push(
        `${describeEntry(entry)}: its create got no usable answer (${entry.unresolved ?? 'the run ended first'}) and the scan by the run's reference did not settle it; pnpm verify --cleanup looks again for "${entry.reference}"`,
      );
    }
  }
  const removed = ledger.removeIfSettled();
  const created = ledger.mine().filter((entry) => entry.outcome !== 'not-created');
  const ended: Partial<Record<LedgerOutcome, number>> = {};
  for (const { outcome } of created) if (outcome) ended[outcome] = (ended[outcome] ?? 0) + 1;
  return {
    created: created.length,
    unledgered,
    ended,
    open: ledger.open().length,
    openEarlier: ledger.open().filter((entry) => entry.run !== ledger.run).length,
    unconfirmed: ledger.open().filter((entry) => entry.run === ledger.run && entry.uuid === undefined).length,
    problems,
    ledger: removed ? undefined : ledger.path,
  };
}

/**
 * Settles `entries`, then sweeps the target for the orders it made with the references of `sweepBy`
 * beyond what its creates answered (a target that made two of one create), and settles those too:
 * they are their run's. Returns why each order that stays open does, and how many the sweep found.
 */
export async function settleAndSweep(
  entries: readonly LedgerEntry[],
  sweepBy: readonly LedgerEntry[],
  context: SettleContext,
): Promise<{ problems: string[]; unledgered: number }> {
  const problems = await settleOrders(entries, context);
  const unledgered = await sweepUnledgered(context, sweepBy);
  if (unledgered.length > 0) problems.push(...(await settleOrders(unledgered, context)));
  return { problems, unledgered: unledgered.length };
}

/**
 * Cancels and crosses off every entry with a uuid, a few at a time, then looks for those whose create
 * got no uuid by their run's reference once their window has passed; returns why each that stays open does.
 * An order its cancels left open is read once more after the scans, which cancel every order they
 * find with the run's reference (a cancel whose answer never came may also have been done since).
 */
export async function settleOrders(
  entries: readonly LedgerEntry[],
  context: SettleContext,
): Promise<string[]> {
  const { ledger } = context;
  const settled = await pooled(
    entries.filter((entry) => entry.uuid !== undefined),
    async (entry) => {
      const problem = await settleOne(entry, entry.uuid as string, context)
        .then((ending) => (typeof ending === 'string' ? ending : ledger.record('closed', entry.key, ending)))
        .catch(message);
      return problem ? [{ entry, problem }] : [];
    },
  );
  const keys = new Set(entries.map((entry) => entry.key));
  const found = await scanUnresolved(context, (entry) => keys.has(entry.key));
  await sweepNotFound(
    context,
    entries.flatMap((entry) => ledger.get(entry.key) ?? []),
  );
  const left = await pooled(settled.flat(), async ({ entry, problem }) => {
    if (ledger.get(entry.key)?.outcome === undefined && (await readsCancelled(entry, context))) {
      ledger.record('closed', entry.key, { outcome: 'cancelled', note: 'found cancelled after the scans' });
      return [];
    }
    return [redact(`${describeEntry(entry)}: ${problem}`, context.secrets)];
  });
  const foundOpen = found.flatMap(({ key, why }) => {
    const entry = ledger.get(key);
    return entry ? [`${describeEntry(entry)}: found by the run's reference and not cancelled: ${why}`] : [];
  });
  return [...left.flat(), ...foundOpen.map((problem) => redact(problem, context.secrets))];
}

/**
 * Whether the order of `entry` reads cancelled now, known to be this one by its id or uuid (a
 * sample-data set answers its own sample for any id): one read, its failures a no.
 */
async function readsCancelled(entry: LedgerEntry, context: SettleContext): Promise<boolean> {
  const client = context.clientsFor(entry)?.settling(entry.credential, entry.version);
  if (!client || entry.controlled || entry.uuid === undefined) return false;
  const { uuid, id } = entry;
  const read = () => client.sendUnchecked('getOrder', { id: uuid }, { signal: context.signal });
  const order = (await reading(read, context.signal).catch(() => undefined)) as ReadOrder | undefined;
  return isSameOrder(order, id, uuid) && order?.status === 'cancelled';
}

/**
 * A 5xx that is not the vendor's documented refusal (a 500 "Cancel order failed": the order is in
 * production) nor throttling: a server error or a gateway's answer says nothing of the cancel.
 */
const serverErrorButRefusal = (error: unknown) =>
  serverError(error) && !bodyText(error.body).includes(CANCEL_REFUSED_MESSAGE);

/** How an entry is crossed off, or why it stays open. */
type Ending = LedgerEvents['closed'] | string;

/**
 * Cancels one order, by its id once known. A cancel the target answers 404 while the order does
 * not read (not created yet) is sent again until the order's ledger deadline; a throttled one is
 * retried by the transport until that deadline (at least a minute, or its creation window if
 * shorter), and one throttled for longer is sent once more within that floor. Every cancel is
 * checked by reading the order back, a successful one too; one that got no answer, an unusable one,
 * or a 5xx but the documented refusal, is sent again while the order does not read cancelled, until
 * that deadline, and one answered success while the order still reads open, twice more, or while it
 * does not read yet, until it does. Only what is still open then is left to `--cleanup`.
 */
async function settleOne(entry: LedgerEntry, uuid: string, context: SettleContext): Promise<Ending> {
  const { signal } = context;
  const creationWindow = Date.parse(entry.deadline) - Date.parse(entry.createdAt);
  const floor = creationWindow > 0 ? Math.min(creationWindow, MIN_CANCEL_WINDOW_MS) : MIN_CANCEL_WINDOW_MS;
  const deadline = () => Math.max(Date.parse(entry.deadline) || 0, Date.now() + floor);
  const clients = context.clientsFor(entry);
  if (!clients) return `no ${entry.credential} credentials for ${entry.target} to cancel it with`;
  if (entry.controlled) {
    if (!entry.controlOrigin) return 'it was moved on through a control surface that is not known';
    await setControlState(clients, entry.controlOrigin, uuid, 'cancelled', signal);
    return { outcome: 'cancelled', note: 'through the control surface' };
  }
  const client = clients.settling(entry.credential, entry.version);
  /**
   * The order as it reads now (its schema unchecked: only its status and id matter); null when the
   * target answered 404 (not created yet, or never), undefined when it gave no order.
   */
  const readOrder = () =>
    reading(
      () => client.sendUnchecked('getOrder', { id: uuid }, { signal, deadline: deadline() }),
      signal,
    ).then(
      (order) => order as ReadOrder | undefined,
      (failure: unknown) => (isHttpError(failure) && failure.status === 404 ? null : undefined),
    );
  // Where the target may answer its sample for any id, only an order known to be this one tells;
  // elsewhere an order read by this one's uuid is this one, also when it shows no uuid or id of ours.
  const sampleData = clients.target.mode === 'sample' && clients.target.controlOrigin === undefined;
  const ours = (order: ReadOrder | null | undefined) =>
    isSameOrder(order, entry.id, uuid) ||
    (!sampleData && entry.id === undefined && typeof order?.uuid !== 'string');
  /** The status of the order as it reads now, when it is known to be this one. */
  const readBack = async () => {
    const order = await readOrder();
    return ours(order) ? order?.status : undefined;
  };
  /**
   * "in-progress" when `order`, read after a cancel, still reads so: an order known to be this one (by its id or
   * uuid; a sample-data set answers its own sample for any id), in the documented status a cancel
   * ends. Any other answer (a status spelt anew, say) leaves the cancel's success standing.
   */
  const stillOpen = (order: Awaited<ReturnType<typeof readOrder>>) =>
    order?.status === OPEN_STATUS && isSameOrder(order, entry.id, uuid) ? order.status : undefined;
  /** Cancels answered success that the order did not bear out (it still read open after them). */
  let unconfirmed = 0;
  /** When the last cancel was sent. */
  let lastCancelAt = 0;
  /** The order was said to be still being created (once). */
  let saidCreating = false;
  /**
   * Whether the cancel is sent again after a success the order did not bear out: twice more, one
   * poll interval and two later (a second and two, by default).
   */
  const sendAgain = async () => {
    const pause = context.pollIntervalMs * ++unconfirmed;
    if (unconfirmed >= UNCONFIRMED_CANCELS || Date.now() + pause > cancelEnds) return false;
    return sleep(pause, true, { signal }).catch(() => false);
  };
  const creationEnds = Date.parse(entry.deadline) || Date.now();
  const cancelEnds = deadline();
  /**
   * Waits `pause` before the cancel is sent again to an order not found, maybe still being
   * created; the docs: still 404 past its window, it cannot be placed. Only a cancel sent past the
   * window shows that: reads throttled since an early 404 show nothing, so one more is sent then.
   */
  const stillCreating = async (pause: number): Promise<Ending | undefined> => {
    if (Date.now() + pause > creationEnds) {
      if (lastCancelAt > creationEnds) {
        return { outcome: 'not-found', note: `still 404 past its creation deadline ${entry.deadline}` };
      }
      pause = Math.max(0, creationEnds - Date.now()) + 1;
    }
    if (!saidCreating) {
      saidCreating = true;
      const left = Math.ceil((creationEnds - Date.now()) / 1000);
      context.say(
        `  order ${uuid} is still being created: cancelling it again until it can be (up to ${left} s)`,
      );
    }
    const waited = await sleep(pause, true, { signal }).catch(() => false);
    return waited ? undefined : 'not cancelled: the run was stopped while the order was still being created';
  };
  // The docs cancel by the numeric id; by the uuid only while the id is unknown.
  let ref: string | number = entry.id ?? uuid;
  /** The cancel last sent was answered 404 by an order that then read open. */
  let readOpen = false;
  /** A cancel was throttled past the cancel window once already. */
  let throttled = false;
  for (let pause = 25; ; pause = Math.min(context.pollIntervalMs, pause * 2)) {
    try {
      lastCancelAt = Date.now();
      const { success } = await client.cancelOrder(ref, CANCEL_REASON, { signal, deadline: deadline() });
      if (success) {
        // The vendor's word, checked: this order reading open after it was not cancelled, and one
        // not found yet still being created (its cancel then proves nothing): sent again once it can be.
        const order = await readOrder();
        if (order === null) {
          const ended = await stillCreating(pause);
          if (ended) return ended;
          continue;
        }
        const status = stillOpen(order);
        if (status === undefined) return { outcome: 'cancelled' };
        if (await sendAgain()) continue;
        const cancels = unconfirmed === 1 ? 'a cancel' : `${unconfirmed} cancels`;
        return `the order still reads with status ${JSON.stringify(status)} after ${cancels} answered "success": true`;
      }
      // The target says it did not cancel: the order tells.
      const status = await readBack();
      return status === 'cancelled'
        ? { outcome: 'cancelled', note: 'found cancelled; the cancel answered "success": false' }
        : `the cancel answered "success": false and the order reads with status ${JSON.stringify(status)}`;
    } catch (error) {
      if (isResponseValidationError(error)) {
        // The target answered 2xx with something unusable (a maintenance page, say): the order
        // tells, and one not cancelled is sent the cancel again, as one that got no answer, until
        // the window ends; a later answer may say more.
        if ((await readBack()) === 'cancelled') {
          return {
            outcome: 'cancelled',
            note: 'found cancelled; the answer to the cancel broke the contract',
          };
        }
        const again = Date.now() + pause < cancelEnds;
        if (again && (await sleep(pause, true, { signal }).catch(() => false))) continue;
        return `the answer to the cancel broke the contract and the order does not read cancelled: ${message(error)}`;
      }
      if (unanswered(error, signal) || serverErrorButRefusal(error)) {
        // The cancel may have been done, or never have arrived: the order tells. One that still
        // reads open is sent the cancel again while cancels are retried; one not found yet is
        // still being created, as after a 404 to the cancel.
        const order = await readOrder();
        if (order?.status === 'cancelled' && ours(order)) {
          return { outcome: 'cancelled', note: 'found cancelled; the cancel got no answer' };
        }
        if (order === null) {
          const ended = await stillCreating(pause);
          if (ended) return ended;
          continue;
        }
        const again = order !== undefined && Date.now() + pause < cancelEnds;
        if (again && (await sleep(pause, true, { signal }).catch(() => false))) continue;
        return `not cancelled: ${message(error)}`;
      }
      if (!isHttpError(error)) return `not cancelled: ${message(error)}`;
      if (error.status === 429 || (error.status === 503 && error.retryAfterSeconds !== undefined)) {
        // Throttled for longer than the cancel window (the transport waits out what fits in it):
        // sent once more within the window's floor, rather than left open on the vendor's word alone.
        const left = Math.min(cancelEnds - Date.now(), floor);
        if (!throttled && left > 0) {
          throttled = true;
          const why = error.retryAfterSeconds
            ? `asked to wait ${error.retryAfterSeconds} s`
            : 'kept throttling';
          context.say(
            `  order ${uuid}: the target ${why}; sending the cancel once more in ${Math.ceil(left / 1000)} s`,
          );
          if (await sleep(left, true, { signal }).catch(() => false)) continue;
        }
        const asked = error.retryAfterSeconds;
        const when = asked
          ? `; the target asked for no cancel before ${new Date(Date.now() + asked * 1000).toISOString()}`
          : '';
        return `not cancelled, throttled: ${error.message}${when}`;
      }
      if (error.status !== 404) {
        // The documented refusal, or a 4xx. A refusal of an order already cancelled is no problem.
        return (await readBack()) === 'cancelled'
          ? { outcome: 'cancelled', note: 'found cancelled' }
          : `cancel refused: ${error.message}`;
      }
      // The docs: a 404 "with an error message that the order creation has failed".
      if (CREATION_FAILED.test(bodyText(error.body))) {
        return { outcome: 'creation-failed', note: error.vendorMessage };
      }
      // An order that reads is created, whatever its cancel answered: never "not found".
      const order = await readOrder();
      if (order?.status === 'cancelled' && ours(order))
        return { outcome: 'cancelled', note: 'found cancelled' };
      if (order?.status !== undefined) {
        // Its creation may have ended between the cancel and the read: once more, by the id if known.
        const again = ref === uuid && typeof order.id === 'number' ? order.id : ref;
        if (again !== ref || !readOpen) {
          ref = again;
          readOpen = true;
          continue;
        }
        return `the cancel answered 404 while the order reads with status ${JSON.stringify(order.status)}: ${error.message}`;
      }
    }
    // Any other 404: the order may still be in its asynchronous creation.
    const ended = await stillCreating(pause);
    if (ended) return ended;
  }
}
