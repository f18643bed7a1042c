import {
  API_VERSIONS,
  type ApiVersion,
  type OperationDefinition,
  type OperationName,
  operations,
  queryKeys,
} from '@print-contracts/client';
import { operationOfRequest, type PactDocument, type PinnedField, pinnedFields } from './pact-pins.js';

/** The ways a stand-in departs from the vendor's documented behaviour, or harmlessly does not. */
export const FIELD_KINDS = ['rename', 'retype', 'drop', 'null'] as const;
export const BEHAVIOUR_KINDS = [
  'ignore-query',
  'failed-message',
  'status',
  'version-header',
  'redirect',
  'foreign-uuid',
  'maintenance-page',
  'cancel-ignored',
  'server-error',
] as const;
export const HARMLESS_KINDS = [
  'added-field',
  'reordered-keys',
  'charset',
  'error-body',
  'latency',
  'throttling',
  'content-coding',
  'byte-order-mark',
  'documented-null',
  'page-size',
  'twin-create',
] as const;
/**
 * Answers the vendor never gave: the run may say "target unavailable" where a replayed
 * interaction lost its answer (exit 3, or 1 as a regression against a baseline), but must not
 * FAIL an interaction and must leave no order open.
 */
export const LOST_KINDS = ['lost-answer', 'silent-answer', 'trickled-answer', 'gateway-error'] as const;
export const isLostKind = (kind: string) => (LOST_KINDS as readonly string[]).includes(kind);
export type MutationKind =
  | (typeof FIELD_KINDS)[number]
  | (typeof BEHAVIOUR_KINDS)[number]
  | (typeof HARMLESS_KINDS)[number]
  | (typeof LOST_KINDS)[number];

/** What a mutation applies to: one operation in one version, or every API request. */
export interface MutationScope {
  readonly operation: OperationName | 'any';
  readonly version: ApiVersion | 'any';
}

/** One change of the stand-in: data only, turned into a proxy alteration by `alterationOf`. */
export type Mutation = {
  /** `v2 getOrder: drop $.lines[*].status`: unique, stable between runs. */
  readonly name: string;
  readonly kind: MutationKind;
  /** A change the contracts must catch (true) or one that must stay green (false). */
  readonly harmful: boolean;
  readonly scope: MutationScope;
} & (
  | { readonly kind: 'rename' | 'retype' | 'drop' | 'null' | 'documented-null'; readonly path: string }
  | { readonly kind: 'ignore-query'; readonly key: string }
  | { readonly kind: 'failed-message' }
  | { readonly kind: 'status'; readonly from: number; readonly to: number }
  | { readonly kind: 'version-header'; readonly answeredAs: ApiVersion }
  | { readonly kind: 'added-field' | 'reordered-keys' | 'charset' | 'byte-order-mark' }
  | { readonly kind: 'latency'; readonly latencyMs: number }
  | { readonly kind: 'error-body'; readonly undocumented: Partial<Record<OperationName, readonly number[]>> }
  | ({
      readonly kind: 'throttling';
      readonly status: 429 | 503;
      /** Absent: no `Retry-After` header. */
      readonly retryAfterSeconds?: number;
    } & (
      | { readonly every: number }
      | { readonly perSecond: number }
      /** Every request throttled for this long from the first one, then none. */
      | { readonly burstMs: number }
    ))
  | { readonly kind: 'content-coding'; readonly coding: ContentCoding }
  | {
      readonly kind: 'lost-answer' | 'silent-answer';
      readonly when: 'before' | 'after';
      readonly every: number;
    }
  | { readonly kind: 'trickled-answer'; readonly every: number }
  | { readonly kind: 'redirect'; readonly movedTo: string }
  | { readonly kind: 'page-size'; readonly pageAtMost: number }
  | { readonly kind: 'foreign-uuid' | 'cancel-ignored' | 'twin-create' }
  | { readonly kind: 'maintenance-page'; readonly every: number }
  | { readonly kind: 'server-error' | 'gateway-error'; readonly status: number; readonly every: number }
);

/** How long a burst of throttling lasts: most of the 30 s creation window of the harness's runs. */
export const THROTTLE_BURST_MS = 27_000;

/** Where a vendor that moved an operation behind a redirect serves it now (`/api/orders` → `/api/moved/orders`). */
export const MOVED_PREFIX = '/api/moved';

/** The content codings a vendor may apply to an answer the kit did not ask to be compressed. */
export const CONTENT_CODINGS = ['gzip', 'br', 'deflate'] as const;
export type ContentCoding = (typeof CONTENT_CODINGS)[number];

/** A documented status and what the altered vendor answers instead. */
const STATUS_CHANGES: Readonly<Record<number, number>> = { 404: 400, 400: 422, 500: 200 };

