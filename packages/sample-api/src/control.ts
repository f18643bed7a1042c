import type { IncomingMessage, ServerResponse } from 'node:http';
import { toFieldIssues } from '@print-contracts/client';
import { z } from 'zod';
import { CONTROL_BASE_PATH, CONTROL_STATES, PROVIDER_STATES_PATH } from './control-surface.js';
import { ApiAnswerError } from './errors/api-answer-error.js';
import { isSampleApiConfigurationError } from './errors/configuration-error.js';
import type { FaultInjector } from './faults/fault-injector.js';
import { parseFaultRules } from './faults/fault-rule.js';
import { type Answer, answerWith, jsonAnswer, send } from './http/answer.js';
import { readJsonBody } from './http/read-body.js';
import { decodeSegment } from './http/request-target.js';
import { providerStateEndpoint } from './provider-states.js';
import { applyControlState } from './store/order-lifecycle.js';
import { type OrderRecord, visibility } from './store/order-record.js';
import type { OrderStore } from './store/order-store.js';

type ControlHandler = (body: unknown, ref: string | undefined) => Answer;

/** A route of the control surface: `tail` (a regular expression's source) under its base path. */
const controlRoute = (tail: string) => new RegExp(`^${CONTROL_BASE_PATH}${tail}$`);

const stateBodySchema = z.strictObject({
  state: z.enum(CONTROL_STATES, { error: `must be one of ${CONTROL_STATES.join(', ')}` }),
  /** For `creation-failed`: the reason the 404 message gives. */
  reason: z.string().min(1).max(200).optional(),
});

/**
 * A local test hook, never part of the vendor's API: put an order into a state the public
 * API cannot reach, serve provider states to the official Pact verifiers, reset to the seed
 * data, and set fault rules at runtime. It needs no credentials and finds orders across every
 * credential set. Bodies are read as JSON whatever their Content-Type, so any HTTP tool can
 * drive it.
 */
export function createControlSurface(store: OrderStore, faults: FaultInjector, bodyLimitBytes: number) {
  const findOrder = (ref: string | undefined): OrderRecord => {
    const record = ref === undefined ? undefined : store.findAnywhere(ref);
    if (record === undefined)
      throw new ApiAnswerError(404, `Order not found: no order has id or uuid "${ref}"`);
    return record;
  };

  const setState: ControlHandler = (body, ref) => {
    const record = findOrder(ref);
    const parsed = stateBodySchema.safeParse(body ?? {});
    if (!parsed.success) {
      throw ApiAnswerError.invalid('Invalid state change', toFieldIssues(parsed.error.issues));
    }
    const { state, reason } = parsed.data;
    if (reason !== undefined && state === 'creation-failed') record.failure = reason;
    applyControlState(record, state, Date.now());
    store.changed(record);
    const { id, uuid, status } = record.detail;
    return jsonAnswer(200, { id, uuid, state, status });
  };

  const describeOrder: ControlHandler = (_body, ref) => {
    const record = findOrder(ref);
    const { id, uuid, number, status, lines } = record.detail;
    return jsonAnswer(200, {
      id,
      uuid,
      number,
      userId: record.userId,
      status,
      lineStatuses: lines.map((line) => line.status),
      processing: visibility(record, Date.now()),
      testOrder: record.testOrder,
      origin: record.origin,
    });
  };

  const faultList = () => jsonAnswer(200, { faults: faults.list() });
  const setFaults: ControlHandler = (body) => {
    try {
      faults.set(parseFaultRules(body));
    } catch (error) {
      if (!isSampleApiConfigurationError(error)) throw error;
      throw new ApiAnswerError(400, `${error.message}; send a JSON list of fault rules`);
    }
    return faultList();
  };
  const clearFaults: ControlHandler = () => {
    faults.set([]);
    return faultList();
  };
  const reset: ControlHandler = () => {
    store.reset();
    return jsonAnswer(200, { reset: true, orders: store.size });
  };

  const providerStates = providerStateEndpoint(store);
  const routes: readonly [RegExp, Readonly<Record<string, ControlHandler>>][] = [
    [controlRoute('/orders/([^/]+)/state'), { POST: setState }],
    [controlRoute('/orders/([^/]+)'), { GET: describeOrder }],
    [controlRoute('/provider-states'), { POST: providerStates.change, GET: providerStates.describe }],
    [controlRoute('/reset'), { POST: reset }],
    [controlRoute('/faults'), { GET: faultList, PUT: setFaults, DELETE: clearFaults }],
  ];

  const handle = async (req: IncomingMessage, path: string): Promise<Answer> => {
    for (const [pattern, methods] of routes) {
      const match = pattern.exec(path);
      if (match === null) continue;
      const handler = methods[req.method ?? 'GET'];
      if (handler === undefined) {
        const allow = Object.keys(methods).join(', ');
        throw new ApiAnswerError(405, `Method ${req.method} is not allowed on ${path}; use ${allow}`, {
          headers: { allow },
        });
      }
      const body = await readJsonBody(req, bodyLimitBytes);
      return handler(body, match[1] === undefined ? undefined : decodeSegment(match[1]));
    }
    throw new ApiAnswerError(
      404,
      `No control route ${req.method} ${path.slice(0, 200)}: see POST ${CONTROL_BASE_PATH}/orders/{id}/state, POST ${PROVIDER_STATES_PATH}, POST ${CONTROL_BASE_PATH}/reset, PUT|GET|DELETE ${CONTROL_BASE_PATH}/faults`,
    );
  };

  return (req: IncomingMessage, res: ServerResponse, path: string): void => {
    handle(req, path).then(
      (answer) => send(res, answer),
      (error: unknown) => answerWith(res, error),
    );
  };
}
