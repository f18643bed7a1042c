import { LIST_LIMIT_MAX, listQuerySchema, toFieldIssues } from '@print-contracts/client';
import { ApiAnswerError } from '../errors/api-answer-error.js';
import type { OperationHandler } from './context.js';
import { describeIssues } from './issues.js';

const NUMBER = /^-?\d+(?:\.\d+)?$/;
const NUMERIC_KEYS = new Set(['limit', 'offset']);

/** The query string as the client's `listQuerySchema` takes it: numbers where numbers belong. */
function queryObject(raw: string): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of new URLSearchParams(raw)) {
    if (Object.hasOwn(out, key)) {
      throw new ApiAnswerError(400, `Invalid list query: ${key} is given more than once`, {
        errors: [{ path: `query.${key}`, message: 'is given more than once' }],
      });
    }
    out[key] = NUMERIC_KEYS.has(key) && NUMBER.test(value) ? Number(value) : value;
  }
  return out;
}

/** Without a query: the vendor's defaults, and no parsing on the hot path. */
const FIRST_PAGE = { limit: LIST_LIMIT_MAX, offset: 0, status: undefined } as const;

/** `GET /orders`: one page (`limit` ≤ 50, `offset`, one `status`), newest first, with the full count. */
export const listOrders: OperationHandler = ({ userId, query, now }, { store }) => {
  if (query === undefined || query === '') {
    return { status: 200, body: store.listJson(userId, FIRST_PAGE, now) };
  }
  const parsed = listQuerySchema.safeParse(queryObject(query));
  if (!parsed.success) {
    const errors = toFieldIssues(parsed.error.issues, ['query']);
    throw new ApiAnswerError(400, `Invalid list query: ${describeIssues(errors)}`, { errors });
  }
  const { limit = LIST_LIMIT_MAX, offset = 0, status } = parsed.data;
  return { status: 200, body: store.listJson(userId, { limit, offset, status }, now) };
};
