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

// Only what the comparison reads: a report of any later version of the kit still serves.
const baselineSchema = z.object({
  tool: z.literal('@print-contracts/verifier'),
  startedAt: z.string(),
  byVersion: z.record(z.string(), z.unknown()),
  interactions: z.array(
    z
      .object({
        key: z.string().optional(),
        version: z.string(),
        consumer: z.string(),
        description: z.string(),
        states: z.string(),
        verdict: z.string(),
      })
      .transform(({ key, version, description, verdict, ...named }) => ({
        key: key ?? interactionKey({ version, description, ...named }),
        version,
        description,
        verdict,
      })),
  ),
  drift: z.unknown().optional(),
});

/** The fields that name a drift finding across runs; a finding of an earlier report without them is left out. */
const earlierFindingSchema = z.looseObject({
  kind: z.string(),
  operation: z.string(),
  version: z.string(),
  status: z.number(),
  path: z.string(),
});

const isPattern = (text: string) => {
  try {
    new RegExp(text);
    return true;
  } catch {
    return false;
  }
};

const knownFindingsSchema = z.strictObject({
  $comment: z.string().optional(),
  findings: z.array(
    z
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
          .pipe(z.iso.date('must be a real date')),
      })
      .refine((entry) => (entry.interaction === undefined) !== (entry.interactionPattern === undefined), {
        message: 'must name the interaction by exactly one of interaction or interactionPattern',
      })
      .transform(({ version, interaction, interactionPattern, reason, expires }) => ({
        version,
        interaction: interaction ?? interactionPattern ?? '',
        pattern: interactionPattern !== undefined,
        reason,
        expires,
      })),
  ),
});

/** What each file is, and how to fix it, for the one-line `UsageError` that refuses it. */
const BASELINE = {
  schema: baselineSchema,
  what: 'a pnpm verify JSON report',
  fix: 'give the verify-report.json an earlier run wrote (reports/verify-report.json)',
};
const KNOWN = {
  schema: knownFindingsSchema,
  what: 'a known-findings file',
  fix: 'fix it as contracts/known-findings/README.md shows',
};

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

/** The JSON file `path` checked by `kind.schema`, or a one-line `UsageError` naming the flag and the fix. */
function readJson<T extends object>(
  { schema, what, fix }: { schema: z.ZodType<T, unknown>; what: string; fix: string },
  flag: string,
  path: string,
  cwd: string,
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
  if (parsed.success) return { file, ...parsed.data };
  const [issue] = parsed.error.issues;
  const where = formatPath(issue?.path ?? []);
  throw new UsageError(
    `${flag} ${file} is not ${what}: ${where ? `${where} ` : ''}${issue?.message ?? 'is invalid'}; ${fix}`,
  );
}

/** Reads `--baseline`: an earlier run's JSON report. */
export function readBaseline(path: string, cwd: string): Baseline {
  const { file, startedAt, interactions, drift } = readJson(BASELINE, '--baseline', path, cwd);
  return { file, startedAt, verdicts: interactions, drift: earlierDriftFindings({ drift }) };
}

/** The drift findings an earlier JSON report holds (`drift.findings`); none when it has no drift section. */
export function earlierDriftFindings(earlierReport: unknown): DriftFinding[] {
  const findings = z.object({ drift: z.object({ findings: z.array(z.unknown()) }) }).safeParse(earlierReport)
    .data?.drift.findings;
  return (findings ?? []).filter(
    (finding): finding is DriftFinding => earlierFindingSchema.safeParse(finding).success,
  );
}

/** Reads the known findings (`--known-findings`, or the committed default). */
export function readKnownFindings(path: string, cwd: string, flag = '--known-findings'): KnownFindings {
  const { file, findings } = readJson(KNOWN, flag, path, cwd);
  return { file, findings };
}
