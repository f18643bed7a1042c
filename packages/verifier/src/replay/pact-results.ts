import { z } from 'zod';

// biome-ignore lint/suspicious/noControlCharactersInRegex: ANSI colour codes start with the ESC character.
const ANSI_CODES = /\u001b\[[0-9;]*m/g;

/** Text without ANSI colour codes (Pact colours its output). */
export const stripAnsi = (text: string) => text.replace(ANSI_CODES, '');

/** The part of the JSON result of Pact's verifier (pact_ffi `pactffi_verifier_json`) the run reads. */
const mismatchSchema = z
  .object({
    type: z.string().optional(),
    mismatch: z.string().optional(),
    path: z.string().optional(),
    key: z.string().optional(),
    parameter: z.string().optional(),
  })
  .loose();

const errorSchema = z.object({
  interaction: z.string(),
  mismatch: z
    .object({
      type: z.string().optional(),
      message: z.string().optional(),
      mismatches: z.array(mismatchSchema).optional(),
    })
    .loose(),
});

export const pactResultSchema = z.object({
  result: z.boolean(),
  interactionResults: z
    .array(
      z.object({
        description: z.string(),
        interactionKey: z.string().optional(),
        duration: z.string().optional(),
        result: z.string(),
      }),
    )
    .default([]),
  errors: z.array(errorSchema).default([]),
  /** Failures of pending pacts or interactions (broker feature), reported apart by Pact. */
  pendingErrors: z.array(errorSchema).default([]),
  output: z.array(z.string()).default([]),
});

export type PactResult = z.infer<typeof pactResultSchema>;

/** One interaction's verdict, as Pact gave it. */
export interface PactVerdict {
  readonly passed: boolean;
  /** Shortened mismatches (or the error) when it failed. */
  readonly mismatches: readonly string[];
  readonly ms: number | undefined;
}

const MAX_MISMATCH_CHARS = 200;
const MAX_MISMATCHES = 4;

const UNIT_MS: Readonly<Record<string, number>> = { h: 3_600_000, m: 60_000, s: 1_000, ms: 1 };

/** `1s 5ms` (humantime) in milliseconds; units below a millisecond count as 0. */
export function parseDuration(text: string | undefined): number | undefined {
  if (!text) return undefined;
  let ms = 0;
  for (const [, amount, unit] of text.matchAll(/(\d+)\s*(ms|us|µs|ns|s|m|h)\b/g)) {
    ms += Number(amount) * (UNIT_MS[unit as string] ?? 0);
  }
  return ms;
}

const clip = (text: string) => {
  const flat = stripAnsi(text).replace(/\s+/g, ' ').trim();
  return flat.length > MAX_MISMATCH_CHARS ? `${flat.slice(0, MAX_MISMATCH_CHARS - 1)}…` : flat;
};

function describeMismatch(mismatch: z.infer<typeof mismatchSchema>): string {
  const text = mismatch.mismatch ?? `${mismatch.type ?? 'Mismatch'}`;
  switch (mismatch.type) {
    case 'StatusMismatch':
      return `status: ${text}`;
    case 'HeaderMismatch':
      return `header ${mismatch.key ?? ''}: ${text}`;
    case 'QueryMismatch':
      return `query ${mismatch.parameter ?? ''}: ${text}`;
    case 'BodyMismatch':
      return `body ${mismatch.path ?? '$'}: ${text}`;
    case 'BodyTypeMismatch':
      return `body: ${text}`;
    default:
      return text;
  }
}

const RANK = [
  'StatusMismatch',
  'MethodMismatch',
  'PathMismatch',
  'QueryMismatch',
  'HeaderMismatch',
  'BodyTypeMismatch',
  'BodyMismatch',
];
const rank = (type: string | undefined) => {
  const index = RANK.indexOf(type ?? '');
  return index < 0 ? RANK.length : index;
};

/** Pact's mismatches for one failed interaction, shortened for a report line. */
export function shortenMismatches(error: z.infer<typeof errorSchema>['mismatch']): string[] {
  if (error.mismatches && error.mismatches.length > 0) {
    // The status says most about what changed; then headers, then the body.
    const ordered = [...error.mismatches].sort((a, b) => rank(a.type) - rank(b.type));
    const lines = ordered.slice(0, MAX_MISMATCHES).map((mismatch) => clip(describeMismatch(mismatch)));
    const more = error.mismatches.length - MAX_MISMATCHES;
    return more > 0 ? [...lines, `(+${more} more)`] : lines;
  }
  return [clip(error.message ?? 'Pact reported a failure without details')];
}

/**
 * Pairs Pact's results with the interactions it was given, position by position (it reports
 * in file order); descriptions and V4 keys must agree, or the mapping is refused, not guessed.
 */
export function verdictsFrom(
  result: PactResult,
  expected: readonly { readonly description: string; readonly key: string | undefined }[],
): PactVerdict[] | string {
  const { interactionResults } = result;
  // Pact lists failures in result order, pending ones apart; each names its interaction last.
  const queues = [[...result.errors], [...result.pendingErrors]];
  const takeError = (description: string) => {
    for (const queue of queues) {
      const index = queue.findIndex((error) => error.interaction.endsWith(` - ${description}`));
      if (index >= 0) return queue.splice(index, 1)[0];
    }
    return undefined;
  };
  if (interactionResults.length !== expected.length) {
    return `Pact reported ${interactionResults.length} results for ${expected.length} interactions`;
  }
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
    const error = takeError(item.description);
    verdicts.push({
      passed: false,
      mismatches: error ? shortenMismatches(error.mismatch) : ['Pact reported a failure without details'],
      ms,
    });
  }
  return verdicts;
}
