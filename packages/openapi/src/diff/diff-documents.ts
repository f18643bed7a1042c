import { VERSION_HEADER_EXTENSION } from '../document/conventions.js';
import { isJsonObject, type Json, type JsonObject } from '../schemas/json-schema.js';
import { type ChangeRuleName, type ChangeSeverity, classify, type Direction } from './change-rules.js';
import { diffSchemas, type Resolver, resolverFor } from './schema-diff.js';

export type { ChangeSeverity } from './change-rules.js';

/** One difference between two documents, for a client of the older one. */
export interface DocumentChange {
  /** `getOrder (GET /orders/{id})`, or `every operation` for the document as a whole. */
  readonly operation: string;
  /** `response 2XX: lines[].shipmentInfo`, `request body: reference`, `query limit`, `security`… */
  readonly location: string;
  readonly change: string;
  /** The rule of `CHANGE_RULES` that classified it. */
  readonly rule: ChangeRuleName;
  readonly severity: ChangeSeverity;
}

type OperationChange = Omit<DocumentChange, 'operation'>;

/** A change classified by `rule` for the side it sits on (statuses and parameters have one verdict). */
const found = (
  location: string,
  change: string,
  rule: ChangeRuleName,
  direction: Direction = 'request',
): OperationChange => ({ location, change, rule, severity: classify(rule, direction) });

/** True when `status` (`409`, `4XX`) was already a possible answer under a range or `default` of `statuses`. */
function coveredBy(statuses: readonly string[], status: string): boolean {
  if (statuses.includes('default')) return true;
  return /^\d\d\d$/.test(status) && statuses.some((other) => other.toUpperCase() === `${status[0]}XX`);
}

const METHODS = ['get', 'head', 'post', 'put', 'patch', 'delete', 'options', 'trace'];
const EVERY_OPERATION = 'every operation';

interface OperationEntry {
  readonly label: string;
  readonly operation: JsonObject;
  readonly parameters: Json[];
}

/** Operations by `METHOD path`, with the path item's parameters merged in. */
function operationsOf(document: JsonObject | undefined): Map<string, OperationEntry> {
  const found = new Map<string, OperationEntry>();
  const paths = document && isJsonObject(document.paths) ? document.paths : {};
  for (const [path, item] of Object.entries(paths)) {
    if (!isJsonObject(item)) continue;
    const shared = Array.isArray(item.parameters) ? item.parameters : [];
    for (const method of METHODS) {
      const operation = item[method];
      if (!isJsonObject(operation)) continue;
      const id = typeof operation.operationId === 'string' ? `${operation.operationId} ` : '';
      const own = Array.isArray(operation.parameters) ? operation.parameters : [];
      found.set(`${method.toUpperCase()} ${path}`, {
        label: `${id}(${method.toUpperCase()} ${path})`,
        operation,
        parameters: [...shared, ...own],
      });
    }
  }
  return found;
}

const at = (where: string, path: string) => (path ? `${where}: ${path}` : where);

function parametersByKey(parameters: Json[]): Map<string, JsonObject> {
  const byKey = new Map<string, JsonObject>();
  for (const parameter of parameters) {
    if (isJsonObject(parameter) && typeof parameter.name === 'string') {
      byKey.set(`${String(parameter.in)} ${parameter.name}`, parameter);
    }
  }
  return byKey;
}

function contentOf(holder: Json | undefined): JsonObject {
  return isJsonObject(holder) && isJsonObject(holder.content) ? holder.content : {};
}

function diffContent(
  before: JsonObject,
  after: JsonObject,
  direction: Direction,
  where: string,
  resolvers: [Resolver, Resolver],
): OperationChange[] {
  const changes: OperationChange[] = [];
  for (const mediaType of Object.keys(before)) {
    if (!(mediaType in after)) {
      changes.push(found(where, `media type ${mediaType} removed`, 'media-type-removed', direction));
      continue;
    }
    const a = before[mediaType];
    const b = after[mediaType];
    for (const change of diffSchemas(
      isJsonObject(a) ? a.schema : undefined,
      isJsonObject(b) ? b.schema : undefined,
      direction,
      ...resolvers,
    )) {
      changes.push(found(at(where, change.path), change.change, change.rule, direction));
    }
  }
  for (const mediaType of Object.keys(after)) {
    if (!(mediaType in before)) {
      changes.push(found(where, `media type ${mediaType} added`, 'media-type-added', direction));
    }
  }
  // Media types sharing one schema (`application/json` and the `application/*` range) change together: said once.
  const said = new Set<string>();
  return changes.filter((change) => {
    const key = `${change.location}\u0000${change.change}\u0000${change.severity}`;
    if (said.has(key)) return false;
    said.add(key);
    return true;
  });
}

function diffParameters(before: Json[], after: Json[], resolvers: [Resolver, Resolver]): OperationChange[] {
  const changes: OperationChange[] = [];
  const old = parametersByKey(before);
  const current = parametersByKey(after);
  for (const [key, parameter] of old) {
    const next = current.get(key);
    if (!next) {
      changes.push(found(key, 'parameter removed', 'parameter-removed'));
      continue;
    }
    if (parameter.required !== true && next.required === true) {
      changes.push(found(key, 'now required', 'parameter-now-required'));
    } else if (parameter.required === true && next.required !== true) {
      changes.push(found(key, 'now optional', 'parameter-now-optional'));
    }
    for (const change of diffSchemas(parameter.schema, next.schema, 'request', ...resolvers)) {
      changes.push(found(at(key, change.path), change.change, change.rule));
    }
  }
  for (const [key, parameter] of current) {
    if (old.has(key)) continue;
    const required = parameter.required === true;
    changes.push(
      found(
        key,
        `parameter added${required ? ' (required)' : ' (optional)'}`,
        required ? 'parameter-added-required' : 'parameter-added-optional',
      ),
    );
  }
  return changes;
}

