import { setMaxListeners } from 'node:events';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  type ApiVersion,
  type CreateOrderV1,
  type CreateOrderV2,
  isHttpError,
  isOrderCreationFailedError,
  isOrderWaitTimeoutError,
  isRequestValidationError,
  isResponseValidationError,
  isTransportError,
  LIST_LIMIT_MAX,
  type OrderCreationFailedError,
  type OrdersClient,
  type OrderWaitTimeoutError,
  UNKNOWN_PRODUCT,
  UNPROCESSED_STATUSES,
} from '@print-contracts/client';
import { isJsonObject, isRedirect } from '@print-contracts/client/kit';
import { ArrangeError } from '../errors/index.js';
import { CLOCK_SKEW_MS, type Ledger } from '../ledger/ledger.js';
import type { OrderBodies, VerifyOptions } from '../options/verify-options.js';
import type { CreatedSpec } from '../plan/fixture-spec.js';
import { type TargetClients, unanswered } from '../target/clients.js';
import { setControlState } from '../target/control-surface.js';
import { madeNothing } from '../target/transport.js';
import { type ArrangedOrder, summariesOf } from './listed-orders.js';
import { memo } from './memo.js';
import { contradicted, isBusy, isRefusal, messageOf, notHere, toArrangeError } from './verdicts.js';

/** What the vendor's docs name as the causes of an order that never gets placed. */
const PLACEMENT_CAUSES =
  'the vendor names an invalid address, an invalid product or an outdated category sku (give a product you order with --order-fixture)';

/** What creating orders reads of the run's options, and the clients and ledger it creates them with. */
export type CreateOptions = Pick<VerifyOptions, 'orderBodies' | 'pollIntervalMs'> & {
  readonly clients: TargetClients;
  readonly ledger: Ledger;
  /** Where the waits say what they wait for (a console progress line). */
  readonly progress?: (line: string) => void;
  /** Aborts the waits (an interrupt); a create already sent still runs to its answer. */
  readonly signal: AbortSignal;
};

/** What a wait answers when another order of its body failed creation and aborted it. */
const DOOMED = Symbol('doomed');

/**
 * An order as arranging reads it, unchecked: only that it is readable, its id (0 when it shows no
 * numeric one), its uuid and its status; its shape is the contract's to judge in the replay.
 */
interface ReadOrder {
  readonly id: number;
  readonly uuid: unknown;
  readonly status: unknown;
}
const asRead = (json: unknown): ReadOrder => {
  const order = isJsonObject(json) ? json : {};
  const { id, uuid, status } = order;
  return { id: Number.isSafeInteger(id) && (id as number) > 0 ? (id as number) : 0, uuid, status };
};

const seconds = (ms: number) => `${Math.round(ms / 1000)} s`;
const duration = (ms: number) => (ms >= 90_000 ? `${Math.round(ms / 60_000)} min` : seconds(ms));

/** The vendor processes an order "30 s to 5 min" after its create: a verdict on a slower one needs that long. */
const DOCUMENTED_PROCESSING_MS = 300_000;

/** The first progress line of a wait comes after this long; then one every `PROGRESS_EVERY_MS`. */
const QUIET_MS = 1_000;
const PROGRESS_EVERY_MS = 5_000;

