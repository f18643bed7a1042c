import { randomUUID } from 'node:crypto';
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import {
  API_BASE_PATH,
  type ApiVersion,
  DEFAULT_VERSION_HEADER,
  LIST_LIMIT_MAX,
  type OperationName,
  operations,
  pathPattern,
  VERSION_WITHOUT_HEADER,
} from '@print-contracts/client';
import {
  type Alteration,
  editJson,
  type ProxiedAnswer,
  type ProxiedRequest,
} from '@print-contracts/test-support';
import type { Mutation } from './generate.js';

/** The operation and version a request to the stand-in is for; undefined off the orders API (the control surface). */
export function requestScope(
  request: ProxiedRequest,
): { operation: OperationName; version: ApiVersion } | undefined {
  const path = request.path.split('?')[0] ?? request.path;
  const operation = (Object.keys(operations) as OperationName[]).find(
    (name) =>
      operations[name].method === request.method &&
      pathPattern(operations[name].path, API_BASE_PATH).test(path),
  );
  if (!operation) return undefined;
  const header = request.headers[DEFAULT_VERSION_HEADER.name.toLowerCase()];
  const version = /vnd\.printdeal-api\.(v\d+)/.exec(String(header ?? ''))?.[1];
  return { operation, version: version === 'v1' || version === 'v2' ? version : VERSION_WITHOUT_HEADER };
}

const inScope = (mutation: Mutation, request: ProxiedRequest) => {
  const scope = requestScope(request);
  if (!scope) return false;
  const { operation, version } = mutation.scope;
  return (
    (operation === 'any' || operation === scope.operation) && (version === 'any' || version === scope.version)
  );
};

/** The query of a list request with its `limit` (default 50) cut to `most`. */
function listQuery(path: string, most: number): string {
  const query = new URLSearchParams(path.split('?')[1] ?? '');
  query.set('limit', String(Math.min(Number(query.get('limit') ?? LIST_LIMIT_MAX), most)));
  return query.toString();
}

/** The answer's status is one the request's operation does not document. */
const undocumentedHere = (
  undocumented: Partial<Record<OperationName, readonly number[]>>,
  request: ProxiedRequest,
  status: number,
) => {
  const operation = requestScope(request)?.operation;
  return operation !== undefined && (undocumented[operation]?.includes(status) ?? false);
};

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** `$.lines[*].status` → `['lines', '*', 'status']`. */
const segments = (path: string) =>
  path
    .slice(1)
    .split(/\.|(?=\[\*\])/)
    .filter(Boolean)
    .map((part) => (part === '[*]' ? '*' : part));

/** Changes, in place, every value at `path`: `edit(parent, key)` for a key, each element for `[*]`. */
function atPath(
  json: Json,
  parts: readonly string[],
  edit: (parent: Json[] | Record<string, Json>, key: string | number) => void,
) {
  const [head, ...rest] = parts;
  if (head === undefined || json === null || typeof json !== 'object') return;
  if (head === '*') {
    if (!Array.isArray(json)) return;
    json.forEach((_, index) => {
      if (rest.length === 0) edit(json, index);
      else atPath(json[index] as Json, rest, edit);
    });
    return;
  }
  if (Array.isArray(json) || !(head in json)) return;
  if (rest.length === 0) edit(json, head);
  else atPath(json[head] as Json, rest, edit);
}

/** The value in another JSON type: the change a vendor makes when it serialises differently. */
function retyped(value: Json): Json {
  if (typeof value === 'string') return 12345;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (Array.isArray(value)) return { items: value };
  if (value === null) return 0;
  return JSON.stringify(value);
}

function editField(json: Json, mutation: Mutation & { path: string }): Json {
  atPath(json, segments(mutation.path), (parent, key) => {
    if (Array.isArray(parent) || typeof key === 'number') {
      const list = parent as Json[];
      const index = key as number;
      if (mutation.kind === 'retype') list[index] = retyped(list[index] as Json);
      else if (mutation.kind === 'null' || mutation.kind === 'documented-null') list[index] = null;
      return;
    }
    if (mutation.kind === 'retype') parent[key] = retyped(parent[key] as Json);
    else if (mutation.kind === 'null' || mutation.kind === 'documented-null') parent[key] = null;
    else {
      // Renamed or dropped where it stood, so key order is not a second change.
      const entries = Object.entries(parent);
      for (const name of Object.keys(parent)) delete parent[name];
      for (const [name, item] of entries) {
        if (name !== key) parent[name] = item;
        else if (mutation.kind === 'rename') parent[`${name}Renamed`] = item;
      }
    }
  });
  return json;
}

/** Every object in the value, deep, rebuilt by `rebuild`. */
function eachObject(json: Json, rebuild: (object: Record<string, Json>) => Record<string, Json>): Json {
  if (Array.isArray(json)) return json.map((item) => eachObject(item, rebuild));
  if (json === null || typeof json !== 'object') return json;
  return rebuild(
    Object.fromEntries(Object.entries(json).map(([key, value]) => [key, eachObject(value, rebuild)])),
  );
}

