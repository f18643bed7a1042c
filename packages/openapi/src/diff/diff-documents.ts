import { METHODS, VERSION_HEADER_EXTENSION } from '../document/build-document.js';
import { isJsonObject, type Json, type JsonObject } from '../json.js';
import { type ChangeRuleName, type ChangeSeverity, classify, type Direction } from './change-rules.js';
import { added, diffSchemas, entriesOf, paired, type Resolver, resolverFor } from './schema-diff.js';

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

interface OperationEntry {
  readonly label: string;
  readonly operation: JsonObject;
  /** By `in name` (`query limit`), the path item's parameters merged in. */
  readonly parameters: Map<string, JsonObject>;
}

/** Operations by `METHOD path`. */
function operationsOf(document: JsonObject | undefined): Map<string, OperationEntry> {
  const found = new Map<string, OperationEntry>();
  for (const [path, item] of entriesOf(document?.paths)) {
    if (!isJsonObject(item)) continue;
    for (const method of METHODS) {
      const operation = item[method];
      if (!isJsonObject(operation)) continue;
      const id = typeof operation.operationId === 'string' ? `${operation.operationId} ` : '';
      const parameters = new Map<string, JsonObject>();
      for (const parameter of [item.parameters, operation.parameters].flatMap((list) =>
        Array.isArray(list) ? list : [],
      )) {
        if (isJsonObject(parameter) && typeof parameter.name === 'string') {
          parameters.set(`${String(parameter.in)} ${parameter.name}`, parameter);
        }
      }
      const label = `${id}(${method.toUpperCase()} ${path})`;
      found.set(`${method.toUpperCase()} ${path}`, { label, operation, parameters });
    }
  }
  return found;
}

/** True when `status` (`409`, `4XX`) was already a possible answer under a range or `default` of `statuses`. */
function coveredBy(statuses: readonly string[], status: string): boolean {
  if (statuses.includes('default')) return true;
  return /^\d\d\d$/.test(status) && statuses.some((other) => other.toUpperCase() === `${status[0]}XX`);
}

/** What a client of the whole API notices: the version header, credentials, the base URL. */
const DOCUMENT_LEVEL: ReadonlyArray<readonly [string, (document: JsonObject) => Json | undefined]> = [
  [VERSION_HEADER_EXTENSION, (document) => document[VERSION_HEADER_EXTENSION]],
  ['security', (document) => document.security],
  ['security schemes', (document) => entriesOf(document.components).get('securitySchemes')],
  ['servers', (document) => document.servers],
];

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
  const changes: DocumentChange[] = [];
  const resolvers: [Resolver, Resolver] = [resolverFor(before), resolverFor(after)];
  let operation = 'every operation';
  /** Statuses and parameters have one verdict whatever the side: they are read as `request`. */
  const report = (location: string, change: string, rule: ChangeRuleName, side: Direction = 'request') => {
    changes.push({ operation, location, change, rule, severity: classify(rule, side) });
  };
  const at = (where: string, path: string) => (path ? `${where}: ${path}` : where);

  const diffContent = (a: Json | undefined, b: Json | undefined, side: Direction, where: string) => {
    const start = changes.length;
    const contentOf = (holder: Json | undefined) => entriesOf(entriesOf(holder).get('content'));
    for (const [mediaType, x, y] of paired(contentOf(a), contentOf(b))) {
      const schema = (media: Json) => entriesOf(media).get('schema');
      if (y === undefined) report(where, `media type ${mediaType} removed`, 'media-type-removed', side);
      else if (x === undefined) report(where, `media type ${mediaType} added`, 'media-type-added', side);
      else {
        diffSchemas(schema(x), schema(y), side, resolvers, (path, change, rule) =>
          report(at(where, path), change, rule, side),
        );
      }
    }
    // Media types sharing one schema (`application/json` and the `application/*` range) change together: said once.
    const said = new Set<string>();
    for (const change of changes.splice(start)) {
      const key = `${change.location}\u0000${change.change}\u0000${change.severity}`;
      if (!said.has(key)) changes.push(change);
      said.add(key);
    }
  };

  const diffOperation = (a: OperationEntry, b: OperationEntry) => {
    for (const [key, x, y] of paired(a.parameters, b.parameters)) {
      if (y === undefined) report(key, 'parameter removed', 'parameter-removed');
      else if (x === undefined) {
        const [change, rule] = added('parameter', y.required === true);
        report(key, `parameter ${change}`, rule);
      } else {
        if (x.required !== true && y.required === true) report(key, 'now required', 'parameter-now-required');
        else if (x.required === true && y.required !== true) {
          report(key, 'now optional', 'parameter-now-optional');
        }
        diffSchemas(x.schema, y.schema, 'request', resolvers, (path, change, rule) =>
          report(at(key, path), change, rule),
        );
      }
    }
    const [bodyBefore, bodyAfter] = [a.operation.requestBody, b.operation.requestBody];
    if (bodyBefore === undefined && bodyAfter !== undefined) {
      report('request body', ...added('body', isJsonObject(bodyAfter) && bodyAfter.required === true));
    } else if (bodyAfter === undefined && bodyBefore !== undefined) {
      report('request body', 'removed', 'body-removed');
    } else diffContent(bodyBefore, bodyAfter, 'request', 'request body');
    // Statuses: a removed one is breaking whatever its class (the vendor no longer documents
    // that answer, which the client and the pacts rely on); a new one is breaking unless a
    // range or `default` already covered it.
    const [responsesBefore, responsesAfter] = [
      entriesOf(a.operation.responses),
      entriesOf(b.operation.responses),
    ];
    for (const [status, x, y] of paired(responsesBefore, responsesAfter)) {
      const where = `response ${status}`;
      if (y === undefined) report(where, 'removed', 'status-removed', 'response');
      else if (x === undefined) {
        const covered = coveredBy([...responsesBefore.keys()], status);
        const rule = covered ? 'status-added-covered' : 'status-added-uncovered';
        report(where, covered ? 'added' : 'added (a new answer)', rule, 'response');
      } else {
        const documented = (response: Json) => entriesOf(response).get('x-documented');
        if (isJsonObject(x) && isJsonObject(y) && documented(x) !== documented(y)) {
          const change =
            documented(y) === true ? 'now documented by the vendor' : 'no longer documented by the vendor';
          report(where, change, 'status-documentation-changed', 'response');
        }
        diffContent(x, y, 'response', where);
      }
    }
    const securityBefore = JSON.stringify(a.operation.security ?? null);
    const securityAfter = JSON.stringify(b.operation.security ?? null);
    if (securityBefore !== securityAfter) {
      report('security', `${securityBefore} → ${securityAfter}`, 'security-changed');
    }
  };

  for (const [location, part] of before && after ? DOCUMENT_LEVEL : []) {
    const [a, b] = [part(before as JsonObject), part(after as JsonObject)];
    if (JSON.stringify(a) === JSON.stringify(b)) continue;
    const value = (x: Json | undefined) =>
      isJsonObject(x) && typeof x.value === 'string'
        ? `${String(x.name)}: ${x.value}`
        : JSON.stringify(x ?? null);
    report(location, `${value(a)} → ${value(b)}`, 'document-level-changed');
  }
  for (const [, x, y] of paired(operationsOf(before), operationsOf(after))) {
    operation = (y ?? (x as OperationEntry)).label;
    if (y === undefined) report('operation', 'removed', 'operation-removed');
    else if (x === undefined) report('operation', 'added', 'operation-added');
    else diffOperation(x, y);
  }
  return changes;
}
