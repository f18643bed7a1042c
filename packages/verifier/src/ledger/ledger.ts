import { appendFileSync, lstatSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { dirname } from 'node:path';
import { type ApiVersion, REFERENCE_MAX_LENGTH } from '@print-contracts/client';
import { isUsageError, UsageError } from '../errors/index.js';
import type { CredentialRole, Target } from '../target/target.js';

/** How an order's life in the ledger ended. */
export type LedgerOutcome =
  | 'cancelled' // by the run, or found already cancelled
  | 'not-created' // the target refused the create
  | 'creation-failed' // accepted, then its asynchronous creation failed: nothing to cancel
  | 'gone' // it lived on the embedded sample API, gone with its process
  | 'not-found' // still 404 past its creation window: nothing is left to cancel
  | 'settled-by-reference'; // its uuid never came back; a scan by the run's reference settled it

/** One order the run creates, as its events so far describe it. */
export interface LedgerEntry {
  readonly key: string;
  readonly run: string;
  /** Every order of the run carries it, so a scan finds one whose uuid never came back. */
  readonly reference: string;
  /** The target's base URL, ending in `/api`. */
  readonly target: string;
  readonly embedded: boolean;
  /** The control surface the run used for this order, if any. */
  readonly controlOrigin?: string;
  readonly credential: CredentialRole;
  readonly version: ApiVersion;
  /** What created it: a provider state, or a replayed interaction. */
  readonly source: string;
  readonly createdAt: string;
  /** Until when arranging, teardown and cleanup wait for its asynchronous creation. */
  readonly deadline: string;
  readonly uuid?: string;
  readonly id?: number;
  /** Moved on through the control surface (in production, completed): it is cancelled through it. */
  readonly controlled?: boolean;
  /** Why its create got no complete answer: the order may exist, with an unknown uuid. */
  readonly unresolved?: string;
  readonly outcome?: LedgerOutcome;
}

/** Orders dated this long before a run's first create may still be the run's: clocks differ. */
export const CLOCK_SKEW_MS = 15 * 60_000;

/** The events after `creating`, with the fields the file gives each. */
export interface LedgerEvents {
  /** `deadline`: the creation window again, from the answer (a create throttled for long used up its first). */
  created: { uuid: string; deadline?: string };
  read: { id: number };
  controlled: object;
  unresolved: { reason: string };
  closed: { outcome: LedgerOutcome; note?: string };
}

/** What each event changes in its entry. */
const CHANGES: { [E in keyof LedgerEvents]: (fields: LedgerEvents[E]) => Partial<LedgerEntry> } = {
  created: ({ uuid, deadline }) => ({ uuid, unresolved: undefined, ...(deadline ? { deadline } : {}) }),
  read: ({ id }) => ({ id }),
  controlled: () => ({ controlled: true }),
  unresolved: ({ reason }) => ({ unresolved: reason }),
  closed: ({ outcome }) => ({ outcome }),
};

/** The reference every order of run `run` carries (the vendor allows 35 characters). */
export const runReference = (run: string) => `contract verify ${run}`.slice(0, REFERENCE_MAX_LENGTH);

type LedgerLine = { readonly event: string; readonly key: string } & Record<string, unknown>;

const isLedgerLine = (value: unknown): value is LedgerLine =>
  typeof value === 'object' &&
  value !== null &&
  typeof (value as LedgerLine).event === 'string' &&
  typeof (value as LedgerLine).key === 'string';

/**
 * The events of the ledger at `path` (none when there is no file). A file that is not a ledger
 * is a `UsageError`: the run would append to it and remove it once settled.
 */
export function readLedgerEvents(path: string): LedgerLine[] {
  let text = '';
  try {
    // Only a regular file is a ledger: a device, a pipe or a link (dangling or not) is refused, never removed.
    if (!lstatSync(path).isFile()) {
      throw new UsageError(
        `--ledger ${path} is not a regular file; give a path of its own, such as reports/verify-ledger.jsonl`,
      );
    }
    text = readFileSync(path, 'utf8');
  } catch (error) {
    if (isUsageError(error)) throw error;
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return [];
    throw new UsageError(`the ledger ${path} cannot be read (${code ?? 'error'}); give a readable --ledger`);
  }
  const lines = text.split('\n');
  const events: LedgerLine[] = [];
  for (const [index, line] of lines.entries()) {
    if (line.trim() === '') continue;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      // A torn last line (the process died mid-write) after events is no event; any other is no ledger.
      if (index === lines.length - 1 && events.length > 0) continue;
    }
    if (!isLedgerLine(value)) {
      throw new UsageError(
        `--ledger ${path} is not a ledger of pnpm verify (line ${index + 1}); give a path of its own, such as reports/verify-ledger.jsonl`,
      );
    }
    events.push(value);
  }
  return events;
}

