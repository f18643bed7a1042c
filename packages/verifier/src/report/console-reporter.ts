import { redact } from '@print-contracts/client';
import { driftConsoleLines } from '../drift/render.js';
import type { VerifyOptions } from '../options/verify-options.js';
import { type Plan, VERDICT_WORDS } from '../plan/plan.js';
import type { Target } from '../target/target.js';
import { changeSections, changesHeadline } from './changes.js';
import {
  type InteractionReport,
  matrixRows,
  printable,
  type RunReport,
  versionsOf,
  withVerdict,
} from './model.js';
import { retriesText } from './retries-text.js';
import { teardownText } from './teardown-text.js';

/** Where the console reporter writes: `process.stdout`, or a buffer in tests. */
export interface TextSink {
  write(text: string): unknown;
}

const MAX_LABEL = 64;
const COLUMN = 20;
/** Reasons can be long (a schema's every complaint); the JSON report keeps them whole. */
const MAX_REASON = 240;
const MARKS: Readonly<Record<InteractionReport['verdict'], string>> = {
  verified: '✓',
  failed: '✗',
  'not-verifiable': '○',
  'target-unavailable': '⚠',
  'not-run': '·',
};
const clip = (text: string, width: number) => (text.length > width ? `${text.slice(0, width - 1)}…` : text);
const reason = (item: InteractionReport) => clip(item.reason ?? '', MAX_REASON);
const word = (item: InteractionReport | undefined) => (item ? VERDICT_WORDS[item.verdict] : '—');

/**
 * Console output of a run: progress while it runs, then the matrix and the summary. Every
 * line is redacted, so no secret reaches the console even if the target echoes one.
 */
export class ConsoleReporter {
  readonly #out: TextSink;
  readonly #options: { readonly quiet: boolean; readonly secrets: readonly string[] };

  constructor(out: TextSink, options: { quiet: boolean; secrets: readonly string[] }) {
    this.#out = out;
    this.#options = options;
  }

  /** A line that always prints: secrets redacted, control characters made visible. */
  say(text: string): void {
    this.#out.write(`${printable(redact(text, this.#options.secrets))}\n`);
  }

  /** A progress line, left out with `--quiet`. */
  progress(text: string): void {
    if (!this.#options.quiet) this.say(text);
  }

  /** What the run is about to verify, and with which orders. */
  announce(target: Target, plan: Plan, options: Pick<VerifyOptions, 'apiVersions' | 'orderBodies'>): void {
    const where =
      target.kind === 'embedded'
        ? `embedded sample API at ${target.baseUrl}`
        : `${target.baseUrl} (mode ${target.mode})`;
    this.progress(
      `Contract verification of ${where}, control surface ${target.controlOrigin ? 'on' : 'off'}`,
    );
    for (const { label, consumer, provider, interactions } of plan.pacts) {
      this.progress(`  pact ${label}: ${consumer} → ${provider}, ${interactions.length} interactions`);
    }
    const decided = plan.interactions.filter((item) => item.decided).length;
    this.progress(
      `Plan: ${plan.interactions.length - decided} to replay, ${decided} decided without replay, ${plan.fixtures.length} states to arrange`,
    );
    for (const version of options.apiVersions) {
      this.progress(`  orders it creates in ${version}: ${options.orderBodies.source[version]}`);
    }
  }

  /** Each verdict, the matrix interaction × version, failures and reasons, then totals. */
  results(report: RunReport): void {
    for (const item of report.interactions) {
      const time = item.ms === undefined ? '' : ` (${item.ms} ms)`;
      const why = item.verdict === 'verified' ? '' : ` — ${reason(item)}`;
      this.progress(`  ${MARKS[item.verdict]} ${item.version} ${item.description}${time}${why}`);
    }
    this.#changes(report);
    const versions = versionsOf(report);
    const names = versions.map(({ version }) => version);
    const rows = matrixRows(report.interactions);
    const width = Math.min(MAX_LABEL, Math.max(11, ...rows.map((row) => row.label.length)));
    const line = (label: string, cells: string[]) =>
      this.say(`${label.padEnd(width)}  ${cells.map((cell) => cell.padEnd(COLUMN)).join('')}`.trimEnd());
    this.say('');
    line('Interaction', names);
    line('-'.repeat(width), Array(names.length).fill('-'.repeat(COLUMN - 2)));
    for (const row of rows) {
      const words = names.map((version) => word(row.cells[version]));
      line(clip(row.label, width), words);
    }
    const failed = withVerdict(report, 'failed');
    if (failed.length > 0) {
      this.say('');
      this.say('Failures:');
      for (const item of failed) {
        this.say(`  ${item.version} ${item.description} — ${item.request}`);
        this.say(`      ${reason(item)}`);
        for (const mismatch of item.mismatches) if (mismatch !== item.reason) this.say(`      ${mismatch}`);
      }
    }
    for (const [verdict, title] of [
      ['not-run', 'Not run (the run was stopped):'],
      ['target-unavailable', 'Target unavailable (not a broken contract):'],
      ['not-verifiable', `Not verifiable here${report.strict ? ' (failures under --strict)' : ''}:`],
    ] as const) {
      const items = withVerdict(report, verdict);
      if (items.length === 0) continue;
      this.say('');
      this.say(title);
      for (const item of items) this.say(`  ${item.version} ${item.description} — ${reason(item)}`);
    }
    if (report.findings.length > 0) this.say('');
    for (const finding of report.findings) this.say(`Finding: ${finding.text}`);
    for (const warning of report.warnings) this.say(`Warning: ${warning}`);
    for (const problem of report.problems) this.say(`Problem: ${problem}`);
    for (const line of driftConsoleLines(report.drift)) this.say(line);
    const retried = retriesText(report.retries);
    if (retried) this.say(retried);
    const { totals } = report;
    const unavailable =
      (totals.targetUnavailable > 0 ? `, ${totals.targetUnavailable} target unavailable` : '') +
      (totals.notRun > 0 ? `, ${totals.notRun} not run` : '');
    const byVersion = versions.map(
      ({ version, counts }) => `${version} ${counts.verified}/${counts.total} verified`,
    );
    this.say('');
    this.say(
      `${totals.verified} verified, ${totals.failed} failed, ${totals.notVerifiable} not verifiable here${unavailable} (${byVersion.join(', ')}) in ${(report.durationMs / 1000).toFixed(2)} s`,
    );
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
      this.say(`Stopped by ${report.stoppedBy}: the replay ended early; what the run created was torn down.`);
    }
  }
}
