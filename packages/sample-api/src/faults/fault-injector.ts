import type { OperationName } from '@print-contracts/client';
import { ALL_OPERATIONS, type FaultRule } from './fault-rule.js';

/** What a firing rule does instead of (or after) the normal answer. */
export type FaultEffect =
  | { readonly kind: 'status'; readonly status: number; readonly retryAfterSeconds: number | undefined }
  | { readonly kind: 'drop' }
  | { readonly kind: 'truncate' }
  | { readonly kind: 'nonJson' }
  | { readonly kind: 'badSchema' };

/** The sum of the firing rules' latencies and the effect of the first firing rule that has one. */
export interface FaultDecision {
  readonly latencyMs: number;
  readonly effect: FaultEffect | undefined;
}

interface ActiveRule {
  readonly rule: FaultRule;
  readonly operations: ReadonlySet<string> | undefined;
  readonly effect: FaultEffect | undefined;
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

function effectOf(rule: FaultRule): FaultEffect | undefined {
  if (rule.status !== undefined) {
    return { kind: 'status', status: rule.status, retryAfterSeconds: rule.retryAfterSeconds };
  }
  if (rule.drop) return { kind: 'drop' };
  if (rule.truncate) return { kind: 'truncate' };
  if (rule.nonJson) return { kind: 'nonJson' };
  if (rule.badSchema) return { kind: 'badSchema' };
  return undefined;
}

/** Holds the fault rules (already checked) and decides, per request, which of them fire. */
export class FaultInjector {
  #rules: ActiveRule[] = [];

  constructor(rules: readonly FaultRule[] = []) {
    this.set(rules);
  }

  /** True when any rule can still fire: the request path skips all fault work otherwise. */
  get active(): boolean {
    return this.#rules.length > 0;
  }

  set(rules: readonly FaultRule[]): void {
    this.#rules = rules.map((rule) => {
      const names = rule.operation;
      const operations =
        names === undefined || names === ALL_OPERATIONS
          ? undefined
          : new Set<string>(typeof names === 'string' ? [names] : names);
      return {
        rule,
        operations,
        effect: effectOf(rule),
        remaining: rule.times,
        random: seeded(rule.seed ?? 1),
      };
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
    let effect: FaultEffect | undefined;
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
      effect ??= active.effect;
    }
    return fired ? { latencyMs, effect } : undefined;
  }
}