/** Why a pinned field yields fewer than four mutations: the contract would accept the change. */
export interface SkippedMutation {
  readonly name: string;
  readonly reason: string;
}

export interface GeneratedMutations {
  readonly fields: readonly PinnedField[];
  readonly mutations: readonly Mutation[];
  readonly skipped: readonly SkippedMutation[];
}

const lastSegmentIsKey = (path: string) => !path.endsWith('[*]');

function fieldMutations(field: PinnedField, out: Mutation[], skipped: SkippedMutation[]) {
  const scope = { operation: field.operation, version: field.version };
  const name = (kind: string) => `${field.version} ${field.operation}: ${kind} ${field.path}`;
  for (const kind of FIELD_KINDS) {
    if ((kind === 'rename' || kind === 'drop') && !lastSegmentIsKey(field.path)) {
      skipped.push({ name: name(kind), reason: 'an array element has no key to rename or drop' });
    } else if (kind === 'null' && field.nullAllowed) {
      out.push({
        name: name('null (documented)'),
        kind: 'documented-null',
        harmful: false,
        scope,
        path: field.path,
      });
    } else if ((kind === 'null' || kind === 'retype') && field.anyValue) {
      skipped.push({ name: name(kind), reason: 'the pact lets this field hold any value' });
    } else if (kind === 'retype' && field.numberOrText) {
      skipped.push({
        name: name(kind),
        reason: "the pact's regex takes the field as a number or as its text",
      });
    } else {
      out.push({ name: name(kind), kind, harmful: true, scope, path: field.path });
    }
  }
}

/** The statuses the pacts show for an operation in a version. */
function pactStatuses(pacts: readonly { version: ApiVersion; document: PactDocument }[]) {
  const seen = new Map<string, Set<number>>();
  const queries = new Map<string, Set<string>>();
  for (const { version, document } of pacts) {
    for (const interaction of document.interactions) {
      const operation = operationOfRequest(interaction.request.method, interaction.request.path);
      if (!operation) continue;
      const key = `${operation}|${version}`;
      seen.set(key, (seen.get(key) ?? new Set()).add(interaction.response.status));
      for (const name of Object.keys(interaction.request.query ?? {})) {
        queries.set(key, (queries.get(key) ?? new Set()).add(name));
      }
    }
  }
  return {
    statuses: (operation: OperationName, version: ApiVersion) =>
      seen.get(`${operation}|${version}`) ?? new Set(),
    queries: (operation: OperationName, version: ApiVersion) =>
      queries.get(`${operation}|${version}`) ?? new Set(),
  };
}

/**
 * Whether the pacts can see a vendor that ignores the version header on `operation`: its answer
 * schema differs between the versions, or one of the version's interactions sends a body the two
 * versions judge differently (a v1-only delivery method in a v2 create, say).
 */
function versionHeaderObservable(
  operation: OperationName,
  version: ApiVersion,
  pacts: readonly { version: ApiVersion; document: PactDocument }[],
): boolean {
  const definition: OperationDefinition = operations[operation];
  const other: ApiVersion = version === 'v1' ? 'v2' : 'v1';
  if (!definition.versions.includes(other)) return false;
  if (definition.response[version] !== definition.response[other]) return true;
  const { body } = definition;
  if (!body) return false;
  return pacts
    .filter((pact) => pact.version === version)
    .flatMap((pact) => pact.document.interactions)
    .filter(
      (interaction) => operationOfRequest(interaction.request.method, interaction.request.path) === operation,
    )
    .some((interaction) => {
      const content = interaction.request.body?.content;
      return body[version].safeParse(content).success !== body[other].safeParse(content).success;
    });
}

/**
 * The mutations of the harness, derived and never listed by hand: four per field the pacts pin
 * (rename, retype, drop, null, less those the pinned matcher accepts anyway), and from the
 * operations table, for what the pacts exercise: each query key ignored, the failed-creation
 * 404 without its message, each documented error status changed, the version header ignored
 * where the versions differ. Then the harmless changes the kit must stay green on.
 */
