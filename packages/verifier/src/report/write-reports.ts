import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { redact } from '@print-contracts/client/kit';
import { junitXml } from './junit.js';
import { markdownSummary } from './markdown.js';
import type { RunReport } from './model.js';

/** File names of the reports in `--report-dir`. */
export const REPORT_FILES = {
  json: 'verify-report.json',
  junit: 'verify-junit.xml',
  markdown: 'verify-summary.md',
  pactOutput: 'pact-verifier-output.txt',
  har: 'verify-exchanges.har',
} as const;

/** Writes the reports (and Pact's own output, if any) into `dir`, each redacted; returns their paths. */
export async function writeReports(
  report: RunReport,
  dir: string,
  secrets: readonly string[],
  pactOutput: string,
) {
  await mkdir(dir, { recursive: true });
  const files: [string, string][] = [
    [REPORT_FILES.json, `${JSON.stringify(report, null, 2)}\n`],
    [REPORT_FILES.junit, junitXml(report)],
    [REPORT_FILES.markdown, markdownSummary(report)],
  ];
  if (pactOutput.trim()) files.push([REPORT_FILES.pactOutput, pactOutput]);
  return Promise.all(
    files.map(async ([name, text]) => {
      await writeFile(join(dir, name), redact(text, secrets));
      return join(dir, name);
    }),
  );
}
