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
import { HANDLERS, type HandlerDeps, type OperationRequest } from './handlers.js';
import { answerWith, send } from './http/answer.js';
import { readJsonBody } from './http/read-body.js';
import { ROUTE_SUMMARY, route } from './router.js';
import { resolveVersion, VERSION_HEADER } from './versioning.js';

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
  const schema = (operations[name] as OperationDefinition).body?.[version];
  const result = schema?.safeParse(body ?? {});
  if (result === undefined || result.success) return result?.data;
  const what = BODY_NAMES[name] ?? 'body';
  const lead = body === undefined ? `Missing JSON body for this ${what}` : `Invalid ${what} for ${version}`;
  throw ApiAnswerError.invalid(lead, toFieldIssues(result.error.issues));
}

/**
 * The API surface: credentials first (a request without them learns nothing about routes),
 * then the version, then the route from the operations table, then the body against the
 * version's schema, then the operation's handler. Every answer is JSON.
 */
export function createApiSurface(authenticator: Authenticator, deps: HandlerDeps, bodyLimitBytes: number) {
  const surface: ApiSurface = (req, res, path, query) => {
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
      const request: OperationRequest = { userId, version, id, query, body: undefined, now: Date.now() };
      if ((operations[name] as OperationDefinition).body === undefined) {
        send(res, HANDLERS[name](request, deps));
        return;
      }
      readJsonBody(req, bodyLimitBytes)
        .then((json) => {
          const body = checkBody(name, version, json);
          send(res, HANDLERS[name]({ ...request, body, now: Date.now() }, deps));
        })
        .catch((error: unknown) => answerWith(res, error));
    } catch (error) {
      answerWith(res, error);
    }
  };
  return surface;
}
