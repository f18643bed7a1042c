import { API_VERSIONS, redact } from '@print-contracts/client';
import { VERDICT_WORDS } from '../plan/plan.js';
import { type InteractionReport, matrixRows, printable, type RunReport } from './model.js';

/** Where the console reporter writes: `process.stdout`, or a buffer in tests. */
export interface TextSink {
  write(text: string): unknown;
}

const MAX_LABEL = 64;
const pad = (text: string, width: number) =>
  text.length >= width ? text : text + ' '.repeat(width - text.length);
const clip = (text: string, width: number) => (text.length > width ? `${text.slice(0, width - 1)}…` : text);
/** Reasons can be long (a schema's every complaint); the JSON report keeps them whole. */
const MAX_REASON = 240;
const MARKS: Readonly<Record<InteractionReport['verdict'], string>> = {
  verified: '✓',
  failed: '✗',
  'not-verifiable': '○',
  'target-unavailable': '⚠',
};

/**
 * Console output of a run: progress while it runs, then the matrix and the summary. Every
 * line is redacted, so no secret reaches the console even if the target echoes one.
 */
export class ConsoleReporter {
  readonly #out: TextSink;
  readonly #quiet: boolean;
  readonly #secrets: readonly string[];

  constructor(out: TextSink, options: { quiet: boolean; secrets: readonly string[] }) {
    this.#out = out;
    this.#quiet = options.quiet;
    this.#secrets = options.secrets;
  }

  /** A line that always prints: secrets redacted, control characters made visible. */
  say(text: string): void {
    this.#out.write(`${printable(redact(text, this.#secrets))}\n`);
  }

  /** A progress line, left out with `--quiet`. */
  progress(text: string): void {
    if (!this.#quiet) this.say(text);
  }

  verdict(item: InteractionReport): void {
    const mark = MARKS[item.verdict];
    const time = item.ms === undefined ? '' : ` (${item.ms} ms)`;
    const why = item.verdict === 'verified' ? '' : ` — ${clip(item.reason ?? '', MAX_REASON)}`;
    this.progress(`  ${mark} ${item.version} ${item.description}${time}${why}`);
  }

  /** The matrix interaction × version, then failures and reasons, then totals. */
  matrix(report: RunReport): void {
    const versions = API_VERSIONS.filter((version) => report.byVersion[version]);
    const rows = matrixRows(report.interactions);
    const width = Math.min(MAX_LABEL, Math.max(11, ...rows.map((row) => row.label.length)));
    const column = 20;
    this.say('');
    this.say(`${pad('Interaction', width)}  ${versions.map((v) => pad(v, column)).join('')}`.trimEnd());
    this.say(
      `${'-'.repeat(width)}  ${versions.map(() => pad('-'.repeat(column - 2), column)).join('')}`.trimEnd(),
    );
    for (const row of rows) {
      const cells = versions.map((version) => {
        const item = row.cells[version];
        return pad(item ? VERDICT_WORDS[item.verdict] : '—', column);
      });
      this.say(`${pad(clip(row.label, width), width)}  ${cells.join('')}`.trimEnd());
    }
    const failed = report.interactions.filter((item) => item.verdict === 'failed');
    if (failed.length > 0) {
      this.say('');
      this.say('Failures:');
      for (const item of failed) {
        this.say(`  ${item.version} ${item.description} — ${item.request}`);
        this.say(`      ${clip(item.reason ?? '', MAX_REASON)}`);
        for (const mismatch of item.mismatches) if (mismatch !== item.reason) this.say(`      ${mismatch}`);
      }
    }
    for (const [verdict, title] of [
      ['target-unavailable', 'Target unavailable (not a broken contract):'],
      ['not-verifiable', `Not verifiable here${report.strict ? ' (failures under --strict)' : ''}:`],
    ] as const) {
      const items = report.interactions.filter((item) => item.verdict === verdict);
      if (items.length === 0) continue;
      this.say('');
      this.say(title);
      for (const item of items)
        this.say(`  ${item.version} ${item.description} — ${clip(item.reason ?? '', MAX_REASON)}`);
    }
    if (report.findings.length > 0) {
      this.say('');
      for (const finding of report.findings) this.say(`Finding: ${finding.text}`);
    }
    for (const warning of report.warnings) this.say(`Warning: ${warning}`);
    for (const problem of report.problems) this.say(`Problem: ${problem}`);
    const { totals } = report;
    this.say('');
    const versionsLine = versions
      .map((version) => {
        const counts = report.byVersion[version];
        return counts ? `${version} ${counts.verified}/${counts.total} verified` : '';
      })
      .join(', ');
    const unavailableCount =
      totals.targetUnavailable > 0 ? `, ${totals.targetUnavailable} target unavailable` : '';
    this.say(
      `${totals.verified} verified, ${totals.failed} failed, ${totals.notVerifiable} not verifiable here${unavailableCount} (${versionsLine}) in ${(report.durationMs / 1000).toFixed(2)} s`,
    );
  }
}