function diffRequestBody(
  before: Json | undefined,
  after: Json | undefined,
  resolvers: [Resolver, Resolver],
): OperationChange[] {
  if (before === undefined && after === undefined) return [];
  if (before === undefined) {
    const required = isJsonObject(after) && after.required === true;
    return [
      found(
        'request body',
        `added${required ? ' (required)' : ' (optional)'}`,
        required ? 'body-added-required' : 'body-added-optional',
      ),
    ];
  }
  if (after === undefined) return [found('request body', 'removed', 'body-removed')];
  return diffContent(contentOf(before), contentOf(after), 'request', 'request body', resolvers);
}

/**
 * Statuses: a removed one is breaking whatever its class (the vendor no longer documents that
 * answer, which the client and the pacts rely on); a new one is breaking unless a range or
 * `default` already covered it.
 */
function diffResponses(
  before: JsonObject,
  after: JsonObject,
  resolvers: [Resolver, Resolver],
): OperationChange[] {
  const changes: OperationChange[] = [];
  for (const [status, response] of Object.entries(before)) {
    const where = `response ${status}`;
    const next = after[status];
    if (next === undefined) {
      changes.push(found(where, 'removed', 'status-removed', 'response'));
      continue;
    }
    if (isJsonObject(response) && isJsonObject(next) && response['x-documented'] !== next['x-documented']) {
      const change =
        next['x-documented'] === true ? 'now documented by the vendor' : 'no longer documented by the vendor';
      changes.push(found(where, change, 'status-documentation-changed', 'response'));
    }
    changes.push(...diffContent(contentOf(response), contentOf(next), 'response', where, resolvers));
  }
  const known = Object.keys(before);
  for (const status of Object.keys(after)) {
    if (status in before) continue;
    const covered = coveredBy(known, status);
    changes.push(
      found(
        `response ${status}`,
        covered ? 'added' : 'added (a new answer)',
        covered ? 'status-added-covered' : 'status-added-uncovered',
        'response',
      ),
    );
  }
  return changes;
}

function diffOperation(
  a: OperationEntry,
  b: OperationEntry,
  resolvers: [Resolver, Resolver],
): OperationChange[] {
  const responses = (entry: OperationEntry) =>
    isJsonObject(entry.operation.responses) ? entry.operation.responses : {};
  const changes = [
    ...diffParameters(a.parameters, b.parameters, resolvers),
    ...diffRequestBody(a.operation.requestBody, b.operation.requestBody, resolvers),
    ...diffResponses(responses(a), responses(b), resolvers),
  ];
  const securityBefore = JSON.stringify(a.operation.security ?? null);
  const securityAfter = JSON.stringify(b.operation.security ?? null);
  if (securityBefore !== securityAfter) {
    changes.push(found('security', `${securityBefore} → ${securityAfter}`, 'security-changed'));
  }
  return changes;
}

/** What a client of the whole API notices: the version header, credentials, the base URL. */
function diffDocumentLevel(before: JsonObject, after: JsonObject): DocumentChange[] {
  const changes: DocumentChange[] = [];
  const parts: Array<[string, Json | undefined, Json | undefined]> = [
    [VERSION_HEADER_EXTENSION, before[VERSION_HEADER_EXTENSION], after[VERSION_HEADER_EXTENSION]],
    ['security', before.security, after.security],
    [
      'security schemes',
      isJsonObject(before.components) ? before.components.securitySchemes : undefined,
      isJsonObject(after.components) ? after.components.securitySchemes : undefined,
    ],
    ['servers', before.servers, after.servers],
  ];
  for (const [location, a, b] of parts) {
    if (JSON.stringify(a) === JSON.stringify(b)) continue;
    const value = (x: Json | undefined) =>
      isJsonObject(x) && typeof x.value === 'string'
        ? `${String(x.name)}: ${x.value}`
        : JSON.stringify(x ?? null);
    changes.push({
      operation: EVERY_OPERATION,
      location,
      change: `${value(a)} → ${value(b)}`,
      rule: 'document-level-changed',
      severity: classify('document-level-changed', 'request'),
    });
  }
  return changes;
}

/**
 * Every difference between two OpenAPI documents, per operation and field, each marked
 * `breaking` (a client of `before` can fail against `after`), `additive` (something new a
 * client may use) or `compatible` (neither). A missing document counts as one without
 * operations, so a new version is all additive and a retired one all breaking.
 */
export function diffDocuments(
  before: JsonObject | undefined,
  after: JsonObject | undefined,
): DocumentChange[] {
  const empty: JsonObject = {};
  const resolvers: [Resolver, Resolver] = [resolverFor(before ?? empty), resolverFor(after ?? empty)];
  const changes: DocumentChange[] = before && after ? diffDocumentLevel(before, after) : [];
  const old = operationsOf(before);
  const current = operationsOf(after);
  for (const [key, entry] of old) {
    const next = current.get(key);
    if (!next) {
      changes.push({
        operation: entry.label,
        ...found('operation', 'removed', 'operation-removed'),
      });
      continue;
    }
    for (const change of diffOperation(entry, next, resolvers))
      changes.push({ operation: next.label, ...change });
  }
  for (const [key, entry] of current) {
    if (!old.has(key)) {
      changes.push({ operation: entry.label, ...found('operation', 'added', 'operation-added') });
    }
  }
  return changes;
}
