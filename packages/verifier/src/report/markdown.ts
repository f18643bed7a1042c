import type { DriftReport } from '../drift/observe-drift.js';
import { EXIT_CODES } from '../exit-codes.js';
import { KIT_NAME } from './kit-version.js';
import {
  changeSections,
  changesHeadline,
  DRIFT_HEADING,
  LISTED,
  LOOKS,
  matrixRows,
  type RunReport,
  teardownText,
  versionsOf,
  withVerdict,
} from './model.js';

const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\n/g, ' ');

/** A Markdown summary fit for a CI job summary (`$GITHUB_STEP_SUMMARY`). */
export function markdownSummary(report: RunReport): string {
  const versions = versionsOf(report).map(({ version }) => version);
  const { totals, target } = report;
  const status = report.stoppedBy
    ? `⚠️ stopped by ${report.stoppedBy}`
    : report.exitCode === EXIT_CODES.passed
      ? totals.pendingFailed > 0
        ? `✅ no contract broke but ${totals.pendingFailed} pending, which fail no run`
        : report.comparison?.counts.known
          ? '✅ nothing new: every verifiable interaction honours the contract or is a known finding'
          : '✅ every verifiable interaction honours the contract'
      : report.exitCode === EXIT_CODES.targetUnavailable
        ? '⚠️ the target became unavailable (no contract broke)'
        : totals.failed > totals.pendingFailed
          ? '❌ the target broke the contract'
          : report.comparison?.fails
            ? '❌ no contract broke, but interactions regressed since the baseline (below)'
            : report.strict && totals.notVerifiable > 0
              ? `❌ no contract broke, but ${totals.notVerifiable} not verifiable here, which --strict counts as failures`
              : '❌ no contract broke, but answers drifted from the OpenAPI description (--fail-on-drift)';
  const lines = [
    '# Contract verification',
    '',
    `**${status}** — ${totals.verified} verified, ${totals.failed} failed, ${totals.notVerifiable} not verifiable here, ${totals.targetUnavailable} target unavailable${totals.notRun > 0 ? `, ${totals.notRun} not run` : ''} (of ${totals.total})${report.strict ? ', strict' : ''}.`,
    '',
    `Target: ${target.kind === 'embedded' ? 'embedded sample API' : `\`${target.baseUrl}\``} (mode ${target.mode}, control surface ${target.control ? 'on' : 'off'}), ${(report.durationMs / 1000).toFixed(1)} s.`,
    '',
    ...changesMarkdown(report),
    `| Interaction | ${versions.join(' | ')} |`,
    `| --- | ${versions.map(() => '---').join(' | ')} |`,
  ];
  for (const row of matrixRows(report.interactions)) {
    const cells = versions.map((version) => row.cells[version]);
    lines.push(
      `| ${cell(row.label)} | ${cells.map((item) => (item ? `${LOOKS[item.verdict].markdown}${item.pending ? ' (pending)' : ''}` : '—')).join(' | ')} |`,
    );
  }
  const failed = withVerdict(report, 'failed');
  if (failed.length > 0) lines.push('', '## Failures', '');
  for (const item of failed) {
    lines.push(
      `- **${item.version}** ${cell(item.description)} — \`${cell(item.request)}\`: ${cell(item.reason ?? '')}`,
    );
    for (const mismatch of item.mismatches) if (mismatch !== item.reason) lines.push(`  - ${cell(mismatch)}`);
  }
  for (const { verdict, title } of LISTED) {
    const items = withVerdict(report, verdict);
    if (items.length > 0) lines.push('', `## ${title}`, '');
    for (const item of items)
      lines.push(`- **${item.version}** ${cell(item.description)}: ${cell(item.reason ?? '')}`);
  }
  if (report.findings.length > 0 || report.warnings.length > 0)
    lines.push('', '## Findings and warnings', '');
  for (const finding of report.findings) lines.push(`- Finding: ${cell(finding.text)}`);
  for (const warning of report.warnings) lines.push(`- Warning: ${cell(warning)}`);
  const problems = [...report.problems, ...report.teardown.problems];
  if (problems.length > 0) lines.push('', '## Problems', '');
  for (const problem of problems) lines.push(`- ${cell(problem)}`);
  lines.push(...driftMarkdown(report.drift));
  lines.push('', teardownText(report.teardown), '', `<sub>${KIT_NAME} ${report.version}</sub>`, '');
  return lines.join('\n');
}

/** The changes since the baseline and the acknowledged findings, as the summary's first section. */
function changesMarkdown(report: RunReport): string[] {
  const headline = changesHeadline(report);
  if (headline === undefined) return [];
  const lines = ['## Changes since the last run', '', cell(headline), ''];
  for (const section of changeSections(report)) {
    const mark = section.weight === 'fails' ? '❌ ' : section.weight === 'known' ? '☑️ ' : '';
    lines.push(`### ${mark}${section.title}`, '', ...section.items.map((item) => `- ${cell(item.text)}`), '');
  }
  return [...lines, '## Matrix', ''];
}

/** The Markdown drift section: a table of findings. */
function driftMarkdown(drift: DriftReport | undefined): string[] {
  if (!drift) return [];
  if (drift.documents === undefined)
    return ['', `## ${DRIFT_HEADING}`, '', 'Not checked: no OpenAPI documents (see `--openapi`).'];
  const lines = ['', `## ${DRIFT_HEADING}`, ''];
  if (drift.findings.length === 0) {
    lines.push(`None in ${drift.compared} answers compared with \`${cell(drift.documents)}\`.`);
    return lines;
  }
  lines.push(
    `${drift.findings.length} finding${drift.findings.length === 1 ? '' : 's'} in ${drift.compared} answers compared with \`${cell(drift.documents)}\`. They inform; they fail the run only with \`--fail-on-drift\`.`,
    '',
    '| operation | version | status | path | finding | example | answers | since the baseline |',
    '|---|---|---|---|---|---|---|---|',
  );
  for (const finding of drift.findings) {
    const example = finding.example === undefined ? '' : `\`${cell(finding.example)}\``;
    lines.push(
      `| ${cell(finding.operation)} | ${finding.version} | ${finding.status} | \`${cell(finding.path)}\` | ${finding.kind} | ${example} | ${finding.answers} | ${finding.change ?? ''} |`,
    );
  }
  for (const finding of drift.disappeared ?? [])
    lines.push('', `Gone since the baseline: ${cell(finding.text)}`);
  return lines;
}
