import { parseStateChange as readStateChange, type StateChangeRequest } from '@print-contracts/client';
import { ApiAnswerError } from '../errors/api-answer-error.js';
import { describeIssues } from '../handlers/issues.js';

/**
 * The state-change call the official Pact verifiers post, read by the client's one reading of
 * the protocol; anything else is a 400 that says which field is wrong.
 */
export function parseStateChange(body: unknown): StateChangeRequest {
  const parsed = readStateChange(body);
  if (parsed.ok) return parsed.request;
  throw new ApiAnswerError(
    400,
    `Invalid state change: ${describeIssues(parsed.issues)}; send {"state": "…", "params": {…}, "action": "setup" | "teardown"}`,
    { errors: parsed.issues },
  );
}
