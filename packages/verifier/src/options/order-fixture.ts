import {
  API_VERSIONS,
  type ApiVersion,
  type CreateOrderV1,
  type CreateOrderV2,
  createOrderV1Schema,
  createOrderV2Schema,
  exampleOrder,
  toFieldIssues,
} from '@print-contracts/client';
import { isJsonObject } from '@print-contracts/client/kit';
import { UsageError } from '../errors/index.js';
import { readFlagFile } from './paths.js';

const SCHEMAS = { v1: createOrderV1Schema, v2: createOrderV2Schema } as const;
const EXAMPLE_SOURCE = "the kit's example order (a product the sample API sells)";

/** The value of a JSON text, or undefined when it is not JSON. */
export function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/**
 * The kit's example bodies, or those of `--order-fixture FILE` (a body, v1 when its lines have `productCode`,
 * or `{"v1": body, "v2": body}`) checked by the client's schema. Always test orders; the `reference`
 * is replaced by the run's own, so `--cleanup` can find what a killed run created.
 */
export function readOrderBodies(path: string | undefined, cwd: string) {
  const flag = `--order-fixture ${path}`;
  const given = path === undefined ? {} : byVersion(fixtureObject(path, cwd, flag), flag);
  const body = (version: ApiVersion) =>
    given[version] === undefined
      ? exampleOrder(version, { testOrder: true })
      : checked(version, given[version], flag);
  const source = (version: ApiVersion) =>
    path !== undefined && given[version] !== undefined ? path : EXAMPLE_SOURCE;
  return {
    v1: body('v1') as CreateOrderV1,
    v2: body('v2') as CreateOrderV2,
    source: { v1: source('v1'), v2: source('v2') },
  };
}

function fixtureObject(path: string, cwd: string, flag: string): Record<string, unknown> {
  const json = parseJson(readFlagFile('--order-fixture', path, cwd));
  if (json === undefined) {
    throw new UsageError(`${flag} is not JSON; give a create-order body, or {"v1": body, "v2": body}`);
  }
  if (!isJsonObject(json)) {
    throw new UsageError(`${flag} must hold a JSON object: a create-order body, or {"v1": body, "v2": body}`);
  }
  return json;
}

function byVersion(json: Record<string, unknown>, flag: string): Partial<Record<ApiVersion, unknown>> {
  if ('orderLines' in json) {
    const lines = Array.isArray(json.orderLines) ? (json.orderLines as unknown[]) : [];
    const v1 = lines.length > 0 && lines.every((line) => isJsonObject(line) && 'productCode' in line);
    return v1 ? { v1: json } : { v2: json };
  }
  const keys = Object.keys(json);
  if (keys.length === 0 || keys.some((key) => !(API_VERSIONS as readonly string[]).includes(key))) {
    throw new UsageError(
      `${flag}: expected a create-order body (with orderLines) or {"v1": body, "v2": body}, got keys ${keys.join(', ') || '(none)'}`,
    );
  }
  return json;
}

function checked(version: ApiVersion, body: unknown, flag: string): unknown {
  if (!isJsonObject(body)) throw new UsageError(`${flag}: the ${version} body must be a JSON object`);
  if (body.testOrder === false) {
    throw new UsageError(
      `${flag}: the ${version} body says "testOrder": false; the verifier creates test orders only (leave it out or set it to true)`,
    );
  }
  const { reference: _replaced, ...rest } = body;
  const result = SCHEMAS[version].safeParse({ ...rest, testOrder: true });
  if (result.success) return result.data;
  const issues = toFieldIssues(result.error.issues)
    .slice(0, 3)
    .map((issue) => `${issue.path || '(body)'} ${issue.message}`);
  throw new UsageError(`${flag}: not a valid ${version} create-order body: ${issues.join('; ')}`);
}
