import { setTimeout as sleep } from 'node:timers/promises';
import {
  API_VERSIONS,
  type ApiVersion,
  ISO_DATE_TIME_PATTERN,
  isHttpError,
  LIST_LIMIT_MAX,
} from '@print-contracts/client';
import { isJsonObject, type JsonObject } from '@print-contracts/client/kit';
import { summariesOf } from '../arrange/listed-orders.js';
import { CLOCK_SKEW_MS, type LedgerEntry } from '../ledger/ledger.js';
import { reading, type TargetClients } from '../target/clients.js';
import type { SettleContext } from './settle.js';

/** How many pages of orders a scan reads at most (50 orders each). */
const MAX_SCAN_PAGES = 100;
/** Requests the teardown has in flight at once: cancels, and the scan's reads. */
const AT_ONCE = 8;
/** Rounds of reading again, after the walk, the listed orders whose reads stayed unusable. */
const UNREADABLE_ROUNDS = 3;
/** Cancels sent at most to an order the scan found, while it reads open after each. */
const FOUND_CANCELS = 3;
/** The reason every cancel of the teardown and cleanup gives. */
export const CANCEL_REASON = 'Cleanup by the contract verifier';
/** The documented status of an order a cancel ends: one that still reads so was not cancelled. */
export const OPEN_STATUS = 'in-progress';

/** An entry of a create without a uuid that now stands for an order the scan found and could not cancel. */
export interface FoundOpen {
  readonly key: string;
  /** Why the order is still open: what its last cancel met. */
  readonly why: string;
}

/**
 * Creates whose answer never came, looked for by their run's reference (per target, credential set
 * and reference), and crossed off when the scan saw every order of their window and read back at
 * least one listed order with that reference (else it cannot tell that the list shows them). An
 * order the scan finds and cannot cancel, that no entry knows, takes the place of one of those
 * creates in the ledger, by its uuid and id: each open order is held once, and cancelled by its id
 * next time.
 */
export async function scanUnresolved(
  context: SettleContext,
  which: (entry: LedgerEntry) => boolean,
): Promise<FoundOpen[]> {
  const lost = context.ledger.open().filter((entry) => entry.uuid === undefined && which(entry));
  const found: FoundOpen[] = [];
  await scanGroups(context, lost, 'without a uuid', { crossOff: true, found });
  return found;
}

/**
 * Orders still 404 by the uuid their create answered, past their window: looked for by their run's
 * reference too, since a target whose uuids name no order still lists the orders it made. What the
 * scan finds is cancelled; the entries stay as they were closed.
 */
export async function sweepNotFound(context: SettleContext, entries: readonly LedgerEntry[]): Promise<void> {
  const unfound = entries.filter((entry) => entry.outcome === 'not-found');
  await scanGroups(context, unfound, 'whose uuid named no order', { crossOff: false });
}

/**
 * One scan per target, credential set and reference of `entries`, whatever their API versions:
 * each version lists the orders of both, so a scan per version would find and cancel the same
 * orders again.
 */
async function scanGroups(
  context: SettleContext,
  entries: readonly LedgerEntry[],
  what: string,
  aim: ScanAim,
): Promise<void> {
  const { say } = context;
  const groups = new Map<string, LedgerEntry[]>();
  for (const entry of entries) {
    if (entry.embedded) continue;
    const key = `${entry.target}|${entry.credential}|${entry.reference}`;
    groups.set(key, [...(groups.get(key) ?? []), entry]);
  }
  for (const group of groups.values()) {
    const entries = group as [LedgerEntry, ...LedgerEntry[]];
    const [{ target, reference }] = entries;
    const clients = context.clientsFor(entries[0]);
    const counts = API_VERSIONS.flatMap((version) => {
      const count = entries.filter((entry) => entry.version === version).length;
      return count > 0 ? [`${count} ${version}`] : [];
    });
    const many = `${counts.join(' and ')} create${entries.length === 1 ? '' : 's'} ${what}`;
    if (!clients || !reference) {
      say(`  ${many} at ${target} cannot be looked for: no credentials or no reference`);
      continue;
    }
    say(`  ${many}: looking for orders with reference "${reference}" at ${target}`);
    await scanEither(context, clients, entries, aim).catch((error: unknown) => {
      say(`  the scan for "${reference}" failed: ${(error as Error).message}`);
    });
  }
}

