import { type Counts, type InteractionReport, type RunReport, versionsOf } from './model.js';

const xml = (text: string) =>
  text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    // biome-ignore lint/suspicious/noControlCharactersInRegex: XML 1.0 forbids these characters; they are dropped.
    .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/g, '');

const seconds = (ms: number | undefined) => ((ms ?? 0) / 1000).toFixed(3);

/**
 * JUnit XML: a test suite per provider (API version), a test case per interaction; one not
 * verifiable here is `skipped` with its reason (a failure under `--strict`).
 */
export function junitXml(report: RunReport): string {
  const { strict } = report;
  const tally = (counts: Counts, ms: number) =>
    `tests="${counts.total}" failures="${counts.failed + (strict ? counts.notVerifiable : 0)}" errors="${counts.targetUnavailable}" skipped="${(strict ? 0 : counts.notVerifiable) + counts.notRun}" time="${seconds(ms)}"`;
  const lines = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="contract verification" ${tally(report.totals, report.durationMs)}>`,
  ];
  for (const { version, counts } of versionsOf(report)) {
    const cases = report.interactions.filter((item) => item.version === version);
    const provider = xml(cases[0]?.provider ?? version);
    const time = cases.reduce((sum, item) => sum + (item.ms ?? 0), 0);
    lines.push(`  <testsuite name="${provider}" ${tally(counts, time)}>`);
    for (const item of cases) {
      const name = xml(item.states ? `${item.description} (given ${item.states})` : item.description);
      const open = `    <testcase classname="${provider}" name="${name}" time="${seconds(item.ms)}"`;
      const child = outcome(item, strict);
      lines.push(...(child ? [`${open}>`, `      ${child}`, '    </testcase>'] : [`${open}/>`]));
    }
    lines.push('  </testsuite>');
  }
  lines.push('</testsuites>', '');
  return lines.join('\n');
}

/** A test case's element: an error, a failure or a skip; none when verified. */
function outcome(item: InteractionReport, strict: boolean): string | undefined {
  const message = xml(item.reason ?? '');
  if (item.verdict === 'verified') return undefined;
  if (item.verdict === 'not-run') return `<skipped message="not run: ${message}"/>`;
  if (item.verdict === 'target-unavailable') {
    return `<error type="target-unavailable" message="${message}">${xml(item.request)}</error>`;
  }
  if (item.verdict === 'not-verifiable' && !strict)
    return `<skipped message="not verifiable here: ${message}"/>`;
  const type = item.verdict === 'failed' ? 'contract-broken' : 'not-verifiable';
  return `<failure type="${type}" message="${message}">${xml([item.request, ...item.mismatches].join('\n'))}</failure>`;
}
