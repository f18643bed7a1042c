import { redact } from '@print-contracts/client/kit';
import type { DriftReport } from '../drift/observe-drift.js';
import { EXIT_CODES } from '../exit-codes.js';
import type { VerifyOptions } from '../options/verify-options.js';
import { type Plan, VERDICT_WORDS } from '../plan/plan.js';
import type { Target } from '../target/target.js';
import {
  changeSections,
  changesHeadline,
  DRIFT_HEADING,
  failedWithoutBreak,
  type InteractionReport,
  LISTED,
  LOOKS,
  matrixRows,
  printable,
  type RunReport,
  retriesText,
  teardownText,
  versionsOf,
  withVerdict,
} from './model.js';

/** Where the console reporter writes: `process.stdout`, or a buffer in tests; `isTTY` asks for colour. */
export interface TextSink {
  write(text: string): unknown;
  readonly isTTY?: boolean;
}

interface ConsoleOptions {
  /**
   * How much the console says: `quiet` the matrix and the summary; `normal` also a line per
   * interaction as it finishes and the waits; `verbose` also every state, request and teardown step.
   */
  readonly detail: 'quiet' | 'normal' | 'verbose';
  readonly secrets: readonly string[];
  /** ANSI colour (a terminal without `NO_COLOR`); see `wantsColour`. */
  readonly colour?: boolean;
}

/** The few styles the console uses; plain ANSI codes (SGR), no dependency. */
const CODES = {
  green: [32, 39],
  red: [31, 39],
  yellow: [33, 39],
  dim: [2, 22],
  bold: [1, 22],
} as const;

type Style = keyof typeof CODES;

/**
 * Colour on a terminal only: never when the stream is piped or a file, nor when `NO_COLOR` is set
 * to anything but the empty string (https://no-color.org).
 */
export function wantsColour(
  stream: { readonly isTTY?: boolean },
  env: Readonly<Record<string, string | undefined>>,
) {
  return stream.isTTY === true && !env.NO_COLOR;
}

/** `text` in `style` when `colour`, else as it is. */
const paint = (colour: boolean, style: Style | undefined, text: string) =>
  colour && style && text ? `\u001b[${CODES[style][0]}m${text}\u001b[${CODES[style][1]}m` : text;

/** The console's drift section: one line per finding; they inform, and fail a run only with `--fail-on-drift`. */
export function driftConsoleLines(drift: DriftReport | undefined): string[] {
  if (!drift) return [];
  if (drift.documents === undefined)
    return ['', `${DRIFT_HEADING}: not checked (no OpenAPI documents; see --openapi)`];
  const gone = (drift.disappeared ?? []).map((finding) => `  gone since the baseline: ${finding.text}`);
  if (drift.findings.length === 0) {
    return [
      '',
      `${DRIFT_HEADING}: none in ${drift.compared} answers compared with ${drift.documents}`,
      ...gone,
    ];
  }
  return [
    '',
    `${DRIFT_HEADING} (${drift.findings.length} in ${drift.compared} answers compared with ${drift.documents}):`,
    ...drift.findings.map((finding) => `  ${finding.change === 'new' ? 'new: ' : ''}${finding.text}`),
    ...gone,
  ];
}

const MAX_LABEL = 64;
/** Reasons can be long (a schema's every complaint); the JSON report keeps them whole. */
const MAX_REASON = 240;
const GAP = '  ';
const clip = (text: string, width: number) => (text.length > width ? `${text.slice(0, width - 1)}…` : text);
const reason = (item: { reason?: string | undefined }) => clip(item.reason ?? '', MAX_REASON);

/** A piece of a line: text from anywhere (made safe), in a style when the console has colour. */
type Part = string | readonly [text: string, style: Style | undefined];

/**
 * Console output of a run: a line per interaction as it finishes, then the matrix and the summary.
 * Every line is redacted and its control characters made visible, so no secret and no forged
 * escape reaches the console; colour is added after that, by the reporter only.
 */
export class ConsoleReporter {
  readonly #out: TextSink;
  readonly #options: ConsoleOptions;

  constructor(out: TextSink, options: ConsoleOptions) {
    this.#out = out;
    this.#options = options;
  }