/**
 * Open orders with the reference of `entries` that no entry of the ledger knows by its id or uuid (a
 * target that made two orders of one create, say): looked for once per target and credential set,
 * without waiting, and entered in the ledger, to be cancelled as the run's own. Says nothing when
 * it finds nothing.
 */
export async function sweepUnledgered(context: SettleContext, entries: readonly LedgerEntry[]) {
  const { ledger, say } = context;
  const groups = new Map<string, LedgerEntry[]>();
  for (const entry of entries) {
    // A create the target refused made nothing to look for.
    if (entry.embedded || !entry.reference || entry.outcome === 'not-created') continue;
    const key = `${entry.target}|${entry.credential}|${entry.reference}`;
    groups.set(key, [...(groups.get(key) ?? []), entry]);
  }
  const found: LedgerEntry[] = [];
  // One sweep per credential set, side by side: each is a list walk of its own.
  const sweep = async (members: LedgerEntry[]) => {
    const group = members as [LedgerEntry, ...LedgerEntry[]];
    const [{ credential, version, reference }] = group;
    const clients = context.clientsFor(group[0]);
    if (!clients) return;
    const entered = new Set<number>();
    const unknown = (order: JsonObject & { id: number }) => {
      // Read through both versions when one could not tell orders apart: entered once.
      if (entered.has(order.id)) return;
      entered.add(order.id);
      const source = "found by the run's reference, unknown to the ledger";
      const key = ledger.creating(clients.target, { credential, version, source });
      ledger.record('created', key, { uuid: typeof order.uuid === 'string' ? order.uuid : String(order.id) });
      ledger.record('read', key, { id: order.id });
      found.push(ledger.get(key) as LedgerEntry);
    };
    await scanEither(context, clients, group, { crossOff: false, unknown }).catch((error: unknown) => {
      say(`  the sweep for orders with reference "${reference}" failed: ${(error as Error).message}`);
    });
  };
  await Promise.all([...groups.values()].map(sweep));
  return found;
}

/** What a scan does with the orders it finds: cancels them (`unknown` absent) or hands those no entry knows to `unknown`. */
interface ScanAim {
  /**
   * Crosses the entries off once the scan saw every order of their window; an order it found and
   * could not cancel that no entry knows takes the place of one of them first, listed in `found`.
   */
  readonly crossOff: boolean;
  readonly found?: FoundOpen[];
  readonly unknown?: (order: JsonObject & { id: number }) => void;
}

/**
 * A scan through the API version of `entries`, then, when that version's list or orders could not
 * be told apart (a vendor that changed one version), once more through the other: each version
 * lists the orders of both.
 */
async function scanEither(
  context: SettleContext,
  clients: TargetClients,
  entries: readonly [LedgerEntry, ...LedgerEntry[]],
  aim: ScanAim,
): Promise<void> {
  const [{ version }] = entries;
  if (!(await scan(context, clients, entries, aim, version))) return;
  const other = API_VERSIONS.find((each) => each !== version) ?? version;
  context.say(`  reading the orders through the ${other} API instead`);
  await scan(context, clients, entries, aim, other);
}

/**
 * Once `entries` are past their deadlines, reads the caller's orders since the first create in full
 * (the list shows no reference), through API version `readAs`, and cancels those with their
 * reference; crosses `entries` off when nothing was missed and an order listed read back with their
 * reference. A sweep for `unknown` orders waits for nothing and reads only those. Returns whether
 * that version's answers could not be told apart (a list without its orders, orders without a
 * usable id or reference, or, for a scan that crosses off, no order read back with the reference).
 */
