import { API_VERSIONS } from '@print-contracts/client';
import { matrixRows, type RunReport, type Verdict } from './model.js';

const SYMBOLS: Readonly<Record<Verdict, string>> = {
  verified: '✅ verified',
  failed: '❌ **FAILED**',
  'not-verifiable': '⚪ not verifiable here',
};

const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\n/g, ' ');

/** A Markdown summary fit for a CI job summary (`$GITHUB_STEP_SUMMARY`). */
export function markdownSummary(report: RunReport): string {
  const versions = API_VERSIONS.filter((version) => report.byVersion[version]);
  const { totals } = report;
  const status = report.interrupted
    ? '⚠️ interrupted'
    : report.exitCode === 0
      ? '✅ every verifiable interaction honours the contract'
      : '❌ the target broke the contract';
  const lines = [
    '# Contract verification',
    '',
    `**${status}** — ${totals.verified} verified, ${totals.failed} failed, ${totals.notVerifiable} not verifiable here (of ${totals.total})${report.strict ? ', strict' : ''}.`,
    '',
    `Target: ${report.target.kind === 'embedded' ? 'embedded sample API' : `\`${report.target.baseUrl}\``} (mode ${report.target.mode}, control surface ${report.target.control ? 'on' : 'off'}), ${(report.durationMs / 1000).toFixed(1)} s.`,
    '',
    `| Interaction | ${versions.join(' | ')} |`,
    `| --- | ${versions.map(() => '---').join(' | ')} |`,
  ];
  for (const row of matrixRows(report.interactions)) {
    const cells = versions.map((version) => {
      const item = row.cells[version];
      return item ? SYMBOLS[item.verdict] : '—';
    });
    lines.push(`| ${cell(row.label)} | ${cells.join(' | ')} |`);
  }
  const failed = report.interactions.filter((item) => item.verdict === 'failed');
  if (failed.length > 0) {
    lines.push('', '## Failures', '');
    for (const item of failed) {
      lines.push(
        `- **${item.version}** ${cell(item.description)} — \`${cell(item.request)}\`: ${cell(item.reason ?? '')}`,
      );
      for (const mismatch of item.mismatches)
        if (mismatch !== item.reason) lines.push(`  - ${cell(mismatch)}`);
    }
  }
  const skipped = report.interactions.filter((item) => item.verdict === 'not-verifiable');
  if (skipped.length > 0) {
    lines.push('', '## Not verifiable here', '');
    for (const item of skipped)
      lines.push(`- **${item.version}** ${cell(item.description)}: ${cell(item.reason ?? '')}`);
  }
  if (report.problems.length > 0 || report.teardown.problems.length > 0) {
    lines.push('', '## Problems', '');
    for (const problem of [...report.problems, ...report.teardown.problems]) lines.push(`- ${cell(problem)}`);
  }
  lines.push(
    '',
    `Teardown: ${report.teardown.settled} created orders settled, ${report.teardown.open} left open${report.teardown.ledger ? ` in \`${report.teardown.ledger}\` (run \`pnpm verify --cleanup\`)` : ''}.`,
    '',
  );
  return lines.join('\n');
}
