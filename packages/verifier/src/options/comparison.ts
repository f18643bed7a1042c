import { existsSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { API_VERSIONS, formatPath } from '@print-contracts/client';
import { z } from 'zod';
import {
  type Baseline,
  type ComparisonInputs,
  interactionKey,
  type KnownFindings,
} from '../compare/compare.js';
import type { DriftFinding } from '../drift/observe-drift.js';
import { UsageError } from '../errors/index.js';
import { defaultContractsDir, readFlagFile } from './paths.js';

const BASELINE_FIX = 'give the verify-report.json an earlier run wrote (reports/verify-report.json)';
const KNOWN_FIX = 'fix it as contracts/known-findings/README.md shows';

// Only what the comparison reads: a report of any later version of the kit still serves.
const baselineSchema = z.object({
  tool: z.literal('@print-contracts/verifier'),
  startedAt: z.string(),
  byVersion: z.record(z.string(), z.unknown()),
  interactions: z.array(
    z.object({
      key: z.string().optional(),
      version: z.string(),
      consumer: z.string(),
      description: z.string(),
      states: z.string(),
      verdict: z.string(),
    }),
  ),
});

/** The fields that name a drift finding across runs; a finding of an earlier report without them is left out. */
const earlierFindingSchema = z.looseObject({
  kind: z.string(),
  operation: z.string(),
  version: z.string(),
  status: z.number(),
  path: z.string(),
});
const earlierDriftSchema = z.object({ drift: z.object({ findings: z.array(z.unknown()) }) });

const isDay = (text: string) => {
  const time = Date.parse(`${text}T00:00:00Z`);
  return !Number.isNaN(time) && new Date(time).toISOString().startsWith(text);
};

const isPattern = (text: string) => {
  try {
    new RegExp(text);
    return true;
  } catch {
    return false;
  }
};

const findingSchema = z
  .strictObject({
    version: z.enum(API_VERSIONS),
    interaction: z.string().min(1, 'must not be empty').optional(),
    interactionPattern: z
      .string()
      .min(1, 'must not be empty')
      .refine(isPattern, 'must be a valid regular expression')
      .optional(),
    reason: z.string().trim().min(1, 'must say why the finding is known'),
    expires: z
      .string()
      .regex(/^\d{4}-\d{2}-\d{2}$/, 'must be a date written YYYY-MM-DD')
      .refine(isDay, 'must be a real date'),
  })
  .refine((entry) => (entry.interaction === undefined) !== (entry.interactionPattern === undefined), {
    message: 'must name the interaction by exactly one of interaction or interactionPattern',
  });

const knownFindingsSchema = z.strictObject({
  $comment: z.string().optional(),
  findings: z.array(findingSchema),
});

/** `--baseline` and `--known-findings` (or the committed default), read and checked before the run starts. */
export function comparisonInputs(
  flags: { readonly baseline?: string | undefined; readonly 'known-findings'?: string | undefined },
  cwd: string,
): ComparisonInputs {
  // Read when present and no --known-findings names another file.
  const committed = join(defaultContractsDir(cwd), 'known-findings', 'known-findings.json');
  const known = flags['known-findings'];
  return {
    baseline: flags.baseline === undefined ? undefined : readBaseline(flags.baseline, cwd),
    knownFindings:
      known !== undefined
        ? readKnownFindings(known, cwd)
        : existsSync(committed)
          ? readKnownFindings(committed, cwd, 'the known findings')
          : undefined,
  };
}

/** The JSON file `path` checked by `schema`, or a one-line `UsageError` naming the flag and the fix. */
function readJson<T>(
  schema: z.ZodType<T>,
  flag: string,
  path: string,
  cwd: string,
  what: string,
  fix: string,
) {
  const near = relative(cwd, resolve(cwd, path));
  const file = near && !near.startsWith('..') ? near : resolve(cwd, path);
  const text = readFlagFile(flag, file, cwd, fix);
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new UsageError(`${flag} ${file} is not JSON; ${fix}`);
  }
  const parsed = schema.safeParse(json);
  if (parsed.success) return { file, json, data: parsed.data };
  const [issue] = parsed.error.issues;
  const where = formatPath(issue?.path ?? []);
  throw new UsageError(
    `${flag} ${file} is not ${what}: ${where ? `${where} ` : ''}${issue?.message ?? 'is invalid'}; ${fix}`,
  );
}

/** Reads `--baseline`: an earlier run's JSON report. */
export function readBaseline(path: string, cwd: string): Baseline {
  const { file, json, data } = readJson(
    baselineSchema,
    '--baseline',
    path,
    cwd,
    'a pnpm verify JSON report',
    BASELINE_FIX,
  );
  return {
    file,
    startedAt: data.startedAt,
    verdicts: data.interactions.map((item) => ({
      key: item.key ?? interactionKey(item),
      version: item.version,
      description: item.description,
      verdict: item.verdict,
    })),
    drift: earlierDriftFindings(json),
  };
}

/** The drift findings an earlier JSON report holds (`drift.findings`); none when it has no drift section. */
export function earlierDriftFindings(earlierReport: unknown): DriftFinding[] {
  const parsed = earlierDriftSchema.safeParse(earlierReport);
  if (!parsed.success) return [];
  return parsed.data.drift.findings.filter(
    (finding): finding is DriftFinding => earlierFindingSchema.safeParse(finding).success,
  );
}

/** Reads the known findings (`--known-findings`, or the committed default). */
export function readKnownFindings(path: string, cwd: string, flag = '--known-findings'): KnownFindings {
  const { file, data } = readJson(knownFindingsSchema, flag, path, cwd, 'a known-findings file', KNOWN_FIX);
  return {
    file,
    findings: data.findings.map((entry) => ({
      version: entry.version,
      interaction: entry.interaction ?? entry.interactionPattern ?? '',
      pattern: entry.interactionPattern !== undefined,
      reason: entry.reason,
      expires: entry.expires,
    })),
  };
}