async function scan(
  { ledger, signal, say, pollIntervalMs }: SettleContext,
  clients: TargetClients,
  entries: readonly [LedgerEntry, ...LedgerEntry[]],
  { crossOff, found, unknown }: ScanAim,
  readAs: ApiVersion,
): Promise<boolean> {
  const [{ reference, credential }] = entries;
  const client = clients.settling(credential, readAs);
  const wait = Math.max(...entries.map((entry) => Date.parse(entry.deadline) || 0)) - Date.now();
  if (wait > 0 && !unknown) {
    say(`  waiting ${Math.ceil(wait / 1000)} s, until every create of the run has had its creation window…`);
    await sleep(wait, undefined, { signal });
  }
  let cutoff = Math.min(...entries.map((entry) => Date.parse(entry.createdAt))) - CLOCK_SKEW_MS;
  // The run's own orders, known by id or uuid: listed with a date before the window, they show
  // the target's dates are no creation times (or its clock is off), and no date bounds the scan.
  const own = new Set<number | string>(
    ledger
      .withReference(reference ?? '')
      .flatMap(({ id, uuid }) => [id ?? [], uuid?.toLowerCase() ?? []].flat()),
  );
  // None known (every create's answer lost, say): nothing shows whether the target's dates are
  // creation times on the kit's clock, so no date bounds the scan from the start. The sweep for
  // unknown orders keeps its window: the scan for those creates read every listed order before it.
  if (own.size === 0 && !unknown) {
    cutoff = -Infinity;
    say('  no order of the run is known by its id or uuid: the scan reads every listed order');
  }
  const isOwn = (order: { id: number; uuid?: unknown }) =>
    own.has(order.id) || (typeof order.uuid === 'string' && own.has(order.uuid.toLowerCase()));
  const ownBeforeWindow = (order: { id: number; uuid?: string | null; date: string }) =>
    isOwn(order) && Date.parse(order.date) < cutoff;
  /** Orders listed but not read, being dated before the window. */
  const passed: { id: number }[] = [];
  let cancelled = 0;
  let already = 0;
  /** Orders found open that no entry knows, which their cancels left open: each takes a create's place. */
  const kept: { id: number; uuid: string; why: string }[] = [];
  /** Orders found open that an entry knows, which their cancels left open: their entries hold them. */
  let heldOpen = 0;
  let complete = true;
  let end = false;
  let repeated: number | undefined;
  /** A page of the list came without its orders, or without an id among them: the walk stopped there, said so. */
  let unlistable = false;
  const read = new Set<number>();
  const readOrder = (id: number) =>
    reading(() => client.sendUnchecked('getOrder', { id }, { signal }), signal).then(
      (order) => (isJsonObject(order) ? order : undefined),
      (error: unknown) => {
        if (isHttpError(error) && error.status === 404) return undefined;
        throw error;
      },
    );
  /** Orders of the window whose reads stayed unusable, and why the last one did: read again after the walk. */
  const unreadable: number[] = [];
  let unreadableWhy = '';
  /** The order as read; null when it could not be read, and is kept to be read again. */
  const readOrKeep = (id: number) =>
    readOrder(id).catch((error: unknown) => {
      if (signal.aborted) throw error;
      unreadable.push(id);
      unreadableWhy = (error as Error).message;
      return null;
    });
  /** Orders listed without a usable id, and orders read without a reference (a string or null): either may be the run's. */
  let idless = 0;
  let unmarked = 0;
  /**
   * An order listed in this scan was read back carrying the reference (one of the run's, cancelled
   * or not, or one found): the scan showed it can see the run's orders. Without that, finding none
   * proves nothing (a list that leaves test orders out, reads that drop or cut the reference).
   */
  let sighted = false;
  /** Cancels (or hands to `unknown`) the order `id` reads as, when it carries the reference and is open. */
  const take = async (id: number, order: JsonObject | undefined) => {
    if (order && order.reference !== null && typeof order.reference !== 'string') unmarked++;
    if (order?.reference !== reference) return;
    sighted = true;
    if (order.status === 'cancelled') {
      already++;
    } else if (unknown) {
      unknown({ ...order, id });
      cancelled++;
    } else {
      const failure = await cancelFound(
        id,
        () => client.cancelOrder(id, CANCEL_REASON, { signal }),
        readOrder,
        { signal, pollIntervalMs },
      );
      if (failure === undefined) cancelled++;
      else {
        say(`  order ${id} carries "${reference}" but could not be cancelled: ${failure}`);
        const uuid = typeof order.uuid === 'string' ? order.uuid : String(id);
        if (isOwn({ id, uuid: order.uuid })) heldOpen++;
        else kept.push({ id, uuid, why: failure });
      }
    }
  };
  /** Reads `ids` a few at a time, then takes each order read, in order. */
  const readAndTake = async (ids: readonly number[]) => {
    const details = await pooled(ids, readOrKeep);
    for (const [index, id] of ids.entries()) {
      const order = details[index];
      if (order !== null) await take(id, order);
    }
  };
  // As the arranger's walk: each page after what was listed, until an empty one (the docs' end).
  // Read unchecked, by the weakest signal (an id, a reference, a status): an answer that breaks the
  // contract is the replay's to judge, and must not keep the run's orders open.
  for (let page = 0, offset = 0; page < MAX_SCAN_PAGES && !end && repeated === undefined; page++) {
    const query = { limit: LIST_LIMIT_MAX, offset };
    const answer = await reading(() => client.sendUnchecked('listOrders', { query }, { signal }), signal);
    if (!isJsonObject(answer) || !Array.isArray(answer.orders)) {
      say(`  the list answered without an "orders" array at offset ${offset}: the scan cannot read on`);
      complete = false;
      unlistable = true;
      break;
    }
    const listed = answer.orders.length;
    const orders = summariesOf(answer);
    if (listed > 0 && orders.length === 0) {
      // Where such a list ends, or repeats itself, cannot be told either.
      say(`  the list's ${listed} orders at offset ${offset} have no usable id: the scan cannot read on`);
      complete = false;
      unlistable = true;
      break;
    }
    idless += listed - orders.length;
    offset += listed;
    // A list that ignores `offset` would have every page read in full again, up to the bound.
    if (orders.length > 0 && orders.every((order) => read.has(order.id))) repeated = page + 1;
    if (cutoff !== -Infinity && orders.some(ownBeforeWindow)) {
      cutoff = -Infinity;
      say('  the target dates orders of this run before it began: the scan reads every listed order');
    }
    const recent = orders.filter(
      (order) => !ISO_DATE_TIME_PATTERN.test(order.date) || Date.parse(order.date) >= cutoff,
    );
    const unread = [
      ...(cutoff === -Infinity ? passed.splice(0) : []),
      ...recent.filter((order) => !read.has(order.id) && !(unknown && isOwn(order))),
    ];
    passed.push(...orders.filter((order) => !recent.includes(order)));
    for (const { id } of orders) read.add(id);
    // Read a few at a time: on a slow vendor, an account's own recent orders cost one read each.
    await readAndTake(unread.map(({ id }) => id));
    const sortedNewestFirst = orders.every(
      (order, index) => index === 0 || Date.parse(order.date) <= Date.parse(orders[index - 1]?.date ?? ''),
    );
    const pastTheWindow = sortedNewestFirst && orders.length > 0 && recent.length < orders.length;
    end = listed === 0 || pastTheWindow;
  }
  // An order whose reads stayed unusable may be the run's: read again a few times, later each time.
  for (let round = 1; unreadable.length > 0 && round <= UNREADABLE_ROUNDS; round++) {
    if (!(await sleep(pollIntervalMs * round, true, { signal }).catch(() => false))) break;
    await readAndTake(unreadable.splice(0));
  }
  if (unreadable.length > 0) {
    say(`  ${unreadable.length} orders listed in the window could not be read (${unreadableWhy})`);
    complete = false;
  }
  if (idless > 0 || unmarked > 0) {
    const what = [
      idless > 0 ? `${idless} listed orders had no usable id` : [],
      unmarked > 0 ? `${unmarked} orders read had no "reference"` : [],
    ].flat();
    say(`  ${what.join(' and ')}: the scan cannot tell whether they are the run's`);
    complete = false;
  }
  if (repeated !== undefined) {
    say(`  the scan stopped at page ${repeated}, which listed only orders of earlier pages`);
    complete = false;
  } else if (!end && !unlistable) {
    say(`  the scan stopped after ${MAX_SCAN_PAGES} pages of orders without reaching the end`);
    complete = false;
  }
  // Only a scan that crosses creates off must show it sees the run's orders: the sweeps cross
  // nothing off (the sweep for unknown orders does not even read the ones the ledger knows).
  const blind = crossOff && !sighted;
  if (blind && complete) {
    say(
      '  no order of the run was listed with its reference: the scan cannot tell whether the list shows them',
    );
  }
  if (blind) complete = false;
  const untold = unlistable || idless > 0 || unmarked > 0 || blind;
  if (unknown) {
    if (cancelled > 0) {
      say(
        `  found ${cancelled} open orders with reference "${reference}" that no create of the run answered for: cancelling them too`,
      );
    }
    return untold;
  }
  const open = heldOpen + kept.length;
  say(
    `  found ${cancelled + already + open} orders with it: cancelled ${cancelled}, already cancelled ${already}${open > 0 ? `, not cancelled ${open}` : ''}`,
  );
  if (!crossOff) return untold;
  // The creates still without a uuid (a scan through the other version comes after this one).
  const waiting = entries.filter((entry) => ledger.get(entry.key)?.uuid === undefined);
  for (const [index, entry] of waiting.entries()) {
    const order = kept[index];
    if (order) {
      ledger.record('created', entry.key, { uuid: order.uuid });
      ledger.record('read', entry.key, { id: order.id });
      found?.push({ key: entry.key, why: order.why });
    } else if (complete) {
      const note = `scan found ${cancelled} to cancel`;
      ledger.record('closed', entry.key, { outcome: 'settled-by-reference', note });
    }
  }
  return untold;
}

