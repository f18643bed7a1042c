import { KIT_NAME } from './kit-version.js';
import { changeSections, type InteractionReport, type RunReport, versionsOf } from './model.js';

const xml = (text: string) =>
  text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    // biome-ignore lint/suspicious/noControlCharactersInRegex: XML 1.0 forbids these characters; they are dropped.
    .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g, '')
    // A lone surrogate is no character at all: XML cannot hold it either.
    .replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, '');

const seconds = (ms: number | undefined) => ((ms ?? 0) / 1000).toFixed(3);

/** One test case, its element (failure, error, skipped, output) already rendered. */
interface Case {
  readonly name: string;
  readonly ms: number | undefined;
  readonly child: string | undefined;
}

const tally = (cases: readonly Case[], ms: number) => {
  const count = (tag: string) => cases.filter((item) => item.child?.startsWith(`<${tag}`)).length;
  return `tests="${cases.length}" failures="${count('failure')}" errors="${count('error')}" skipped="${count('skipped')}" time="${seconds(ms)}"`;
};

/**
 * JUnit XML: the changes since the last run first (when the run compared itself), then a test
 * suite per provider (API version), a test case per interaction; one not verifiable here is
 * `skipped` with its reason (a failure under `--strict`), and so is an acknowledged finding.
 */
export function junitXml(report: RunReport): string {
  const { strict } = report;
  const known = new Map(report.comparison?.changes.map((row) => [row.key, row.known]));
  const suites = [
    ...changesSuite(report),
    ...driftSuite(report),
    ...versionsOf(report).map(({ version }) => {
      const items = report.interactions.filter((item) => item.version === version);
      return {
        name: items[0]?.provider ?? version,
        cases: items.map((item) => ({
          name: `${item.description}${item.states ? ` (given ${item.states})` : ''}${item.from ? ` (${item.from})` : ''}`,
          ms: item.ms,
          child: outcome(item, strict, known.get(item.key)),
        })),
      };
    }),
  ];
  const lines = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="contract verification" ${tally(
      suites.flatMap((suite) => suite.cases),
      report.durationMs,
    )}>`,
  ];
  for (const suite of suites) {
    const name = xml(suite.name);
    const time = suite.cases.reduce((sum, item) => sum + (item.ms ?? 0), 0);
    lines.push(`  <testsuite name="${name}" ${tally(suite.cases, time)}>`);
    lines.push('    <properties>');
    lines.push(`      <property name="tool" value="${xml(KIT_NAME)}"/>`);
    lines.push(`      <property name="version" value="${xml(report.version)}"/>`);
    lines.push('    </properties>');
    for (const item of suite.cases) {
      const open = `    <testcase classname="${name}" name="${xml(item.name)}" time="${seconds(item.ms)}"`;
      lines.push(...(item.child ? [`${open}>`, `      ${item.child}`, '    </testcase>'] : [`${open}/>`]));
    }
    lines.push('  </testsuite>');
  }
  lines.push('</testsuites>', '');
  return lines.join('\n');
}

/** The changes as the first suite: what fails the run a failure, a known finding skipped, the rest output. */
function changesSuite(report: RunReport): { name: string; cases: Case[] }[] {
  const sections = changeSections(report);
  if (sections.length === 0) return [];
  const cases = sections.flatMap((section) =>
    section.items.map((item) => {
      const text = xml(item.text);
      const child =
        section.weight === 'fails'
          ? `<failure type="${xml(section.title)}" message="${text}"/>`
          : section.weight === 'known'
            ? `<skipped message="known finding: ${text}"/>`
            : `<system-out>${text}</system-out>`;
      return { name: `${section.title}: ${item.name}`, ms: 0, child };
    }),
  );
  return [{ name: 'changes since the last run', cases }];
}

/** Drift that fails the run (`--fail-on-drift`) as a suite: a failure per finding that counts, the rest output. */
function driftSuite(report: RunReport): { name: string; cases: Case[] }[] {
  const { drift } = report;
  if (!report.failOnDrift || !drift || drift.findings.length === 0) return [];
  const cases = drift.findings.map((finding) => {
    // Against a baseline only what it did not have fails; without one, every finding does.
    const fails = finding.change !== 'known';
    const text = xml(finding.text);
    const child = fails
      ? `<failure type="drift" message="${text}"/>`
      : `<system-out>known: ${text}</system-out>`;
    return {
      name: `${finding.operation} ${finding.version} ${finding.status} ${finding.path}`,
      ms: 0,
      child,
    };
  });
  return [{ name: 'drift from the OpenAPI description', cases }];
}

/** A test case's element: an error, a failure or a skip; none when verified. */
function outcome(
  item: InteractionReport,
  strict: boolean,
  known: { readonly reason: string; readonly expires: string } | undefined,
): string | undefined {
  const message = xml(item.reason ?? '');
  if (item.verdict === 'verified') return undefined;
  if (known) return `<skipped message="known finding until ${xml(known.expires)}: ${xml(known.reason)}"/>`;
  if (item.verdict === 'not-run')
    return `<skipped message="${message.startsWith('not ') ? '' : 'not run: '}${message}"/>`;
  if (item.verdict === 'target-unavailable') {
    return `<error type="target-unavailable" message="${message}">${xml(item.request)}</error>`;
  }
  if (item.verdict === 'not-verifiable' && !strict)
    return `<skipped message="not verifiable here: ${message}"/>`;
  // A pending failure fails no run: output, so that a test tab stays as green as the exit status.
  if (item.pending) return `<system-out>FAILED, pending: ${message}</system-out>`;
  const type = item.verdict === 'failed' ? 'contract-broken' : 'not-verifiable';
  return `<failure type="${type}" message="${message}">${xml([item.request, ...item.mismatches].join('\n'))}</failure>`;
}
