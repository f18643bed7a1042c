import { OPERATION_NAMES, type OperationName, toFieldIssues } from '@print-contracts/client';
import { z } from 'zod';
import { SampleApiConfigurationError } from '../errors/configuration-error.js';

/** Matches every request under `/api`, also one that names no route. */
export const ALL_OPERATIONS = '*';

/**
 * One fault to inject, for tests of how clients cope with a bad day at the vendor. A rule
 * matches requests under `/api` by operation name (from the client's operations table);
 * when it fires it adds `latencyMs` and then, at most one effect: `status`, `drop`,
 * `truncate`, `nonJson` or `badSchema`. Without an effect, the request is answered as usual
 * after the latency.
 */
export interface FaultRule {
  /** `'*'` (the default) for every request, one operation name, or a list of them. */
  operation?: OperationName | readonly OperationName[] | typeof ALL_OPERATIONS;
  /** Wait this long (ms) before answering, or before the effect. */
  latencyMs?: number;
  /** Answer with this status instead: 429, or 500 to 599. Body `{"message": "Injected fault: …"}`. */
  status?: number;
  /** With `status`: send `Retry-After` with this many seconds (429, 503). */
  retryAfterSeconds?: number;
  /** Destroy the connection without answering. */
  drop?: boolean;
  /** Announce a longer body (Content-Length) than is sent, then close the connection. */
  truncate?: boolean;
  /** Answer 200 with an HTML body instead of JSON. */
  nonJson?: boolean;
  /** Answer 2xx with JSON that breaks the operation's response schema. */
  badSchema?: boolean;
  /** Share of matching requests the rule fires on, 0 to 1 (default 1); drawn from a seeded generator. */
  rate?: number;
  /** Fire on the next N matching requests only; then the rule is spent. */
  times?: number;
  /** Seed of the rule's generator for `rate` (default 1): the same seed fires on the same requests. */
  seed?: number;
}

/** The one-effect fields of a rule; a rule has at most one of them. */
export const FAULT_EFFECT_FIELDS = ['status', 'drop', 'truncate', 'nonJson', 'badSchema'] as const;

const operationName = z.enum(OPERATION_NAMES as [OperationName, ...OperationName[]], {
  error: `must be "*" or an operation name: ${OPERATION_NAMES.join(', ')}`,
});

const faultRuleSchema = z
  .strictObject({
    operation: z.union([z.literal(ALL_OPERATIONS), operationName, z.array(operationName).min(1)]).optional(),
    latencyMs: z.number().int().min(0).max(600_000).optional(),
    status: z
      .number()
      .int()
      .refine((status) => status === 429 || (status >= 500 && status <= 599), 'must be 429 or 500 to 599')
      .optional(),
    retryAfterSeconds: z.number().int().min(0).optional(),
    drop: z.boolean().optional(),
    truncate: z.boolean().optional(),
    nonJson: z.boolean().optional(),
    badSchema: z.boolean().optional(),
    rate: z.number().min(0).max(1).optional(),
    times: z.number().int().min(0).optional(),
    seed: z.number().int().optional(),
  })
  .superRefine((rule, context) => {
    const effects = FAULT_EFFECT_FIELDS.filter((field) => rule[field] !== undefined && rule[field] !== false);
    if (effects.length > 1) {
      context.addIssue({
        code: 'custom',
        message: `has more than one effect (${effects.join(', ')}); give one per rule`,
      });
    }
    if (effects.length === 0 && !rule.latencyMs) {
      context.addIssue({
        code: 'custom',
        message: `does nothing; give latencyMs or one of ${FAULT_EFFECT_FIELDS.join(', ')}`,
      });
    }
    if (rule.retryAfterSeconds !== undefined && rule.status === undefined) {
      context.addIssue({
        code: 'custom',
        path: ['retryAfterSeconds'],
        message: 'needs a status (429 or 503)',
      });
    }
  });

const faultRulesSchema = z.array(faultRuleSchema);

/** Checks fault rules from code or from `PUT /__control/faults`; the message names each bad field. */
export function parseFaultRules(rules: unknown): FaultRule[] {
  const result = faultRulesSchema.safeParse(rules);
  if (result.success) return result.data as FaultRule[];
  const issues = toFieldIssues(result.error.issues, ['faults']);
  throw new SampleApiConfigurationError(
    `Invalid fault rules: ${issues.map((issue) => `${issue.path} ${issue.message}`).join('; ')}`,
  );
}