/**
 * Cancels an order the scan found, and reads it back: one still open after a cancel (answered
 * success, unusably, or not at all) is sent it again, twice at most, one poll interval and two later.
 * Returns why it stays open, or undefined.
 */
async function cancelFound(
  id: number,
  cancel: () => Promise<{ success: boolean }>,
  readOrder: (id: number) => Promise<JsonObject | undefined>,
  { signal, pollIntervalMs }: Pick<SettleContext, 'signal' | 'pollIntervalMs'>,
): Promise<string | undefined> {
  for (let attempt = 1; ; attempt++) {
    const why = await cancel().then(
      ({ success }) => (success ? undefined : 'the cancel answered "success": false'),
      (error: unknown) => (error as Error).message,
    );
    // Only an order read with its own id tells (a sample-data set answers its sample for any id).
    const read = await readOrder(id).catch(() => undefined);
    const status = read?.id === id ? read.status : undefined;
    if (status === 'cancelled') return undefined;
    // A cancel answered success stands unless the order still reads in progress.
    if (why === undefined && status !== OPEN_STATUS) return undefined;
    if (attempt === FOUND_CANCELS) {
      return why ?? `it still reads ${JSON.stringify(status)} after ${attempt} cancels answered success`;
    }
    if (!(await sleep(pollIntervalMs * attempt, true, { signal }).catch(() => false))) {
      return why ?? 'the run was stopped';
    }
  }
}

/** `each` of `items`, at most `AT_ONCE` at a time; the results in the items' order. */
export async function pooled<T, R>(items: readonly T[], each: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = [];
  let next = 0;
  const worker = async () => {
    for (let index = next++; index < items.length; index = next++) {
      results[index] = await each(items[index] as T);
    }
  };
  await Promise.all(Array.from({ length: Math.min(AT_ONCE, items.length) }, worker));
  return results;
}
