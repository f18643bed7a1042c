import {
  API_VERSIONS,
  type ApiVersion,
  createOrderV1Schema,
  createOrderV2Schema,
  exampleOrder,
  toFieldIssues,
} from '@print-contracts/client';
import { UsageError } from '../errors/usage-error.js';
import { readFlagFile } from './paths.js';
import type { OrderBodies } from './verify-options.js';

const SCHEMAS = { v1: createOrderV1Schema, v2: createOrderV2Schema } as const;

const EXAMPLE_SOURCE = "the kit's example order (a product the sample API sells)";

/**
 * The create bodies the run orders with: the kit's example, or from `--order-fixture FILE` a
 * create body (`productCode` lines make it v1, else v2) or `{"v1": body, "v2": body}`, each
 * checked with the client's schema. Always test orders (`"testOrder": false` is refused); the
 * `reference` is replaced by the run's own, so `--cleanup` can find what a killed run created.
 */
export function readOrderBodies(path: string | undefined, cwd: string): OrderBodies {
  const flag = `--order-fixture ${path}`;
  const given = path === undefined ? {} : byVersion(fixtureObject(path, cwd, flag), flag);
  const bodies: Record<string, unknown> = {};
  const source: Record<string, string> = {};
  for (const version of API_VERSIONS) {
    const body = given[version];
    const own = body !== undefined && path !== undefined;
    bodies[version] = own ? checked(version, body, flag) : exampleOrder(version, { testOrder: true });
    source[version] = own ? path : EXAMPLE_SOURCE;
  }
  return { ...(bodies as Pick<OrderBodies, 'v1' | 'v2'>), source: source as OrderBodies['source'] };
}

function fixtureObject(path: string, cwd: string, flag: string): Record<string, unknown> {
  const text = readFlagFile('--order-fixture', path, cwd);
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new UsageError(`${flag} is not JSON; give a create-order body, or {"v1": body, "v2": body}`);
  }
  if (json === null || typeof json !== 'object' || Array.isArray(json)) {
    throw new UsageError(`${flag} must hold a JSON object: a create-order body, or {"v1": body, "v2": body}`);
  }
  return json as Record<string, unknown>;
}

function byVersion(json: Record<string, unknown>, flag: string): Partial<Record<ApiVersion, unknown>> {
  if (!('orderLines' in json)) {
    const unknown = Object.keys(json).filter((key) => !(API_VERSIONS as readonly string[]).includes(key));
    if (unknown.length > 0 || Object.keys(json).length === 0) {
      throw new UsageError(
        `${flag}: expected a create-order body (with orderLines) or {"v1": body, "v2": body}, got keys ${Object.keys(json).join(', ') || '(none)'}`,
      );
    }
    return json as Partial<Record<ApiVersion, unknown>>;
  }
  const lines = Array.isArray(json.orderLines) ? (json.orderLines as unknown[]) : [];
  const v1 =
    lines.length > 0 &&
    lines.every((line) => line !== null && typeof line === 'object' && 'productCode' in line);
  return v1 ? { v1: json } : { v2: json };
}

function checked(version: ApiVersion, body: unknown, flag: string): unknown {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    throw new UsageError(`${flag}: the ${version} body must be a JSON object`);
  }
  const record = body as Record<string, unknown>;
  if (record.testOrder === false) {
    throw new UsageError(
      `${flag}: the ${version} body says "testOrder": false; the verifier creates test orders only (leave it out or set it to true)`,
    );
  }
  const { reference: _replaced, ...rest } = record;
  const result = SCHEMAS[version].safeParse({ ...rest, testOrder: true });
  if (!result.success) {
    const issues = toFieldIssues(result.error.issues)
      .slice(0, 3)
      .map((issue) => `${issue.path || '(body)'} ${issue.message}`);
    throw new UsageError(`${flag}: not a valid ${version} create-order body: ${issues.join('; ')}`);
  }
  return result.data;
}
