import { randomUUID } from 'node:crypto';
import { type OrderStatus, UUID_PATTERN } from '@print-contracts/client';
import { type NewOrder, type OrderRecord, summaryOf, visibility } from './order-record.js';
import { seedOrders } from './seed.js';

/** One page of a list request, already validated. */
export interface PageRequest {
  readonly status: OrderStatus | undefined;
  readonly limit: number;
  readonly offset: number;
}

const NUMERIC_ID = /^[1-9]\d{0,15}$/;

/**
 * Every credential set's orders, in memory. Each set has its own list; lookups by numeric
 * id or uuid go through one index, and a record of another set is treated as absent.
 */
export class OrderStore {
  readonly #userIds: readonly string[];
  readonly #seed: boolean;
  #byUser = new Map<string, OrderRecord[]>();
  #byId = new Map<number, OrderRecord>();
  #byUuid = new Map<string, OrderRecord>();
  // Created orders, lines and addresses count up from above every seed id, and never restart,
  // so an id seen once never names another order, even after a reset.
  #nextOrderId = 5_000_001;
  #nextLineId = 30_000_001;
  #nextAddressId = 4_500_001;

  constructor(userIds: readonly string[], seed: boolean) {
    this.#userIds = userIds;
    this.#seed = seed;
    this.reset();
  }

  /** Back to the seed data (or to no orders when seeding is off). */
  reset(): void {
    this.#byUser = new Map(this.#userIds.map((userId) => [userId, []]));
    this.#byId = new Map();
    this.#byUuid = new Map();
    if (!this.#seed) return;
    this.#userIds.forEach((userId, tenant) => {
      for (const seeded of seedOrders(tenant)) {
        this.add(userId, { ...seeded, readyAt: 0, failure: undefined, origin: 'seed' });
      }
    });
  }

  /** Number of orders held across every credential set. */
  get size(): number {
    return this.#byId.size;
  }

  /** The credential sets' user ids, in the order they were configured. */
  get userIds(): readonly string[] {
    return this.#userIds;
  }

  /** Every order of `userId`, oldest first, in any state. */
  ordersOf(userId: string): readonly OrderRecord[] {
    return this.#byUser.get(userId) ?? [];
  }

  /** Takes an order out of the store: how a provider-state teardown undoes its setup. */
  remove(record: OrderRecord): void {
    const list = this.#byUser.get(record.userId) ?? [];
    const index = list.indexOf(record);
    if (index === -1) return;
    list.splice(index, 1);
    this.#byId.delete(record.detail.id);
    if (record.detail.uuid !== null) this.#byUuid.delete(record.detail.uuid.toLowerCase());
  }

  nextOrderId(): number {
    return this.#nextOrderId++;
  }

  nextLineId(): number {
    return this.#nextLineId++;
  }

  nextAddressId(): number {
    return this.#nextAddressId++;
  }

  /** A uuid no order holds yet. */
  newUuid(): string {
    let uuid = randomUUID();
    while (this.#byUuid.has(uuid)) uuid = randomUUID();
    return uuid;
  }

  add(userId: string, order: NewOrder): OrderRecord {
    const record: OrderRecord = {
      userId,
      ...order,
      cancelReason: undefined,
      json: undefined,
      summaryJson: undefined,
    };
    this.#insert(record);
    return record;
  }

  /** The order `ref` (numeric id or uuid) names, in any credential set and in any state. */
  findAnywhere(ref: string): OrderRecord | undefined {
    if (NUMERIC_ID.test(ref)) return this.#byId.get(Number(ref));
    return UUID_PATTERN.test(ref) ? this.#byUuid.get(ref.toLowerCase()) : undefined;
  }

  /** The order `ref` names, only when it belongs to `userId`; another set's order is absent. */
  find(userId: string, ref: string): OrderRecord | undefined {
    const record = this.findAnywhere(ref);
    return record?.userId === userId ? record : undefined;
  }

  /**
   * One page of the readable orders of `userId`, newest first, with the count of all that
   * match, as the JSON of `GET /orders`: built from each order's cached list entry.
   */
  listJson(userId: string, page: PageRequest, now: number): string {
    const records = this.#byUser.get(userId) ?? [];
    const entries: string[] = [];
    let count = 0;
    for (let index = records.length - 1; index >= 0; index--) {
      const record = records[index] as OrderRecord;
      if (visibility(record, now) !== 'ready') continue;
      if (page.status !== undefined && record.detail.status !== page.status) continue;
      if (count >= page.offset && entries.length < page.limit) {
        record.summaryJson ??= JSON.stringify(summaryOf(record.detail));
        entries.push(record.summaryJson);
      }
      count++;
    }
    return `{"count":${count},"orders":[${entries.join(',')}]}`;
  }

  /** The order as JSON, serialized once until it changes. */
  detailJson(record: OrderRecord): string {
    record.json ??= JSON.stringify(record.detail);
    return record.json;
  }

  /** Call after changing a record, so its cached JSON is rebuilt. */
  changed(record: OrderRecord): void {
    record.json = undefined;
    record.summaryJson = undefined;
  }

  #insert(record: OrderRecord): void {
    const list = this.#byUser.get(record.userId);
    if (list === undefined) throw new Error(`No credential set "${record.userId}" in the store`);
    list.push(record);
    this.#byId.set(record.detail.id, record);
    if (record.detail.uuid !== null) this.#byUuid.set(record.detail.uuid.toLowerCase(), record);
  }
}
