import { z } from 'zod';

// biome-ignore lint/suspicious/noControlCharactersInRegex: ANSI colour codes start with the ESC character.
const ANSI_CODES = /\u001b\[[0-9;]*m/g;

/** Text without ANSI colour codes (Pact colours its output). */
export const stripAnsi = (text: string) => text.replace(ANSI_CODES, '');

const text = z.string().optional();
const mismatchSchema = z
  .object({ type: text, mismatch: text, path: text, key: text, parameter: text })
  .loose();
type Mismatch = z.infer<typeof mismatchSchema>;
const errorSchema = z.object({
  interaction: z.string(),
  mismatch: z.object({ type: text, message: text, mismatches: z.array(mismatchSchema).optional() }).loose(),
});

/** The part of the JSON result of Pact's verifier (pact_ffi `pactffi_verifier_json`) the run reads. */
export const pactResultSchema = z.object({
  result: z.boolean(),
  interactionResults: z
    .array(z.object({ description: z.string(), interactionKey: text, duration: text, result: z.string() }))
    .default([]),
  errors: z.array(errorSchema).default([]),
  /** Failures of pending pacts or interactions (broker feature), reported apart by Pact. */
  pendingErrors: z.array(errorSchema).default([]),
  output: z.array(z.string()).default([]),
});

/** One interaction's verdict, as Pact gave it; shortened mismatches (or the error) when it failed. */
export interface PactVerdict {
  readonly passed: boolean;
  readonly mismatches: readonly string[];
  readonly ms: number | undefined;
}

const MAX_MISMATCH_CHARS = 200;
const MAX_MISMATCHES = 4;
const NO_DETAILS = 'Pact reported a failure without details';

const UNIT_MS: Readonly<Record<string, number>> = { h: 3_600_000, m: 60_000, s: 1_000, ms: 1 };

/**
 * A duration of Pact's in whole milliseconds: `1s 5ms` (humantime) or `4.394s` (as Rust prints a
 * `Duration`, which the verifier's JSON result does); units below a millisecond count as 0.
 */
export function parseDuration(text: string | undefined): number | undefined {
  if (!text) return undefined;
  let ms = 0;
  for (const [, amount, unit] of text.matchAll(/(\d+(?:\.\d+)?)\s*(ms|us|µs|ns|s|m|h)\b/g)) {
    ms += Number(amount) * (UNIT_MS[unit as string] ?? 0);
  }
  return Math.round(ms);
}

const clip = (text: string) => {
  const flat = stripAnsi(text).replace(/\s+/g, ' ').trim();
  return flat.length > MAX_MISMATCH_CHARS ? `${flat.slice(0, MAX_MISMATCH_CHARS - 1)}…` : flat;
};

/** Mismatch types, most telling first (the status says most about what changed), with their labels. */
const MISMATCH_KINDS: readonly (readonly [type: string, label?: (mismatch: Mismatch) => string])[] = [
  ['StatusMismatch', () => 'status'],
  ['MethodMismatch'],
  ['PathMismatch'],
  ['QueryMismatch', (mismatch) => `query ${mismatch.parameter ?? ''}`],
  ['HeaderMismatch', (mismatch) => `header ${mismatch.key ?? ''}`],
  ['BodyTypeMismatch', () => 'body'],
  ['BodyMismatch', (mismatch) => `body ${mismatch.path ?? '$'}`],
];
const rank = (mismatch: Mismatch) => {
  const index = MISMATCH_KINDS.findIndex(([type]) => type === mismatch.type);
  return index < 0 ? MISMATCH_KINDS.length : index;
};

/** Pact's mismatches for one failed interaction, shortened for a report line. */
function shortenMismatches(error: z.infer<typeof errorSchema>['mismatch']): string[] {
  const mismatches = error.mismatches ?? [];
  if (mismatches.length === 0) return [clip(error.message ?? NO_DETAILS)];
  const ordered = [...mismatches].sort((a, b) => rank(a) - rank(b));
  const lines = ordered.slice(0, MAX_MISMATCHES).map((mismatch) => {
    const text = mismatch.mismatch ?? mismatch.type ?? 'Mismatch';
    const label = MISMATCH_KINDS[rank(mismatch)]?.[1]?.(mismatch);
    return clip(label === undefined ? text : `${label}: ${text}`);
  });
  const more = mismatches.length - MAX_MISMATCHES;
  return more > 0 ? [...lines, `(+${more} more)`] : lines;
}

/**
 * Pairs Pact's results with the interactions it was given, position by position (it reports in
 * file order); descriptions and V4 keys must agree, or the mapping is refused, not guessed.
 */
export function verdictsFrom(
  result: z.infer<typeof pactResultSchema>,
  expected: readonly { readonly description: string; readonly key: string | undefined }[],
): PactVerdict[] | string {
  const { interactionResults } = result;
  if (interactionResults.length !== expected.length) {
    return `Pact reported ${interactionResults.length} results for ${expected.length} interactions`;
  }
  // Failures come in result order, pending ones after; each names its interaction last.
  const errors = [...result.errors, ...result.pendingErrors];
  const verdicts: PactVerdict[] = [];
  for (const [index, item] of interactionResults.entries()) {
    const wanted = expected[index] as (typeof expected)[number];
    if (
      item.description !== wanted.description ||
      (item.interactionKey && wanted.key && item.interactionKey !== wanted.key)
    ) {
      return `Pact's result ${index + 1} is "${item.description}", expected "${wanted.description}"`;
    }
    const ms = parseDuration(item.duration);
    if (item.result === 'OK') {
      verdicts.push({ passed: true, mismatches: [], ms });
      continue;
    }
    const found = errors.findIndex((error) => error.interaction.endsWith(` - ${item.description}`));
    const [error] = found < 0 ? [] : errors.splice(found, 1);
    const mismatches = error ? shortenMismatches(error.mismatch) : [NO_DETAILS];
    verdicts.push({ passed: false, mismatches, ms });
  }
  return verdicts;
}