export function generateMutations(
  pacts: readonly { version: ApiVersion; document: PactDocument }[],
): GeneratedMutations {
  const fields = pinnedFields(pacts);
  const mutations: Mutation[] = [];
  const skipped: SkippedMutation[] = [];
  for (const field of fields) fieldMutations(field, mutations, skipped);

  const seen = pactStatuses(pacts);
  const versions = API_VERSIONS.filter((version) => pacts.some((pact) => pact.version === version));
  const undocumented: Partial<Record<OperationName, number[]>> = {};
  for (const version of versions) {
    for (const [operation, definition] of Object.entries(operations) as [
      OperationName,
      OperationDefinition,
    ][]) {
      if (!definition.versions.includes(version)) continue;
      const scope = { operation, version };
      const statuses = seen.statuses(operation, version);
      const prefix = `${version} ${operation}:`;
      for (const key of queryKeys(definition).filter((name) => seen.queries(operation, version).has(name))) {
        mutations.push({
          name: `${prefix} ignore query ${key}`,
          kind: 'ignore-query',
          harmful: true,
          scope,
          key,
        });
      }
      for (const documented of Object.keys(definition.documentedErrors).map(Number)) {
        if (!statuses.has(documented)) continue;
        const to = STATUS_CHANGES[documented];
        if (to !== undefined) {
          mutations.push({
            name: `${prefix} status ${documented} → ${to}`,
            kind: 'status',
            harmful: true,
            scope,
            from: documented,
            to,
          });
        }
        if (operation === 'getOrder' && documented === 404) {
          mutations.push({
            name: `${prefix} 404 without the "failed" message`,
            kind: 'failed-message',
            harmful: true,
            scope,
          });
        }
      }
      for (const status of statuses) {
        const list = undocumented[operation] ?? [];
        if (status >= 400 && !(status in definition.documentedErrors) && !list.includes(status))
          list.push(status);
        undocumented[operation] = list;
      }
      if (statuses.size > 0 && versionHeaderObservable(operation, version, pacts)) {
        const answeredAs = version === 'v1' ? 'v2' : 'v1';
        mutations.push({
          name: `${prefix} ${version} answered as ${answeredAs}`,
          kind: 'version-header',
          harmful: true,
          scope,
          answeredAs,
        });
      }
    }
  }

  const any = { operation: 'any', version: 'any' } as const;
  const harmless = (
    kind: 'added-field' | 'reordered-keys' | 'charset' | 'byte-order-mark',
    name: string,
  ): Mutation => ({
    name: `any: ${name}`,
    kind,
    harmful: false,
    scope: any,
  });
  mutations.push(
    harmless('added-field', 'a field added to every object of every answer'),
    harmless('reordered-keys', 'the keys of every object in reverse order'),
    harmless('charset', 'Content-Type: application/json; charset=utf-8'),
    harmless('byte-order-mark', 'a UTF-8 byte order mark before every body'),
    // A vendor a little slower, and one slow enough that every wait of a run is stretched.
    ...[30, 1_500].map(
      (latencyMs): Mutation => ({
        name: `any: ${latencyMs.toLocaleString('en')} ms more per answer`,
        kind: 'latency',
        harmful: false,
        scope: any,
        latencyMs,
      }),
    ),
    {
      name: `any: another error body on the statuses each operation does not document (${Object.entries(
        undocumented,
      )
        .filter(([, list]) => list.length > 0)
        .map(([operation, list]) => `${operation} ${[...list].sort().join('/')}`)
        .join(', ')})`,
      kind: 'error-body',
      harmful: false,
      scope: any,
      undocumented,
    },
    ...CONTENT_CODINGS.map(
      (coding): Mutation => ({
        name: `any: every answer in Content-Encoding ${coding}, unasked`,
        kind: 'content-coding',
        harmful: false,
        scope: any,
        coding,
      }),
    ),
    // A vendor that lists fewer than asked: no pact pins a page's length, and nothing may end a
    // list but the empty page the docs name.
    {
      name: 'any: at most 2 orders a page, whatever the limit asks',
      kind: 'page-size',
      harmful: false,
      scope: any,
      pageAtMost: 2,
    },
    // A vendor that throttles, as DESIGN.md says the kit waits out: one request in a few answered
    // 429 or 503, with or without Retry-After, and a rate limit that a burst of creates runs into.
    {
      name: 'any: 429, Retry-After: 0, one request in 3',
      kind: 'throttling',
      harmful: false,
      scope: any,
      status: 429,
      every: 3,
      retryAfterSeconds: 0,
    },
    {
      name: 'any: 429, Retry-After: 1, one request in 5',
      kind: 'throttling',
      harmful: false,
      scope: any,
      status: 429,
      every: 5,
      retryAfterSeconds: 1,
    },
    {
      name: 'any: 429 without Retry-After, one request in 4',
      kind: 'throttling',
      harmful: false,
      scope: any,
      status: 429,
      every: 4,
    },
    {
      name: 'any: 503, Retry-After: 1, one request in 4',
      kind: 'throttling',
      harmful: false,
      scope: any,
      status: 503,
      every: 4,
      retryAfterSeconds: 1,
    },
    {
      name: 'any: at most 5 requests a second, 429 beyond them, Retry-After: 1',
      kind: 'throttling',
      harmful: false,
      scope: any,
      status: 429,
      perSecond: 5,
      retryAfterSeconds: 1,
    },
  );
  // Every operation of the table moved behind a 308 to a path the vendor serves it on: the client
  // follows no redirect, so the contract must fail, and no order of the run may be left open.
  for (const operation of Object.keys(operations) as OperationName[]) {
    mutations.push({
      name: `${operation}: moved behind a 308 to ${MOVED_PREFIX}/…`,
      kind: 'redirect',
      harmful: true,
      scope: { operation, version: 'any' },
      movedTo: MOVED_PREFIX,
    });
  }
  // A create answered with a uuid of no order it made: the pacts match any uuid, so only the
  // states built on the run's orders can see it, and only the run's reference finds the orders.
  mutations.push({
    name: 'createOrder: every create answered with a uuid that names no order',
    kind: 'foreign-uuid',
    harmful: true,
    scope: { operation: 'createOrder', version: 'any' },
  });
  // Every operation of the table answered 200 with an HTML maintenance page, one request in 2: a
  // contract that pins a field or an error status of the operation must fail; one that pins
  // neither (the update, whose answer the vendor does not document) must stay green. Either way
  // the stages that settle the run must read and cancel through it.
  const answerPinned = (operation: OperationName) =>
    fields.some((field) => field.operation === operation) ||
    versions.some((version) => [...seen.statuses(operation, version)].some((status) => status >= 300));
  for (const operation of Object.keys(operations) as OperationName[]) {
    mutations.push({
      name: `${operation}: one request in 2 answered 200 with an HTML maintenance page`,
      kind: 'maintenance-page',
      harmful: answerPinned(operation),
      scope: { operation, version: 'any' },
      every: 2,
    });
  }
  // A cancel answered success that the vendor never does: the contracts see the answers, and the
  // teardown must not believe them (its orders stay in the ledger, said, never "none left open").
  mutations.push({
    name: 'cancelOrder: every cancel answered {"success": true} and not done',
    kind: 'cancel-ignored',
    harmful: true,
    scope: { operation: 'cancelOrder', version: 'any' },
  });
  // Every create made twice by the vendor: no contract sees it; the run's reference finds the twins.
  mutations.push({
    name: 'createOrder: every create made twice by the vendor',
    kind: 'twin-create',
    harmful: false,
    scope: { operation: 'createOrder', version: 'any' },
  });
  // Every operation of the table, one request in 3 without an answer: the connection closed, or
  // held open in silence until the run's request timeout; before the vendor got the request, or
  // after it did the work (an order created or cancelled all the same).
  for (const operation of Object.keys(operations) as OperationName[]) {
    for (const kind of ['lost-answer', 'silent-answer'] as const) {
      for (const when of ['before', 'after'] as const) {
        const how = kind === 'lost-answer' ? 'loses its answer' : 'never answered, the connection held open';
        mutations.push({
          name: `${operation}: one request in 3 ${how}, ${when === 'before' ? 'never received' : 'after the vendor did it'}`,
          kind,
          harmful: false,
          scope: { operation, version: 'any' },
          when,
          every: 3,
        });
      }
    }
    // Its status and headers sent once the vendor did the work, then the body a byte at a time, never ended.
    mutations.push({
      name: `${operation}: one answer in 3 trickled a byte every half second, never ended`,
      kind: 'trickled-answer',
      harmful: false,
      scope: { operation, version: 'any' },
      every: 3,
    });
  }
  // Every operation of the table throttled whole for most of a creation window of the harness's
  // runs (30 s; the killed runs' is 5 s): every stage meets a vendor that makes it wait, not one
  // that says no, and must neither fail a contract nor leave an order open on that account.
  for (const operation of Object.keys(operations) as OperationName[]) {
    mutations.push({
      name: `${operation}: every request answered 429 without Retry-After for ${THROTTLE_BURST_MS / 1000} s from the first`,
      kind: 'throttling',
      harmful: false,
      scope: { operation, version: 'any' },
      status: 429,
      burstMs: THROTTLE_BURST_MS,
    });
  }
  // Every operation of the table done by the vendor, its answer then replaced by a 5xx: a 500 of the
  // vendor's own one request in 2 (the contracts pin a success, or the documented error, so it must
  // fail), and a 502 of a gateway one request in 3, an answer the vendor never gave (unavailable at
  // most). Either way, an order created or cancelled all the same must be settled.
  for (const operation of Object.keys(operations) as OperationName[]) {
    const scope = { operation, version: 'any' } as const;
    mutations.push(
      {
        name: `${operation}: one request in 2 done, and answered 500 Internal Server Error`,
        kind: 'server-error',
        harmful: true,
        scope,
        status: 500,
        every: 2,
      },
      {
        name: `${operation}: one request in 3 done, and answered 502 Bad Gateway by a gateway`,
        kind: 'gateway-error',
        harmful: false,
        scope,
        status: 502,
        every: 3,
      },
    );
  }
  return { fields, mutations, skipped };
}