function editBody(answer: ProxiedAnswer, edit: (json: Json) => Json): ProxiedAnswer {
  let json: Json;
  try {
    json = JSON.parse(answer.body.toString('utf8')) as Json;
  } catch {
    return answer;
  }
  return { ...answer, body: Buffer.from(JSON.stringify(edit(json))) };
}

const jsonAnswer = (answer: ProxiedAnswer, status: number, body: Json): ProxiedAnswer => ({
  status,
  headers: { ...answer.headers, 'content-type': 'application/json' },
  body: Buffer.from(JSON.stringify(body)),
});

/** Replaces every text that says the creation failed. */
function withoutFailure(json: Json): Json {
  if (typeof json === 'string') return /fail/i.test(json) ? 'Order not found' : json;
  if (Array.isArray(json)) return json.map(withoutFailure);
  if (json === null || typeof json !== 'object') return json;
  return Object.fromEntries(Object.entries(json).map(([key, value]) => [key, withoutFailure(value)]));
}

const withoutQueryKey = (path: string, key: string) => {
  const url = new URL(path, 'http://stand-in');
  url.searchParams.delete(key);
  return `${url.pathname}${url.search}`;
};

/**
 * The stand-in's change for one mutation: a proxy alteration that touches only requests of the
 * mutation's operation and version (method, path pattern, version header) and leaves the
 * control surface alone. Latency is the sample API's own fault rule (`latencyMs`): the proxy's
 * hooks answer at once. `target` (the origin the proxy fronts) receives the second of a twin create.
 */