/**
 * Every order the verifier creates, one appended JSON line per event (no credential). Several stages
 * share the file on purpose: a killed run leaves it behind, and `--cleanup` finishes what stays open.
 */
export class Ledger {
  readonly path: string;
  readonly run: string;
  readonly reference: string;
  readonly #creationTimeoutMs: number;
  readonly #entries = new Map<string, LedgerEntry>();
  #counter = 0;

  private constructor(path: string, run: string, creationTimeoutMs: number) {
    this.path = path;
    this.run = run;
    this.reference = runReference(run);
    this.#creationTimeoutMs = creationTimeoutMs;
  }

  /** Opens (or starts) the ledger at `path`, reading what earlier runs left open. */
  static open(path: string, run: string, creationTimeoutMs: number): Ledger {
    const ledger = new Ledger(path, run, creationTimeoutMs);
    for (const { event, key, ...fields } of readLedgerEvents(path)) {
      if (event === 'creating') ledger.#entries.set(key, { key, ...fields } as LedgerEntry);
      else if (Object.hasOwn(CHANGES, event))
        ledger.#apply(event as keyof LedgerEvents, key, fields as LedgerEvents[keyof LedgerEvents]);
    }
    return ledger;
  }

  /** Records an order about to be created; returns its key. Call before sending the request. */
  creating(
    target: Target,
    entry: Pick<LedgerEntry, 'credential' | 'version' | 'source'>,
    controlOrigin?: string,
  ): string {
    const key = `${this.run}-${++this.#counter}`;
    const now = Date.now();
    const fields = {
      key,
      run: this.run,
      reference: this.reference,
      createdAt: new Date(now).toISOString(),
      deadline: new Date(now + this.#creationTimeoutMs).toISOString(),
      target: target.baseUrl,
      embedded: target.kind === 'embedded',
      controlOrigin,
      ...entry,
    };
    this.#entries.set(key, fields);
    this.#append({ event: 'creating', ...fields });
    return key;
  }

  /**
   * Records the uuid the target answered a create with; the order's creation window starts again
   * from the answer, since the vendor processes an order from when it accepted it.
   */
  answered(key: string, uuid: string): void {
    this.record('created', key, {
      uuid,
      deadline: new Date(Date.now() + this.#creationTimeoutMs).toISOString(),
    });
  }

  /** Appends `event` to the file and applies it to the entry `key`. */
  record<E extends keyof LedgerEvents>(event: E, key: string, fields: LedgerEvents[E]): void {
    this.#apply(event, key, fields);
    this.#append({ event, key, ...fields });
  }

  get(key: string): LedgerEntry | undefined {
    return this.#entries.get(key);
  }

  /** Entries not crossed off yet, from this run and any earlier one. */
  open(): LedgerEntry[] {
    return [...this.#entries.values()].filter((entry) => entry.outcome === undefined);
  }

  /** Every entry of this run, crossed off or not: what the run created. */
  mine(): LedgerEntry[] {
    return [...this.#entries.values()].filter((entry) => entry.run === this.run);
  }

  /** Every entry whose create carried `reference` (one run's), crossed off or not. */
  withReference(reference: string): LedgerEntry[] {
    return [...this.#entries.values()].filter((entry) => entry.reference === reference);
  }

  /** True when `ref` (numeric id or uuid, any case) names an order this run created. */
  owns(ref: string): boolean {
    const wanted = ref.toLowerCase();
    return this.mine().some(
      (entry) =>
        entry.uuid?.toLowerCase() === wanted || (entry.id !== undefined && String(entry.id) === wanted),
    );
  }

  /** Removes the file when nothing is open, and it still is a ledger (a regular file of events); true when it did. */
  removeIfSettled(): boolean {
    if (this.open().length > 0) return false;
    try {
      readLedgerEvents(this.path);
    } catch {
      return false;
    }
    rmSync(this.path, { force: true });
    return true;
  }

  #apply<E extends keyof LedgerEvents>(event: E, key: string, fields: LedgerEvents[E]): void {
    const entry = this.#entries.get(key);
    if (entry) this.#entries.set(key, { ...entry, ...CHANGES[event](fields) });
  }

  #append(line: object): void {
    mkdirSync(dirname(this.path), { recursive: true });
    appendFileSync(this.path, `${JSON.stringify(line)}\n`);
  }
}
