import { VERSION_HEADER_EXTENSION } from '../document/conventions.js';
import { isJsonObject, type Json, type JsonObject } from '../schemas/json-schema.js';
import {
  type ChangeSeverity,
  type Direction,
  diffSchemas,
  type Resolver,
  resolverFor,
} from './schema-diff.js';

export type { ChangeSeverity } from './schema-diff.js';

/** One difference between two documents, for a client of the older one. */
export interface DocumentChange {
  /** `getOrder (GET /orders/{id})`, or `every operation` for the document as a whole. */
  readonly operation: string;
  /** `response 2XX: lines[].shipmentInfo`, `request body: reference`, `query limit`, `security`… */
  readonly location: string;
  readonly change: string;
  readonly severity: ChangeSeverity;
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
): Array<Omit<DocumentChange, 'operation'>> {
  const changes: Array<Omit<DocumentChange, 'operation'>> = [];
  for (const mediaType of Object.keys(before)) {
    if (!(mediaType in after)) {
      changes.push({ location: where, change: `media type ${mediaType} removed`, severity: 'breaking' });
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
      changes.push({ location: at(where, change.path), change: change.change, severity: change.severity });
    }
  }
  for (const mediaType of Object.keys(after)) {
    if (!(mediaType in before)) {
      changes.push({ location: where, change: `media type ${mediaType} added`, severity: 'additive' });
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

function diffOperation(
  a: OperationEntry,
  b: OperationEntry,
  resolvers: [Resolver, Resolver],
): Array<Omit<DocumentChange, 'operation'>> {
  const changes: Array<Omit<DocumentChange, 'operation'>> = [];
  const before = parametersByKey(a.parameters);
  const after = parametersByKey(b.parameters);
  for (const [key, parameter] of before) {
    const next = after.get(key);
    if (!next) {
      changes.push({ location: key, change: 'parameter removed', severity: 'breaking' });
      continue;
    }
    if (parameter.required !== true && next.required === true) {
      changes.push({ location: key, change: 'now required', severity: 'breaking' });
    } else if (parameter.required === true && next.required !== true) {
      changes.push({ location: key, change: 'now optional', severity: 'compatible' });
    }
    for (const change of diffSchemas(parameter.schema, next.schema, 'request', ...resolvers)) {
      changes.push({ location: at(key, change.path), change: change.change, severity: change.severity });
    }
  }
  for (const [key, parameter] of after) {
    if (before.has(key)) continue;
    const required = parameter.required === true;
    changes.push({
      location: key,
      change: `parameter added${required ? ' (required)' : ' (optional)'}`,
      severity: required ? 'breaking' : 'additive',
    });
  }

  const bodyBefore = a.operation.requestBody;
  const bodyAfter = b.operation.requestBody;
  if (bodyBefore === undefined && bodyAfter !== undefined) {
    const required = isJsonObject(bodyAfter) && bodyAfter.required === true;
    changes.push({
      location: 'request body',
      change: `added${required ? ' (required)' : ' (optional)'}`,
      severity: required ? 'breaking' : 'additive',
    });
  } else if (bodyBefore !== undefined && bodyAfter === undefined) {
    changes.push({ location: 'request body', change: 'removed', severity: 'breaking' });
  } else {
    changes.push(
      ...diffContent(contentOf(bodyBefore), contentOf(bodyAfter), 'request', 'request body', resolvers),
    );
  }

  const responsesBefore = isJsonObject(a.operation.responses) ? a.operation.responses : {};
  const responsesAfter = isJsonObject(b.operation.responses) ? b.operation.responses : {};
  for (const [status, response] of Object.entries(responsesBefore)) {
    const where = `response ${status}`;
    const next = responsesAfter[status];
    if (next === undefined) {
      changes.push({
        location: where,
        change: 'removed',
        severity: status.startsWith('2') ? 'breaking' : 'compatible',
      });
      continue;
    }
    if (isJsonObject(response) && isJsonObject(next) && response['x-documented'] !== next['x-documented']) {
      changes.push({
        location: where,
        change:
          next['x-documented'] === true
            ? 'now documented by the vendor'
            : 'no longer documented by the vendor',
        severity: 'compatible',
      });
    }
    changes.push(...diffContent(contentOf(response), contentOf(next), 'response', where, resolvers));
  }
  for (const status of Object.keys(responsesAfter)) {
    if (!(status in responsesBefore)) {
      changes.push({ location: `response ${status}`, change: 'added', severity: 'additive' });
    }
  }
  const securityBefore = JSON.stringify(a.operation.security ?? null);
  const securityAfter = JSON.stringify(b.operation.security ?? null);
  if (securityBefore !== securityAfter) {
    changes.push({
      location: 'security',
      change: `${securityBefore} → ${securityAfter}`,
      severity: 'breaking',
    });
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
      severity: 'breaking',
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
        location: 'operation',
        change: 'removed',
        severity: 'breaking',
      });
      continue;
    }
    for (const change of diffOperation(entry, next, resolvers))
      changes.push({ operation: next.label, ...change });
  }
  for (const [key, entry] of current) {
    if (!old.has(key)) {
      changes.push({ operation: entry.label, location: 'operation', change: 'added', severity: 'additive' });
    }
  }
  return changes;
}