export function alterationOf(mutation: Mutation, target?: string): Alteration {
  switch (mutation.kind) {
    case 'rename':
    case 'retype':
    case 'drop':
    case 'null':
    case 'documented-null':
      return {
        response: (answer, request) =>
          inScope(mutation, request) && answer.status < 300
            ? editBody(answer, (json) => editField(json, mutation))
            : undefined,
      };
    case 'ignore-query':
      return {
        request: (request) =>
          inScope(mutation, request)
            ? { ...request, path: withoutQueryKey(request.path, mutation.key) }
            : undefined,
      };
    case 'failed-message':
      return {
        response: (answer, request) =>
          inScope(mutation, request) && answer.status === 404 ? editBody(answer, withoutFailure) : undefined,
      };
    case 'status':
      return {
        response: (answer, request) => {
          if (!inScope(mutation, request) || answer.status !== mutation.from) return undefined;
          return mutation.to < 300
            ? jsonAnswer(answer, mutation.to, { success: true })
            : { ...answer, status: mutation.to };
        },
      };
    case 'version-header':
      return {
        request: (request) =>
          inScope(mutation, request)
            ? {
                ...request,
                headers: {
                  ...request.headers,
                  [DEFAULT_VERSION_HEADER.name.toLowerCase()]: DEFAULT_VERSION_HEADER.template.replace(
                    '{version}',
                    mutation.answeredAs,
                  ),
                },
              }
            : undefined,
      };
    case 'added-field':
      return {
        response: (answer, request) =>
          inScope(mutation, request)
            ? editBody(answer, (json) =>
                eachObject(json, (object) => ({ ...object, addedByTheVendor: 'new' })),
              )
            : undefined,
      };
    case 'reordered-keys':
      return {
        response: (answer, request) =>
          inScope(mutation, request)
            ? editBody(answer, (json) =>
                eachObject(json, (object) => Object.fromEntries(Object.entries(object).reverse())),
              )
            : undefined,
      };
    case 'charset':
      return {
        response: (answer, request) =>
          inScope(mutation, request) && /json/.test(String(answer.headers['content-type'] ?? ''))
            ? { ...answer, headers: { ...answer.headers, 'content-type': 'application/json; charset=utf-8' } }
            : undefined,
      };
    case 'byte-order-mark':
      return {
        response: (answer, request) =>
          inScope(mutation, request) && answer.body.length > 0
            ? { ...answer, body: Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), answer.body]) }
            : undefined,
      };
    case 'error-body':
      return {
        response: (answer, request) =>
          inScope(mutation, request) && undocumentedHere(mutation.undocumented, request, answer.status)
            ? jsonAnswer(answer, answer.status, {
                errors: [{ code: 'VENDOR_ERROR', title: 'Request refused' }],
              })
            : undefined,
      };
    case 'throttling': {
      // One request in `every`, each beyond `perSecond` in the current second (throttled ones count),
      // or every one for `burstMs` from the first.
      let count = 0;
      let second = 0;
      let first: number | undefined;
      const throttled = () => {
        if ('burstMs' in mutation) {
          first ??= Date.now();
          return Date.now() < first + mutation.burstMs;
        }
        if (!('perSecond' in mutation)) return ++count % mutation.every === 0;
        const now = Math.floor(Date.now() / 1000);
        if (now !== second) [second, count] = [now, 0];
        return ++count > mutation.perSecond;
      };
      const retryAfter = mutation.retryAfterSeconds;
      return {
        request: (request) =>
          inScope(mutation, request) && throttled()
            ? {
                reply: {
                  status: mutation.status,
                  headers: {
                    'content-type': 'application/json',
                    ...(retryAfter === undefined ? {} : { 'retry-after': String(retryAfter) }),
                  },
                  body: Buffer.from(
                    JSON.stringify({
                      message: mutation.status === 429 ? 'Too many requests' : 'Service unavailable',
                    }),
                  ),
                },
              }
            : undefined,
      };
    }
    case 'content-coding': {
      const encode = { gzip: gzipSync, br: brotliCompressSync, deflate: deflateSync }[mutation.coding];
      return {
        response: (answer, request) =>
          inScope(mutation, request) && answer.body.length > 0
            ? {
                ...answer,
                headers: { ...answer.headers, 'content-encoding': mutation.coding },
                body: encode(answer.body),
              }
            : undefined,
      };
    }
    case 'lost-answer':
    case 'silent-answer':
    case 'trickled-answer': {
      let count = 0;
      const lost =
        mutation.kind === 'trickled-answer'
          ? 'trickle-after'
          : mutation.kind === 'lost-answer'
            ? mutation.when
            : (`silent-${mutation.when}` as const);
      return {
        lose: (request) => (inScope(mutation, request) && ++count % mutation.every === 0 ? lost : undefined),
      };
    }
    case 'redirect':
      return {
        request: (request) => {
          // The moved path is served as the old one was.
          if (request.path.startsWith(`${mutation.movedTo}/`)) {
            return { ...request, path: `${API_BASE_PATH}${request.path.slice(mutation.movedTo.length)}` };
          }
          if (!inScope(mutation, request)) return undefined;
          const location = `${mutation.movedTo}${request.path.slice(API_BASE_PATH.length)}`;
          return { reply: { status: 308, headers: { location }, body: Buffer.alloc(0) } };
        },
      };
    case 'foreign-uuid':
      return {
        response: (answer, request) =>
          inScope(mutation, request)
            ? editJson(answer, (json) =>
                json !== null && typeof json === 'object' && 'uuid' in json
                  ? { ...json, uuid: randomUUID() }
                  : json,
              )
            : undefined,
      };
    case 'page-size':
      return {
        request: (request) =>
          inScope(mutation, request) && requestScope(request)?.operation === 'listOrders'
            ? {
                ...request,
                path: `${request.path.split('?')[0]}?${listQuery(request.path, mutation.pageAtMost)}`,
              }
            : undefined,
      };
    case 'maintenance-page': {
      let count = 0;
      const page = Buffer.from('<!doctype html><html><body><h1>Down for maintenance</h1></body></html>');
      return {
        request: (request) =>
          inScope(mutation, request) && ++count % mutation.every === 0
            ? { reply: { status: 200, headers: { 'content-type': 'text/html; charset=utf-8' }, body: page } }
            : undefined,
      };
    }
    case 'server-error':
    case 'gateway-error': {
      let count = 0;
      const body =
        mutation.kind === 'server-error'
          ? { 'content-type': 'application/json', text: JSON.stringify({ message: 'Internal Server Error' }) }
          : { 'content-type': 'text/html', text: '<html><body><h1>502 Bad Gateway</h1></body></html>' };
      // The vendor did the work: the answer that came of it is what is replaced.
      return {
        response: (_answer, request) =>
          inScope(mutation, request) && ++count % mutation.every === 0
            ? {
                status: mutation.status,
                headers: { 'content-type': body['content-type'] },
                body: Buffer.from(body.text),
              }
            : undefined,
      };
    }
    case 'cancel-ignored':
      return {
        request: (request) =>
          inScope(mutation, request)
            ? {
                reply: {
                  status: 200,
                  headers: { 'content-type': 'application/json' },
                  body: Buffer.from(JSON.stringify({ success: true })),
                },
              }
            : undefined,
      };
    case 'twin-create':
      return {
        request: (request) => {
          if (target === undefined || !inScope(mutation, request)) return undefined;
          // The vendor makes the order twice: a second, identical create reaches it directly.
          const { host, connection, 'content-length': length, ...headers } = request.headers;
          const copied = Object.entries(headers).map(([name, value]): [string, string] => [
            name,
            String(value),
          ]);
          const body = new Uint8Array(request.body);
          void fetch(`${target}${request.path}`, { method: request.method, headers: copied, body }).catch(
            () => undefined,
          );
          return undefined;
        },
      };
    case 'latency':
      return {};
  }
}