/** Creates, waits for and finishes orders as specs say: each ledgered first, awaited until its deadline. */
export function createdOrders(options: CreateOptions) {
  const { clients, ledger, signal, pollIntervalMs } = options;
  const board = waitBoard(options.progress);
  /**
   * Per version (one body each): the plain orders being awaited, one that became readable (the
   * witness), and `doomed`, aborted with the reason once one of its orders failed creation.
   */
  const plain = memo((_version: ApiVersion) => {
    const doomed = new AbortController();
    setMaxListeners(0, doomed.signal); // every order of the body listens
    return {
      waiting: new Set<Promise<unknown>>(),
      readable: undefined as string | undefined,
      /** Plain orders not readable by their bound: the target processes some orders slower than it. */
      late: 0,
      /** The plain creates sent, settled once answered; `taken` once one of them was. */
      creates: [] as Promise<unknown>[],
      taken: false,
      doomed,
    };
  });

  /** When the vendor's documented processing window of the order of `key` ends. */
  const documentedEnd = (key: string) =>
    (Date.parse(ledger.get(key)?.createdAt ?? '') || Date.now()) + DOCUMENTED_PROCESSING_MS;

  /**
   * Waits on for the order of `key` until its documented processing window ends, when the run's
   * bound ended first: only then does its still being 404 tell the vendor anything.
   */
  async function waitWindowOut(client: OrdersClient<ApiVersion>, key: string, uuid: string) {
    const end = documentedEnd(key);
    if (Date.now() >= end) return undefined;
    options.progress?.(
      `  order ${uuid} is not readable within the bound (--creation-timeout): waiting up to ${duration(end - Date.now())} more, until the 5 minutes the vendor documents for processing are up`,
    );
    return wait(client, key, uuid, undefined, end);
  }

  /** An order of the run's that became readable in `version`, once the waits in flight have ended; else undefined. */
  async function readableWitness(version: ApiVersion): Promise<string | undefined> {
    const mine = plain(version);
    while (mine.readable === undefined && mine.waiting.size > 0) {
      await Promise.race(mine.waiting).catch(() => undefined);
    }
    return mine.readable;
  }

  /**
   * An order listed since the run began that reads in full with this run's reference, or undefined:
   * asked only once no order became readable by the uuid its create answered. One found shows the
   * target made the run's orders, and that those uuids name none of them.
   */
  const referenceWitness = memo(async (version: ApiVersion): Promise<string | undefined> => {
    const client = clients.client('main', version);
    const began = Math.min(...ledger.mine().map((entry) => Date.parse(entry.createdAt))) - CLOCK_SKEW_MS;
    const answer = await client
      .sendUnchecked('listOrders', { query: { limit: LIST_LIMIT_MAX } }, { signal })
      .catch(() => undefined);
    const recent = summariesOf(answer).filter((order) => !(Date.parse(order.date) < began));
    for (const { id } of recent) {
      const order = await client.sendUnchecked('getOrder', { id }, { signal }).catch(() => undefined);
      if (isJsonObject(order) && order.reference === ledger.reference) return `order ${id}`;
    }
    return undefined;
  });

  /** Why no order of the run became readable: the target's contradiction when the list shows one, else not verifiable here. */
  async function noneReadable(version: ApiVersion, what: string, why: string): Promise<ArrangeError> {
    const listed = await referenceWitness(version);
    return listed
      ? contradicted(
          `${what}, while ${listed}, carrying this run's reference, reads in full: the uuids its creates answered name no order it made`,
        )
      : notHere('no-plain-order-readable', `${what}${why}`);
  }

  /** The order once readable, or the client's error saying its creation failed or it was not in time. */
  async function wait(
    client: OrdersClient<ApiVersion>,
    key: string,
    uuid: string,
    body?: AbortController,
    until?: number,
  ): Promise<ReadOrder | OrderCreationFailedError | OrderWaitTimeoutError | typeof DOOMED> {
    const deadline = until ?? (Date.parse(ledger.get(key)?.deadline ?? '') || Date.now());
    const done = board.begin(deadline);
    try {
      const order = asRead(
        await client.waitForOrder(uuid, {
          timeoutMs: Math.max(0, deadline - Date.now()),
          intervalMs: Math.min(25, pollIntervalMs),
          maxIntervalMs: pollIntervalMs,
          signal: body ? AbortSignal.any([signal, body.signal]) : signal,
          unchecked: true,
        }),
      );
      if (order.id > 0) ledger.record('read', key, { id: order.id });
      done('readable');
      return order;
    } catch (error) {
      done('not');
      if (signal.aborted) throw new ArrangeError('not-run', 'not arranged: the run was stopped');
      // Another order of the body failed creation: the caller decides whether this one waits on.
      if (body?.signal.aborted) return DOOMED;
      if (isOrderCreationFailedError(error)) {
        ledger.record('closed', key, { outcome: 'creation-failed', note: error.vendorMessage });
      }
      if (isOrderCreationFailedError(error) || isOrderWaitTimeoutError(error)) return error;
      throw toArrangeError(error);
    }
  }

  /** A plain order (of the fixture body) as waited for, tracked so the failed-creation state can tell a witness. */
  function waitPlain(client: OrdersClient<ApiVersion>, key: string, uuid: string, version: ApiVersion) {
    const mine = plain(version);
    const waiting = wait(client, key, uuid, mine.doomed);
    mine.waiting.add(waiting);
    void waiting.then(
      (order) => {
        mine.waiting.delete(waiting);
        if (order !== DOOMED && !(order instanceof Error)) mine.readable ??= String(order.id);
        if (isOrderWaitTimeoutError(order) && !order.throttled) mine.late++;
      },
      () => mine.waiting.delete(waiting),
    );
    return waiting;
  }

  return async (version: ApiVersion, spec: CreatedSpec, source: string): Promise<ArrangedOrder> => {
    // Stopped before this state's turn: nothing is created after the user asked to stop.
    if (signal.aborted) throw new ArrangeError('not-run', 'not arranged: the run was stopped');
    const client = clients.client(spec.credential, version);
    const controlled =
      spec.after === 'in-production' || spec.after === 'shipped' || spec.after === 'completed';
    const origin = controlled ? clients.target.controlOrigin : undefined;
    if (controlled && !origin) throw notHere('no-control-surface');
    const body = orderBody(options.orderBodies, version, ledger.reference, spec.product);
    let key = '';
    // Never aborted: a create the target may already have accepted must bring back its uuid. A 429
    // or 503 proves nothing was created: the client sends it again until the order's deadline.
    const send = () => {
      key = ledger.creating(clients.target, { credential: spec.credential, version, source }, origin);
      const deadline = Date.parse(ledger.get(key)?.deadline ?? '') || undefined;
      return client.send('createOrder', { body }, { deadline });
    };
    // A create that got no answer is sent again as another order, up to `--retries` times: the
    // teardown's scan by the run's reference settles each one lost, whether the target made it or not.
    let unansweredCreates = 0;
    const sendUntilAnswered = (): ReturnType<typeof send> =>
      send().catch((error: unknown) => {
        if (!unanswered(error, signal) || unansweredCreates >= clients.transport.retry.retries) throw error;
        createFailed(ledger, key, error);
        unansweredCreates++;
        return sendUntilAnswered();
      });
    const sending = sendUntilAnswered();
    const mine = plain(version);
    if (spec.product === 'fixture' && spec.credential === 'main') {
      mine.creates.push(
        sending.then(
          () => (mine.taken = true),
          () => false,
        ),
      );
    }
    const { uuid } = await sending.catch(async (error: unknown) => {
      const failed = createFailed(ledger, key, error);
      // Refused at once where the same body with a product it sells is taken: not the documented failure.
      const refused = isRefusal(error) && !isRedirect(error.status);
      if (spec.product === 'unknown' && refused) {
        await Promise.all(mine.creates);
        if (mine.taken) {
          throw contradicted(
            `the target refused at once to create an order for a product no vendor sells (${messageOf(error)}), while it took the same body with the product of the other orders; the vendor documents that such an order is taken, then fails creation (404 "…failed") or is never placed`,
          );
        }
      }
      throw failed;
    });
    const lost = unansweredCreates > 0 ? `${unansweredCreates} create(s) got no answer, then ` : '';
    ledger.answered(key, uuid);

    if (spec.product === 'unknown') {
      const unknown = (what: string) => ({
        id: 0,
        uuid,
        how: `${lost}created order ${uuid} for a product no vendor sells; ${what}`,
      });
      let waited = await wait(client, key, uuid);
      if (waited === DOOMED) throw new ArrangeError('not-run', 'not arranged: the run was stopped');
      if (isOrderWaitTimeoutError(waited) && !waited.throttled && (await readableWitness(version))) {
        // Still 404 at the bound tells a failed creation apart only once the run's plain orders are
        // all processed: while one of them was slower than the bound, the documented window decides.
        await Promise.allSettled([...plain(version).waiting]);
        if (plain(version).late > 0) waited = (await waitWindowOut(client, key, uuid)) ?? waited;
      }
      if (isOrderCreationFailedError(waited)) return unknown('its creation failed');
      if (waited === DOOMED) throw new ArrangeError('not-run', 'not arranged: the run was stopped');
      // Readable: the replay shows the contract what the target answers for it.
      if (!isOrderWaitTimeoutError(waited)) return unknown('it became readable');
      if (waited.throttled) throw throttledReads(uuid, waited);
      const witness = await readableWitness(version);
      if (!witness) {
        throw await noneReadable(
          version,
          `order ${uuid}, for a product no vendor sells, was still missing after ${seconds(waited.waitedMs)}, and so was every plain order of the run`,
          ', so a failed creation cannot be told apart',
        );
      }
      return unknown(
        `still 404 after ${seconds(waited.waitedMs)} (the bound) while the run's order ${witness} became readable`,
      );
    }
    let waited = await (spec.credential === 'main'
      ? waitPlain(client, key, uuid, version)
      : wait(client, key, uuid));
    if (waited === DOOMED) {
      // Waits on only if the body made readable orders; else the body's failure is the reason.
      if (!(await readableWitness(version))) {
        const why = String(plain(version).doomed.signal.reason);
        throw notHere(
          'no-plain-order-readable',
          `another order of the same body: ${why}; ${PLACEMENT_CAUSES}`,
        );
      }
      waited = await wait(client, key, uuid);
      if (waited === DOOMED) throw new ArrangeError('not-run', 'not arranged: the run was stopped');
    }
    let order: ReadOrder | OrderCreationFailedError | OrderWaitTimeoutError = waited;
    if (isOrderWaitTimeoutError(order) && order.throttled) throw throttledReads(uuid, order);
    if (isOrderWaitTimeoutError(order) && (await readableWitness(version))) {
      // The target makes orders readable, and this one not yet: a contradiction only past the documented window.
      const again = await waitWindowOut(client, key, uuid);
      if (again === DOOMED) throw new ArrangeError('not-run', 'not arranged: the run was stopped');
      order = again ?? order;
      if (isOrderWaitTimeoutError(order) && order.throttled) throw throttledReads(uuid, order);
    }
    if (order instanceof Error) {
      const what = isOrderCreationFailedError(order)
        ? `order ${uuid} failed creation ("${order.vendorMessage}")`
        : `order ${uuid} was not readable after ${seconds(Date.now() - (Date.parse(ledger.get(key)?.createdAt ?? '') || Date.now()))}`;
      if (isOrderCreationFailedError(order) && !plain(version).readable) plain(version).doomed.abort(what);
      const witness = await readableWitness(version);
      if (witness) {
        // Left open in the ledger when not readable: teardown and --cleanup wait no longer than its deadline.
        throw contradicted(
          `${what}, while order ${witness}, of the same body, became readable; the vendor documents processing within 5 minutes`,
        );
      }
      throw await noneReadable(
        version,
        what,
        `; an order still missing after 10 minutes cannot be placed: ${PLACEMENT_CAUSES}; a sample-data credential set may never make its orders readable`,
      );
    }
    let how = `${lost}created test order ${order.id}`;
    if (spec.after === 'cancel') {
      // By its id, as the docs cancel; its answer unchecked: the order read back tells.
      const cancel = {
        id: order.id > 0 ? order.id : uuid,
        body: { reason: 'Arranged by the contract verifier' },
      };
      const cancelLost = await client.sendUnchecked('cancelOrder', cancel, { signal }).then(
        () => undefined,
        (error: unknown) => {
          if (unanswered(error, signal)) return error;
          throw error;
        },
      );
      const readBack = async () => asRead(await client.sendUnchecked('getOrder', { id: uuid }, { signal }));
      order = await readBack();
      // The docs do not say a cancel is done at once: read again until it shows, within the order's bound.
      const until = Math.max(
        Date.parse(ledger.get(key)?.deadline ?? '') || 0,
        Date.now() + 3 * pollIntervalMs,
      );
      while (order.status !== 'cancelled' && Date.now() + pollIntervalMs <= until) {
        if (!(await sleep(pollIntervalMs, true, { signal }).catch(() => false))) break;
        order = await readBack();
      }
      // A cancel that got no answer reached the state only if the order reads cancelled.
      if (cancelLost && order.status !== 'cancelled') throw cancelLost;
      // Crossed off only once it reads cancelled: else teardown cancels it again.
      if (order.status === 'cancelled') ledger.record('closed', key, { outcome: 'cancelled' });
      how += ', then cancelled it';
    } else if (controlled && origin) {
      ledger.record('controlled', key, {});
      await setControlState(clients, origin, uuid, spec.after, signal);
      order = asRead(await client.sendUnchecked('getOrder', { id: uuid }, { signal }));
      how += `, put ${spec.after} through the control surface`;
    }
    if (spec.expectStatus && order.status !== spec.expectStatus) {
      throw contradicted(
        `order ${order.id} (${uuid}), ${how.replace(/^.*?created test order \d+, ?/, '') || 'just created'}, reads back with status "${order.status}", not "${spec.expectStatus}"`,
      );
    }
    return { id: order.id, uuid: typeof order.uuid === 'string' ? order.uuid : uuid, how };
  };
}

