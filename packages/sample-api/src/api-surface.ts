import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  type ApiVersion,
  type OperationDefinition,
  type OperationName,
  operations,
  toFieldIssues,
} from '@print-contracts/client';
import type { Authenticator } from './auth.js';
import { ApiAnswerError } from './errors/api-answer-error.js';
import { isClientGoneError } from './errors/client-gone-error.js';
import type { OperationRequest } from './handlers/context.js';
import { HANDLERS } from './handlers/index.js';
import { describeIssues } from './handlers/issues.js';
import { type Answer, answerFor, send } from './http/answer.js';
import { readJsonBody } from './http/read-body.js';
import { ROUTE_SUMMARY, route } from './router.js';
import type { OrderStore } from './store/order-store.js';
import { resolveVersion, VERSION_HEADER } from './versioning.js';

export interface ApiSurfaceOptions {
  readonly authenticator: Authenticator;
  readonly store: OrderStore;
  readonly processingDelayMs: number;
  readonly bodyLimitBytes: number;
}

/** Handles one request under `/api`; the path and query are already split. */
export type ApiSurface = (
  req: IncomingMessage,
  res: ServerResponse,
  path: string,
  query: string | undefined,
) => void;

/** What each operation's refusal calls the body, for messages such as "Invalid order: …". */
const BODY_NAMES: Partial<Record<OperationName, string>> = {
  createOrder: 'order',
  updateOrder: 'update',
  updateOrderWithPost: 'update',
  cancelOrder: 'cancellation (send {"reason": "…"})',
};

/** The body of `name` checked against the client's schema for `version`; no body is checked as `{}`. */
function checkBody(name: OperationName, version: ApiVersion, body: unknown): unknown {
  const schemas = (operations[name] as OperationDefinition).body;
  if (schemas === undefined) return undefined;
  const result = schemas[version].safeParse(body ?? {});
  if (result.success) return result.data;
  const errors = toFieldIssues(result.error.issues);
  const what = BODY_NAMES[name] ?? 'body';
  const lead = body === undefined ? `Missing JSON body for this ${what}` : `Invalid ${what} for ${version}`;
  throw new ApiAnswerError(400, `${lead}: ${describeIssues(errors)}`, { errors });
}

/**
 * The API surface: credentials first (a request without them learns nothing about routes),
 * then the version, then the route from the operations table, then the body against the
 * version's schema, then the operation's handler. Every answer is JSON.
 */
export function createApiSurface(options: ApiSurfaceOptions): ApiSurface {
  const { authenticator, store, processingDelayMs, bodyLimitBytes } = options;
  const deps = { store, processingDelayMs };

  const answerWith = (res: ServerResponse, error: unknown) => {
    if (isClientGoneError(error)) return;
    send(res, answerFor(error));
  };

  return (req, res, path, query) => {
    let answer: Answer;
    try {
      const userId = authenticator.authenticate(req.headers);
      const version = resolveVersion(req.headers[VERSION_HEADER]);
      const found = route(req.method ?? 'GET', path);
      if (found.kind === 'no-route') {
        throw new ApiAnswerError(
          404,
          `No route ${req.method} ${path.slice(0, 200)}: the API serves ${ROUTE_SUMMARY}`,
        );
      }
      if (found.kind === 'wrong-method') {
        throw new ApiAnswerError(
          405,
          `Method ${req.method} is not allowed on ${path.slice(0, 200)}; use ${found.allow.join(', ')}`,
          { headers: { allow: found.allow.join(', ') } },
        );
      }
      const { name, id } = found;
      const request = { userId, version, id, query, body: undefined as unknown, now: Date.now() };
      if ((operations[name] as OperationDefinition).body === undefined) {
        answer = HANDLERS[name](request, deps);
      } else {
        readJsonBody(req, bodyLimitBytes)
          .then((json) => checkBody(name, version, json))
          .then((body) => {
            const ready: OperationRequest = { ...request, body, now: Date.now() };
            send(res, HANDLERS[name](ready, deps));
          })
          .catch((error: unknown) => answerWith(res, error));
        return;
      }
    } catch (error) {
      answerWith(res, error);
      return;
    }
    send(res, answer);
  };
}
