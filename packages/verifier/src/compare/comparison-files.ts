import { readFileSync } from 'node:fs';
import { relative, resolve } from 'node:path';
import { API_VERSIONS, formatPath } from '@print-contracts/client';
import { z } from 'zod';
import { earlierDriftFindings } from '../drift/baseline.js';
import type { DriftFinding } from '../drift/observe-drift.js';
import { UsageError } from '../errors/index.js';
import { interactionKey } from './interaction-key.js';

/** One interaction × version of the baseline: its key and the verdict it had. */
export interface BaselineVerdict {
  readonly key: string;
  readonly version: string;
  readonly description: string;
  readonly verdict: string;
}

export interface Baseline {
  /** The file as the user named it. */
  readonly file: string;
  readonly startedAt: string;
  readonly versions: readonly string[];
  readonly verdicts: readonly BaselineVerdict[];
  /** The earlier run's drift findings, for marking this run's new ones. */
  readonly drift: readonly DriftFinding[];
}

/** One acknowledgement of a known finding, as committed. */
export interface KnownFinding {
  readonly version: (typeof API_VERSIONS)[number];
  /** The exact description, or (`pattern`) a regular expression it must match. */
  readonly interaction: string;
  readonly pattern: boolean;
  readonly reason: string;
  /** `YYYY-MM-DD`: the last day it excuses (UTC). */
  readonly expires: string;
}

export interface KnownFindings {
  readonly file: string;
  readonly findings: readonly KnownFinding[];
}

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

/** The text of `path`, or a one-line `UsageError` naming the flag and the fix. */
function readText(flag: string, path: string, file: string, fix: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch (error) {
    throw new UsageError(
      `${flag} ${file} cannot be read (${(error as NodeJS.ErrnoException).code ?? 'error'}); ${fix}`,
    );
  }
}

function parseWith<T>(
  schema: z.ZodType<T>,
  flag: string,
  file: string,
  text: string,
  what: string,
  fix: string,
): T {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new UsageError(`${flag} ${file} is not JSON; ${fix}`);
  }
  const parsed = schema.safeParse(json);
  if (parsed.success) return parsed.data;
  const [issue] = parsed.error.issues;
  const where = formatPath(issue?.path ?? []);
  throw new UsageError(
    `${flag} ${file} is not ${what}: ${where ? `${where} ` : ''}${issue?.message ?? 'is invalid'}; ${fix}`,
  );
}

const label = (path: string, cwd: string) => {
  const near = relative(cwd, path);
  return near && !near.startsWith('..') ? near : path;
};

/** Reads `--baseline`: an earlier run's JSON report. */
export function readBaseline(path: string, cwd: string): Baseline {
  const absolute = resolve(cwd, path);
  const file = label(absolute, cwd);
  const text = readText('--baseline', absolute, file, BASELINE_FIX);
  const report = parseWith(
    baselineSchema,
    '--baseline',
    file,
    text,
    'a pnpm verify JSON report',
    BASELINE_FIX,
  );
  return {
    file,
    startedAt: report.startedAt,
    versions: Object.keys(report.byVersion),
    verdicts: report.interactions.map((item) => ({
      key: item.key ?? interactionKey(item),
      version: item.version,
      description: item.description,
      verdict: item.verdict,
    })),
    drift: earlierDriftFindings(JSON.parse(text)),
  };
}

/** Reads the known findings (`--known-findings`, or the committed default). */
export function readKnownFindings(path: string, cwd: string, flag = '--known-findings'): KnownFindings {
  const absolute = resolve(cwd, path);
  const file = label(absolute, cwd);
  const text = readText(flag, absolute, file, KNOWN_FIX);
  const { findings } = parseWith(knownFindingsSchema, flag, file, text, 'a known-findings file', KNOWN_FIX);
  return {
    file,
    findings: findings.map((entry) => ({
      version: entry.version,
      interaction: entry.interaction ?? entry.interactionPattern ?? '',
      pattern: entry.interactionPattern !== undefined,
      reason: entry.reason,
      expires: entry.expires,
    })),
  };
}
