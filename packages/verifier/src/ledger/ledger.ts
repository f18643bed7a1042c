import { appendFileSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { dirname } from 'node:path';
import type { ApiVersion } from '@print-contracts/client';
import type { CredentialRole } from '../plan/fixture-spec.js';

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
  /** Past its creation, the target answers 404 to cancelling it: there is nothing left to cancel. */
  | 'not-found'
  /** `--cleanup` could not act on it (its uuid was never known) and told the user to check by hand. */
  | 'abandoned';

/** One order the run creates, from the line written before its request is sent. */
export interface LedgerEntry {
  readonly key: string;
  readonly run: string;
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
  uuid: string | undefined;
  /** Set when the control surface moved it on (in production, completed): it needs the control surface to be cancelled. */
  controlled: boolean;
  /** The request got no complete answer: the order may exist, with an unknown uuid. */
  unresolved: string | undefined;
  outcome: LedgerOutcome | undefined;
}

type LedgerEvent =
  | ({ event: 'creating' } & Omit<LedgerEntry, 'uuid' | 'controlled' | 'unresolved' | 'outcome'>)
  | { event: 'created'; key: string; uuid: string }
  | { event: 'controlled'; key: string }
  | { event: 'unresolved'; key: string; reason: string }
  | { event: 'closed'; key: string; outcome: LedgerOutcome; note?: string };

/**
 * The append-only record of every order the verifier creates, one JSON line per event: a
 * `creating` line is written (synchronously) before the create request leaves, `created`
 * adds the uuid, `closed` crosses the order off. Lines hold no credential. An entry without
 * `closed` is open: `--cleanup` finishes it after an interrupted run. When nothing is open
 * any more, the file is removed.
 */
export class Ledger {
  readonly path: string;
  readonly run: string;
  readonly #entries = new Map<string, LedgerEntry>();
  #counter = 0;

  private constructor(path: string, run: string) {
    this.path = path;
    this.run = run;
  }

  /** Opens (or starts) the ledger at `path`, reading what earlier runs left open. */
  static open(path: string, run: string): Ledger {
    const ledger = new Ledger(path, run);
    let text = '';
    try {
      text = readFileSync(path, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
    for (const line of text.split('\n')) {
      if (line.trim() === '') continue;
      try {
        ledger.#apply(JSON.parse(line) as LedgerEvent);
      } catch {
        // A torn last line (the process died mid-write) carries no complete event.
      }
    }
    return ledger;
  }

  /** Records an order about to be created; returns its key. Call before sending the request. */
  creating(
    entry: Omit<LedgerEntry, 'key' | 'run' | 'createdAt' | 'uuid' | 'controlled' | 'unresolved' | 'outcome'>,
  ): string {
    const key = `${this.run}-${++this.#counter}`;
    this.#write({ event: 'creating', key, run: this.run, createdAt: new Date().toISOString(), ...entry });
    return key;
  }

  created(key: string, uuid: string): void {
    this.#write({ event: 'created', key, uuid });
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

  /** Removes the file when nothing is open; true when it did. */
  removeIfSettled(): boolean {
    if (this.open().length > 0) return false;
    rmSync(this.path, { force: true });
    return true;
  }

  #write(event: LedgerEvent): void {
    this.#apply(event);
    mkdirSync(dirname(this.path), { recursive: true });
    appendFileSync(this.path, `${JSON.stringify(event)}\n`);
  }

  #apply(event: LedgerEvent): void {
    if (event.event === 'creating') {
      const { event: _event, ...entry } = event;
      this.#entries.set(event.key, {
        ...entry,
        uuid: undefined,
        controlled: false,
        unresolved: undefined,
        outcome: undefined,
      });
      return;
    }
    const entry = this.#entries.get(event.key);
    if (!entry) return;
    if (event.event === 'created') {
      entry.uuid = event.uuid;
      entry.unresolved = undefined;
    } else if (event.event === 'controlled') entry.controlled = true;
    else if (event.event === 'unresolved') entry.unresolved = event.reason;
    else entry.outcome = event.outcome;
  }
}