/**
 * Says what the run waits for while orders are being created, with the bound, once a wait has
 * lasted a second and then every few seconds: `waiting for 20 orders to be processed (up to 6 min): 12 readable`.
 */
function waitBoard(progress: ((line: string) => void) | undefined) {
  let waiting = 0;
  let readable = 0;
  let ended = 0;
  let deadline = 0;
  let timer: NodeJS.Timeout | undefined;
  const say = () => {
    const left = Math.max(0, deadline - Date.now());
    const gaveUp = ended - readable;
    progress?.(
      `  waiting for ${waiting + ended} orders to be processed (up to ${duration(left)} more): ${readable} readable${gaveUp > 0 ? `, ${gaveUp} not` : ''}`,
    );
  };
  return {
    /** One order's wait begins; call what it returns with how it ended. */
    begin(until: number): (outcome: 'readable' | 'not') => void {
      waiting++;
      deadline = Math.max(deadline, until);
      if (!timer && deadline - Date.now() > QUIET_MS) {
        timer = setTimeout(() => {
          say();
          timer = setInterval(say, PROGRESS_EVERY_MS).unref();
        }, QUIET_MS).unref();
      }
      return (outcome) => {
        waiting--;
        ended++;
        if (outcome === 'readable') readable++;
        if (waiting > 0) return;
        if (timer) say();
        clearInterval(timer);
        timer = undefined;
        readable = 0;
        ended = 0;
      };
    },
  };
}