  #line(...parts: Part[]): void {
    const { secrets, colour = false } = this.#options;
    const text = parts
      .map((part) => {
        const [raw, style] = typeof part === 'string' ? [part, undefined] : part;
        return paint(colour, style, printable(redact(raw, secrets)));
      })
      .join('');
    this.#out.write(`${text}\n`);
  }

  /** A line that always prints: secrets redacted, control characters made visible. */
  say(text: string): void {
    this.#line(text);
  }

  /** A line a user needs during a long run (a wait, what the run is about to do); left out with `--quiet`. */
  progress(text: string): void {
    if (this.#options.detail !== 'quiet') this.say(text);
  }

  /** A step of the run (a state arranged, a request replayed, teardown); only with `--verbose`. */
  detail(text: string): void {
    if (this.#options.detail === 'verbose') this.say(text);
  }

  /** One interaction as it finishes: mark, version, description, time, and why when not verified. */
  verdict(item: Pick<InteractionReport, 'version' | 'description' | 'verdict' | 'ms' | 'reason'>): void {
    if (this.#options.detail === 'quiet') return;
    const time = item.ms === undefined ? '' : ` (${item.ms} ms)`;
    const why = item.verdict === 'verified' ? '' : ` — ${reason(item)}`;
    const word = item.verdict === 'verified' ? '' : ` ${VERDICT_WORDS[item.verdict]}`;
    this.#line(
      '  ',
      [LOOKS[item.verdict].mark, LOOKS[item.verdict].style],
      ` ${item.version} ${item.description}`,
      [word, LOOKS[item.verdict].style],
      [time, 'dim'],
      why,
    );
  }

  /** What the run is about to verify: one line, or with `--verbose` the pacts, the plan and the orders. */
  announce(target: Target, plan: Plan, options: Pick<VerifyOptions, 'apiVersions' | 'orderBodies'>): void {
    const where =
      target.kind === 'embedded'
        ? `the embedded sample API at ${target.baseUrl}`
        : `${target.baseUrl} (mode ${target.mode})`;
    const versions = [...new Set(plan.interactions.map((item) => item.version))]
      .map((version) => `${version} ${plan.interactions.filter((item) => item.version === version).length}`)
      .join(', ');
    const count = plan.interactions.length;
    this.progress(
      `Verifying ${where}, control surface ${target.controlOrigin ? 'on' : 'off'}: ${count} interaction${count === 1 ? '' : 's'} (${versions})`,
    );
    for (const { label, consumer, provider, interactions } of plan.pacts) {
      this.detail(`  pact ${label}: ${consumer} → ${provider}, ${interactions.length} interactions`);
    }
    const decided = plan.interactions.filter((item) => item.decided).length;
    this.detail(
      `Plan: ${count - decided} to replay, ${decided} decided without replay, ${plan.fixtures.length} states to arrange`,
    );
    for (const version of options.apiVersions) {
      this.detail(`  orders it creates in ${version}: ${options.orderBodies.source[version]}`);
    }
  }

  /** The changes since the baseline, the matrix interaction × version, failures and reasons, then totals. */
  results(report: RunReport): void {
    this.#changes(report);
    this.#matrix(report);
    const failed = withVerdict(report, 'failed');
    if (failed.length > 0) {
      this.say('');
      this.#line(['Failures:', 'bold']);
      for (const item of failed) {
        this.say(`  ${item.version} ${item.description} — ${item.request}`);
        this.say(`      ${reason(item)}`);
        for (const mismatch of item.mismatches) if (mismatch !== item.reason) this.say(`      ${mismatch}`);
      }
    }
    for (const { verdict, title, why } of LISTED) {
      const items = withVerdict(report, verdict);
      if (items.length === 0) continue;
      this.say('');
      this.#line([
        `${title}${verdict === 'not-verifiable' && report.strict ? ' (failures under --strict)' : why}:`,
        'bold',
      ]);
      for (const item of items) this.say(`  ${item.version} ${item.description} — ${reason(item)}`);
    }
    if (report.findings.length > 0) this.say('');
    for (const finding of report.findings) this.say(`Finding: ${finding.text}`);
    for (const warning of report.warnings) this.say(`Warning: ${warning}`);
    for (const problem of report.problems) this.say(`Problem: ${problem}`);
    for (const line of driftConsoleLines(report.drift)) this.say(line);
    const retried = retriesText(report.retries);
    if (retried) this.say(retried);
    this.say('');
    this.#summary(report);
  }

  /** The matrix, each column as wide as its widest cell: cells never run together. */
  #matrix(report: RunReport): void {
    const versions = versionsOf(report).map(({ version }) => version);
    const rows = matrixRows(report.interactions).map((row) => ({
      label: clip(row.label, MAX_LABEL),
      cells: versions.map((version) => row.cells[version]),
    }));
    const width = Math.max(11, ...rows.map((row) => row.label.length));
    const word = (item: InteractionReport | undefined) => (item ? VERDICT_WORDS[item.verdict] : '—');
    const columns = versions.map((version, index) =>
      Math.max(version.length, ...rows.map((row) => word(row.cells[index]).length)),
    );
    const cell = (text: string, index: number, style?: Style): Part[] => [
      GAP,
      [text, style],
      index === columns.length - 1 ? '' : ' '.repeat((columns[index] ?? 0) - text.length),
    ];
    this.say('');
    this.#line(['Interaction'.padEnd(width), 'bold'], ...versions.flatMap((v, i) => cell(v, i, 'bold')));
    this.#line('-'.repeat(width), ...columns.flatMap((size, i) => cell('-'.repeat(size), i)));
    for (const row of rows) {
      const cells = row.cells.flatMap((item, i) =>
        cell(word(item), i, item ? LOOKS[item.verdict].style : 'dim'),
      );
      this.#line(row.label.padEnd(width), ...cells);
    }
  }

  /** The totals, and when the run fails with no contract broken, what made it fail. */
  #summary(report: RunReport): void {
    const { totals } = report;
    const unavailable =
      (totals.targetUnavailable > 0 ? `, ${totals.targetUnavailable} target unavailable` : '') +
      (totals.notRun > 0 ? `, ${totals.notRun} not run` : '');
    const strictly = report.strict && totals.notVerifiable > 0 ? ' (failures under --strict)' : '';
    const byVersion = versionsOf(report).map(
      ({ version, counts }) => `${version} ${counts.verified}/${counts.total} verified`,
    );
    const style: Style =
      report.exitCode === EXIT_CODES.passed
        ? 'green'
        : report.exitCode === EXIT_CODES.failed
          ? 'red'
          : 'yellow';
    this.#line([
      `${totals.verified} verified, ${totals.failed} failed${totals.pendingFailed > 0 ? ` (${totals.pendingFailed} pending, failing no run)` : ''}, ${totals.notVerifiable} not verifiable here${strictly}${unavailable} (${byVersion.join(', ')}) in ${(report.durationMs / 1000).toFixed(2)} s`,
      style,
    ]);
    const why = failedWithoutBreak(report);
    if (why) this.#line([why, style]);
  }

  /** What changed since the baseline, and the acknowledged findings: before the matrix. */
  #changes(report: RunReport): void {
    const headline = changesHeadline(report);
    if (headline === undefined) return;
    this.say('');
    this.say(headline);
    for (const section of changeSections(report)) {
      this.say(`${section.title}:`);
      for (const item of section.items) this.say(`  ${item.text}`);
    }
  }

  /** How the run's orders ended, the report files, and a stop. */
  closing(report: RunReport, written: readonly string[]): void {
    this.say(teardownText(report.teardown));
    for (const problem of report.teardown.problems) this.say(`  ${problem}`);
    this.say(`Reports: ${written.join(', ')}`);
    if (report.stoppedBy) {
      const { notRun } = report.totals;
      const when = notRun > 0 ? `the replay ended early (${notRun} not run)` : 'after the replay';
      const left =
        report.teardown.open > 0
          ? 'what is still open stays in the ledger (above)'
          : 'what the run created was torn down';
      this.say(`Stopped by ${report.stoppedBy}: ${when}; ${left}.`);
    }
  }
}
