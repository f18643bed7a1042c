import type { IncomingMessage, ServerResponse } from 'node:http';
import { toFieldIssues } from '@print-contracts/client';
import { z } from 'zod';
import { CONTROL_BASE_PATH, CONTROL_STATES, PROVIDER_STATES_PATH } from './control-surface.js';
import { ApiAnswerError } from './errors/api-answer-error.js';
import { isClientGoneError } from './errors/client-gone-error.js';
import { isSampleApiConfigurationError } from './errors/configuration-error.js';
import type { FaultInjector } from './faults/fault-injector.js';
import { parseFaultRules } from './faults/fault-rule.js';
import { describeIssues } from './handlers/issues.js';
import { type Answer, answerFor, jsonAnswer, send } from './http/answer.js';
import { readJsonBody } from './http/read-body.js';
import { decodeSegment } from './http/request-target.js';
import { ProviderStateEndpoint } from './provider-states/provider-state-endpoint.js';
import { applyControlState } from './store/order-lifecycle.js';
import { type OrderRecord, visibility } from './store/order-record.js';
import type { OrderStore } from './store/order-store.js';

export interface ControlSurfaceOptions {
  readonly store: OrderStore;
  readonly faults: FaultInjector;
  readonly bodyLimitBytes: number;
}

export type ControlSurface = (req: IncomingMessage, res: ServerResponse, path: string) => void;

type ControlHandler = (body: unknown, ref: string | undefined) => Answer;

interface ControlRoute {
  readonly pattern: RegExp;
  readonly methods: Readonly<Record<string, ControlHandler>>;
}

const stateBodySchema = z.strictObject({
  state: z.enum(CONTROL_STATES, { error: `must be one of ${CONTROL_STATES.join(', ')}` }),
  /** For `creation-failed`: the reason the 404 message gives. */
  reason: z.string().min(1).max(200).optional(),
});

function describeOrder(record: OrderRecord, now: number) {
  const { id, uuid, number, status, lines } = record.detail;
  return {
    id,
    uuid,
    number,
    userId: record.userId,
    status,
    lineStatuses: lines.map((line) => line.status),
    processing: visibility(record, now),
    testOrder: record.testOrder,
    origin: record.origin,
  };
}

/**
 * A local test hook, never part of the vendor's API: put an order into a state the public
 * API cannot reach, serve provider states to the official Pact verifiers, reset to the seed
 * data, and set fault rules at runtime. It needs no
 * credentials and finds orders across every credential set. Bodies are read as JSON
 * whatever their Content-Type, so any HTTP tool can drive it.
 */
export function createControlSurface(options: ControlSurfaceOptions): ControlSurface {
  const { store, faults, bodyLimitBytes } = options;

  const findOrder = (ref: string | undefined): OrderRecord => {
    const record = ref === undefined ? undefined : store.findAnywhere(ref);
    if (record === undefined)
      throw new ApiAnswerError(404, `Order not found: no order has id or uuid "${ref}"`);
    return record;
  };

  const faultList = () => jsonAnswer(200, { faults: faults.list() });
  const providerStates = new ProviderStateEndpoint(store);

  const routes: readonly ControlRoute[] = [
    {
      pattern: /^\/__control\/orders\/([^/]+)\/state$/,
      methods: {
        POST: (body, ref) => {
          const record = findOrder(ref);
          const parsed = stateBodySchema.safeParse(body ?? {});
          if (!parsed.success) {
            const errors = toFieldIssues(parsed.error.issues);
            throw new ApiAnswerError(400, `Invalid state change: ${describeIssues(errors)}`, { errors });
          }
          const now = Date.now();
          if (parsed.data.reason !== undefined && parsed.data.state === 'creation-failed') {
            record.failure = parsed.data.reason;
          }
          applyControlState(record, parsed.data.state, now);
          store.changed(record);
          const { id, uuid, status } = record.detail;
          return jsonAnswer(200, { id, uuid, state: parsed.data.state, status });
        },
      },
    },
    {
      pattern: /^\/__control\/orders\/([^/]+)$/,
      methods: { GET: (_body, ref) => jsonAnswer(200, describeOrder(findOrder(ref), Date.now())) },
    },
    {
      pattern: /^\/__control\/provider-states$/,
      methods: {
        POST: (body) => providerStates.change(body),
        GET: () => providerStates.describe(),
      },
    },
    {
      pattern: /^\/__control\/reset$/,
      methods: {
        POST: () => {
          store.reset();
          return jsonAnswer(200, { reset: true, orders: store.size });
        },
      },
    },
    {
      pattern: /^\/__control\/faults$/,
      methods: {
        GET: faultList,
        PUT: (body) => {
          try {
            faults.set(parseFaultRules(body));
          } catch (error) {
            if (isSampleApiConfigurationError(error)) {
              throw new ApiAnswerError(400, `${error.message}; send a JSON list of fault rules`);
            }
            throw error;
          }
          return faultList();
        },
        DELETE: () => {
          faults.set([]);
          return faultList();
        },
      },
    },
  ];

  const handle = async (req: IncomingMessage, path: string): Promise<Answer> => {
    for (const { pattern, methods } of routes) {
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
      const segment = match[1];
      return handler(body, segment === undefined ? undefined : decodeSegment(segment));
    }
    throw new ApiAnswerError(
      404,
      `No control route ${req.method} ${path.slice(0, 200)}: see POST ${CONTROL_BASE_PATH}/orders/{id}/state, POST ${PROVIDER_STATES_PATH}, POST ${CONTROL_BASE_PATH}/reset, PUT|GET|DELETE ${CONTROL_BASE_PATH}/faults`,
    );
  };

  return (req, res, path) => {
    handle(req, path).then(
      (answer) => send(res, answer),
      (error: unknown) => {
        if (!isClientGoneError(error)) send(res, answerFor(error));
      },
    );
  };
}
