import type { IncomingMessage, ServerResponse } from 'node:http';
import type { OperationName } from '@print-contracts/client';
import { JSON_TYPE, jsonAnswer, send } from '../http/answer.js';
import { ALL_OPERATIONS, FAULT_EFFECT_FIELDS, type FaultRule } from './fault-rule.js';

/** The sum of the firing rules' latencies and the first firing rule that has an effect. */
export interface FaultDecision {
  readonly latencyMs: number;
  readonly effect: FaultRule | undefined;
}

interface ActiveRule {
  readonly rule: FaultRule;
  readonly operations: ReadonlySet<string> | undefined;
  remaining: number | undefined;
  readonly random: () => number;
}

/** mulberry32: a tiny seeded generator, so a `rate` fires on the same requests every run. */
function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

const hasEffect = (rule: FaultRule) =>
  FAULT_EFFECT_FIELDS.some((field) => rule[field] !== undefined && rule[field] !== false);

/** Holds the fault rules (already checked) and decides, per request, which of them fire. */
export class FaultInjector {
  #rules: ActiveRule[] = [];

  constructor(rules: readonly FaultRule[] = []) {
    this.set(rules);
  }

  /** True when any rule is set: the request path skips all fault work otherwise. */
  get active(): boolean {
    return this.#rules.length > 0;
  }

  set(rules: readonly FaultRule[]): void {
    this.#rules = rules.map((rule) => {
      const names = rule.operation ?? ALL_OPERATIONS;
      const operations =
        names === ALL_OPERATIONS ? undefined : new Set<string>(typeof names === 'string' ? [names] : names);
      return { rule, operations, remaining: rule.times, random: seeded(rule.seed ?? 1) };
    });
  }

  /** The rules as set, with `times` counting down what is left of each. */
  list(): FaultRule[] {
    return this.#rules.map(({ rule, remaining }) =>
      remaining === undefined ? rule : { ...rule, times: remaining },
    );
  }

  /** Which faults hit a request for `operation` (undefined: a path that names no operation). */
  decide(operation: OperationName | undefined): FaultDecision | undefined {
    let latencyMs = 0;
    let effect: FaultRule | undefined;
    let fired = false;
    for (const active of this.#rules) {
      if (active.operations !== undefined && (operation === undefined || !active.operations.has(operation)))
        continue;
      if (active.remaining === 0) continue;
      const rate = active.rule.rate ?? 1;
      if (rate < 1 && active.random() >= rate) continue;
      if (active.remaining !== undefined) active.remaining--;
      fired = true;
      latencyMs += active.rule.latencyMs ?? 0;
      if (effect === undefined && hasEffect(active.rule)) effect = active.rule;
    }
    return fired ? { latencyMs, effect } : undefined;
  }
}

interface FaultBodies {
  /** A plausible answer, cut short by `truncate`. */
  readonly plausible: string;
  /** Valid JSON that breaks the operation's response schema. */
  readonly broken: unknown;
  readonly status: number;
}

const SUMMARY =
  '{"id":1000001,"number":"DDB1000001","status":"completed","date":"2024-03-14T10:00:00+01:00","uuid":null}';
const LIST: FaultBodies = {
  plausible: `{"count":2,"orders":[${SUMMARY},${SUMMARY}]}`,
  broken: { count: 'two', orders: [{ id: 'DDB1000001', status: 'shipped-ish' }] },
  status: 200,
};
const DETAIL: FaultBodies = {
  plausible: `{"id":1000001,"number":"DDB1000001","status":"in-progress","date":"2024-03-14T10:00:00+01:00","lines":[],"deliveryAddress":4100000,"reference":null,"poNumber":null,"vatAmount":0,"uuid":null,"total":0}`,
  broken: { id: 'not-a-number', number: 1000001, status: 'teleported', lines: 'none' },
  status: 200,
};
const BY_OPERATION: Readonly<Record<OperationName, FaultBodies>> = {
  listOrders: LIST,
  getOrder: DETAIL,
  updateOrder: DETAIL,
  updateOrderWithPost: DETAIL,
  createOrder: {
    plausible: '{"uuid":"5eed0000-0000-4000-8000-000000000001"}',
    broken: { uuid: 12345 },
    status: 201,
  },
  cancelOrder: { plausible: '{"success":true}', broken: { success: 'yes' }, status: 200 },
};

const HTML =
  '<!DOCTYPE html><html><head><title>Maintenance</title></head><body><h1>We are back soon</h1></body></html>';

/** Carries out a rule's effect on a request for `operation` (undefined: a path with no route). */
export function applyFault(
  rule: FaultRule,
  operation: OperationName | undefined,
  req: IncomingMessage,
  res: ServerResponse,
): void {
  const bodies = operation === undefined ? LIST : BY_OPERATION[operation];
  if (rule.status !== undefined) {
    const headers =
      rule.retryAfterSeconds === undefined ? undefined : { 'retry-after': String(rule.retryAfterSeconds) };
    send(res, jsonAnswer(rule.status, { message: `Injected fault: status ${rule.status}` }, headers));
  } else if (rule.drop) {
    req.socket.destroy();
  } else if (rule.truncate) {
    res.writeHead(bodies.status, {
      'content-type': JSON_TYPE,
      'content-length': Buffer.byteLength(bodies.plausible),
    });
    // Close once the partial body is on the wire, so the client sees a short body, not a hang.
    res.write(bodies.plausible.slice(0, Math.floor(bodies.plausible.length / 2)), () => res.socket?.end());
  } else if (rule.nonJson) {
    res.writeHead(200, {
      'content-type': 'text/html; charset=utf-8',
      'content-length': Buffer.byteLength(HTML),
    });
    res.end(HTML);
  } else {
    send(res, jsonAnswer(bodies.status, bodies.broken));
  }
}
