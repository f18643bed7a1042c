import { API_VERSIONS } from '@print-contracts/client';
import type { RunReport } from './model.js';

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
  const lines = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="contract verification" tests="${report.totals.total}" failures="${report.strict ? report.totals.failed + report.totals.notVerifiable : report.totals.failed}" errors="${report.totals.targetUnavailable}" skipped="${report.strict ? 0 : report.totals.notVerifiable}" time="${seconds(report.durationMs)}">`,
  ];
  for (const version of API_VERSIONS) {
    const cases = report.interactions.filter((item) => item.version === version);
    if (cases.length === 0) continue;
    const counts = report.byVersion[version];
    const provider = cases[0]?.provider ?? version;
    const failures = (counts?.failed ?? 0) + (report.strict ? (counts?.notVerifiable ?? 0) : 0);
    const skipped = report.strict ? 0 : (counts?.notVerifiable ?? 0);
    const time = cases.reduce((sum, item) => sum + (item.ms ?? 0), 0);
    lines.push(
      `  <testsuite name="${xml(provider)}" tests="${cases.length}" failures="${failures}" errors="${counts?.targetUnavailable ?? 0}" skipped="${skipped}" time="${seconds(time)}">`,
    );
    for (const item of cases) {
      const name = xml(item.states ? `${item.description} (given ${item.states})` : item.description);
      const open = `    <testcase classname="${xml(provider)}" name="${name}" time="${seconds(item.ms)}"`;
      if (item.verdict === 'verified') {
        lines.push(`${open}/>`);
        continue;
      }
      lines.push(`${open}>`);
      const message = xml(item.reason ?? '');
      if (item.verdict === 'target-unavailable') {
        lines.push(
          `      <error type="target-unavailable" message="${message}">${xml(item.request)}</error>`,
        );
      } else if (item.verdict === 'failed' || report.strict) {
        const type = item.verdict === 'failed' ? 'contract-broken' : 'not-verifiable';
        const body = xml([item.request, ...item.mismatches].join('\n'));
        lines.push(`      <failure type="${type}" message="${message}">${body}</failure>`);
      } else {
        lines.push(`      <skipped message="not verifiable here: ${message}"/>`);
      }
      lines.push('    </testcase>');
    }
    lines.push('  </testsuite>');
  }
  lines.push('</testsuites>', '');
  return lines.join('\n');
}