/** An order whose reads the target throttled to the end of its window: not shown missing, and throttling is no verdict. */
const throttledReads = (uuid: string, timeout: OrderWaitTimeoutError) =>
  new ArrangeError(
    'target-unavailable',
    `the target throttled the reads of order ${uuid} until its creation deadline (${seconds(timeout.waitedMs)})`,
  );

/** Crosses off a create the target refused (or the client never sent), or marks it unresolved; says why. */
function createFailed(ledger: Ledger, key: string, error: unknown): ArrangeError {
  const message = messageOf(error);
  const notCreated = (note: string) => ledger.record('closed', key, { outcome: 'not-created', note });
  if (isHttpError(error) && (error.status >= 500 || error.status === 429)) {
    // Busy (429, 503): nothing was done. A gateway's answer, or the vendor's own server error, proves
    // nothing either way: the order may exist, and the run's reference finds it.
    if (UNPROCESSED_STATUSES.includes(error.status)) notCreated(`status ${error.status}`);
    else ledger.record('unresolved', key, { reason: message });
    return isBusy(error)
      ? new ArrangeError('target-unavailable', `creating the order, after the retries: ${message}`)
      : toArrangeError(error);
  }
  if (isHttpError(error)) {
    // A redirect is no judgement of the order's body: the documented request moved, maybe once done.
    if (!madeNothing(error.status)) ledger.record('unresolved', key, { reason: message });
    else notCreated(`status ${error.status}`);
    if (isRedirect(error.status)) return toArrangeError(error);
    return notHere(
      'no-plain-order-readable',
      `the target refused to create the order (${message}); ${PLACEMENT_CAUSES}`,
    );
  }
  if (isRequestValidationError(error)) {
    notCreated('refused by the client before sending');
    return notHere('no-plain-order-readable', `the order body is not valid: ${message}`);
  }
  if (isResponseValidationError(error)) {
    // Answered, but without a usable uuid: the order may exist, and the docs promise one.
    ledger.record('unresolved', key, { reason: message });
    return toArrangeError(error);
  }
  if (isTransportError(error) && error.failure === 'refused') notCreated('the connection was refused');
  else ledger.record('unresolved', key, { reason: message });
  return new ArrangeError('target-unavailable', `creating the order got no answer: ${message}`, {
    cause: error,
  });
}

/** A test order of the fixture (or an unknown product) with the run's reference, for `--cleanup`'s scan. */
function orderBody(
  bodies: OrderBodies,
  version: ApiVersion,
  reference: string,
  product: 'fixture' | 'unknown',
): CreateOrderV1 | CreateOrderV2 {
  const body = { ...structuredClone(bodies[version]), testOrder: true, reference };
  if (product === 'fixture') return body;
  const [line] = body.orderLines;
  const files = line?.files ? { files: line.files } : {};
  const unknown =
    line !== undefined && 'productCode' in line
      ? { productCode: UNKNOWN_PRODUCT.v1ProductCode, ...files }
      : { sku: UNKNOWN_PRODUCT.v2Sku, attributes: [{ attribute: 'quantity', value: '1' }], ...files };
  return { ...body, orderLines: [unknown] } as CreateOrderV1 | CreateOrderV2;
}
