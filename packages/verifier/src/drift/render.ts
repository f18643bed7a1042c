import type { DriftReport } from './observe-drift.js';

const HEADING = 'Drift from the OpenAPI description';

/** The console's drift section: one line per finding; they inform, and fail a run only with `--fail-on-drift`. */
export function driftConsoleLines(drift: DriftReport | undefined): string[] {
  if (!drift) return [];
  if (drift.documents === undefined)
    return ['', `${HEADING}: not checked (no OpenAPI documents; see --openapi)`];
  const gone = (drift.disappeared ?? []).map((finding) => `  gone since the baseline: ${finding.text}`);
  if (drift.findings.length === 0) {
    return ['', `${HEADING}: none in ${drift.compared} answers compared with ${drift.documents}`, ...gone];
  }
  return [
    '',
    `${HEADING} (${drift.findings.length} in ${drift.compared} answers compared with ${drift.documents}):`,
    ...drift.findings.map((finding) => `  ${finding.change === 'new' ? 'new: ' : ''}${finding.text}`),
    ...gone,
  ];
}

const cell = (text: string) => text.replaceAll('|', '\\|').replaceAll('\n', ' ');

/** The Markdown drift section: a table of findings. */
export function driftMarkdown(drift: DriftReport | undefined): string[] {
  if (!drift) return [];
  if (drift.documents === undefined)
    return ['', `## ${HEADING}`, '', 'Not checked: no OpenAPI documents (see `--openapi`).'];
  const lines = ['', `## ${HEADING}`, ''];
  if (drift.findings.length === 0) {
    lines.push(`None in ${drift.compared} answers compared with \`${cell(drift.documents)}\`.`);
    return lines;
  }
  lines.push(
    `${drift.findings.length} findings in ${drift.compared} answers compared with \`${cell(drift.documents)}\`. They inform; they fail the run only with \`--fail-on-drift\`.`,
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
