import { appendFileSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { dirname } from 'node:path';
import { type ApiVersion, REFERENCE_MAX_LENGTH } from '@print-contracts/client';
import { UsageError } from '../errors/usage-error.js';
import type { CredentialRole, Target } from '../target/target.js';

/** How an order's life in the ledger ended. */
export type LedgerOutcome =
  /** Cancelled by the run (or found already cancelled). */
  | 'cancelled'
  /** The target refused the create: no order exists. */
  | 'not-created'
  /** Accepted, then its asynchronous creation failed: nothing to cancel. */
  | 'creation-failed'
  /** It lived on the embedded sample API, which is gone with its process. */
  | 'gone'
  /** Past its creation window the target answers 404 to cancelling it: nothing is left to cancel. */
  | 'not-found'
  /** Its uuid was never known; a scan of the target's orders by the run's reference settled it. */
  | 'settled-by-reference';

/** One order the run creates, from the line written before its request is sent. */
export interface LedgerEntry {
  readonly key: string;
  readonly run: string;
  /** What every order of the run carries, so a scan finds one whose uuid never came back. */
  readonly reference: string;
  /** Base URL of the target, ending in `/api`. */
  readonly target: string;
  readonly embedded: boolean;
  /** Where the sample API's control surface is, when the run used one for this order. */
  readonly controlOrigin: string | undefined;
  readonly credential: CredentialRole;
  readonly version: ApiVersion;
  /** What created it: a provider state, or a replayed interaction. */
  readonly source: string;
  readonly createdAt: string;
  /** Until when any phase (arranging, teardown, cleanup) waits for its asynchronous creation. */
  readonly deadline: string;
  readonly uuid: string | undefined;
  /** Its numeric id, once it was read back. */
  readonly id: number | undefined;
  /** The control surface moved it on (in production, completed): it is cancelled through it. */
  readonly controlled: boolean;
  /** The request got no complete answer: the order may exist, with an unknown uuid. */
  readonly unresolved: string | undefined;
  readonly outcome: LedgerOutcome | undefined;
}

type LedgerEvent =
  | ({ event: 'creating' } & Omit<LedgerEntry, 'uuid' | 'id' | 'controlled' | 'unresolved' | 'outcome'>)
  | { event: 'created'; key: string; uuid: string }
  | { event: 'read'; key: string; id: number }
  | { event: 'controlled'; key: string }
  | { event: 'unresolved'; key: string; reason: string }
  | { event: 'closed'; key: string; outcome: LedgerOutcome; note?: string };

/** The reference every order of run `run` carries (the vendor allows 35 characters). */
export const runReference = (run: string) => `contract verify ${run}`.slice(0, REFERENCE_MAX_LENGTH);

/**
 * The append-only record of every order the verifier creates, one JSON line per event (no
 * credential): `creating` is written synchronously before the create leaves, `closed` crosses
 * the order off; `--cleanup` finishes what stays open. Several stages write it: the file is
 * the shared state on purpose, so that a killed process leaves it behind.
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

  /** The ledger's folder exists (made on the first write, and kept). */
  #folderMade = false;

  /** Opens (or starts) the ledger at `path`, reading what earlier runs left open. */
  static open(path: string, run: string, creationTimeoutMs: number): Ledger {
    const ledger = new Ledger(path, run, creationTimeoutMs);
    let text = '';
    try {
      text = readFileSync(path, 'utf8');
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== 'ENOENT') {
        throw new UsageError(
          `the ledger ${path} cannot be read (${code ?? 'error'}); give a readable --ledger`,
        );
      }
    }
    for (const line of text.split('\n')) {
      try {
        ledger.#apply(JSON.parse(line) as LedgerEvent);
      } catch {
        // A blank line, or a torn last one (the process died mid-write): no event.
      }
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
    this.#write({
      event: 'creating',
      key,
      run: this.run,
      reference: this.reference,
      createdAt: new Date(now).toISOString(),
      deadline: new Date(now + this.#creationTimeoutMs).toISOString(),
      target: target.baseUrl,
      embedded: target.kind === 'embedded',
      controlOrigin,
      ...entry,
    });
    return key;
  }

  created(key: string, uuid: string): void {
    this.#write({ event: 'created', key, uuid });
  }

  read(key: string, id: number): void {
    if (this.#entries.get(key)?.id !== id) this.#write({ event: 'read', key, id });
  }

  controlled(key: string): void {
    this.#write({ event: 'controlled', key });
  }

  unresolved(key: string, reason: string): void {
    this.#write({ event: 'unresolved', key, reason });
  }

  close(key: string, outcome: LedgerOutcome, note?: string): void {
    this.#write({ event: 'closed', key, outcome, ...(note ? { note } : {}) });
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

  /** True when `ref` (numeric id or uuid, any case) names an order this run created. */
  owns(ref: string): boolean {
    const wanted = ref.toLowerCase();
    return this.mine().some(
      (entry) =>
        entry.uuid?.toLowerCase() === wanted || (entry.id !== undefined && String(entry.id) === wanted),
    );
  }

  /** Removes the file when nothing is open; true when it did. */
  removeIfSettled(): boolean {
    if (this.open().length > 0) return false;
    rmSync(this.path, { force: true });
    return true;
  }

  #write(event: LedgerEvent): void {
    this.#apply(event);
    if (!this.#folderMade) mkdirSync(dirname(this.path), { recursive: true });
    this.#folderMade = true;
    appendFileSync(this.path, `${JSON.stringify(event)}\n`);
  }

  #apply(event: LedgerEvent): void {
    if (event.event === 'creating') {
      const { event: _event, ...entry } = event;
      this.#entries.set(event.key, {
        ...entry,
        uuid: undefined,
        id: undefined,
        controlled: false,
        unresolved: undefined,
        outcome: undefined,
      });
      return;
    }
    const entry = this.#entries.get(event.key);
    if (!entry) return;
    this.#entries.set(event.key, { ...entry, ...changeOf(event) });
  }
}

function changeOf(event: Exclude<LedgerEvent, { event: 'creating' }>): Partial<LedgerEntry> {
  switch (event.event) {
    case 'created':
      return { uuid: event.uuid, unresolved: undefined };
    case 'read':
      return { id: event.id };
    case 'controlled':
      return { controlled: true };
    case 'unresolved':
      return { unresolved: event.reason };
    case 'closed':
      return { outcome: event.outcome };
  }
}
