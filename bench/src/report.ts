import { cpus, totalmem } from 'node:os';
import type { BenchRow } from './results.js';

export interface BenchReport {
  date: string;
  machine: { cpus: number; cpuModel: string; memoryGiB: number; platform: string };
  node: string;
  seconds: number;
  rows: BenchRow[];
}

export function describeMachine(): BenchReport['machine'] {
  return {
    cpus: cpus().length,
    cpuModel: cpus()[0]?.model.trim() ?? 'unknown',
    memoryGiB: Math.round(totalmem() / 1024 ** 3),
    platform: `${process.platform} ${process.arch}`,
  };
}

const cell = (value: string | number | undefined) => (value === undefined ? '—' : String(value));

/** RESULTS.md: the table of every figure with its reference, ratio and budget. */
export function renderMarkdown(report: BenchReport, misses: string): string {
  const { machine } = report;
  const lines = [
    '# Benchmark results',
    '',
    '<!-- Written by `pnpm bench` (bench/src/run.ts); the same figures are in results.json. -->',
    '',
    `Run on ${report.date} with Node ${report.node} on ${machine.platform}, ${machine.cpus} × ${machine.cpuModel},`,
    `${machine.memoryGiB} GiB; the whole run took ${Math.round(report.seconds)} s. Every figure is the median of`,
    'several runs, measured side by side with its reference in the same run (alternating), so the ratio holds',
    'even when the machine is busy; absolute figures move with the machine.',
    '',
    '| area | what | figure | reference | ratio | budget | met |',
    '|---|---|---|---|---|---|---|',
    ...report.rows.map(
      (row) =>
        `| ${row.area} | ${row.what} | ${row.value} ${row.unit} | ${
          row.reference ? `${row.reference.value} ${row.unit} (${row.reference.what})` : '—'
        } | ${cell(row.ratio)} | ${row.budget} | ${row.met ? 'yes' : '**no**'} |`,
    ),
    '',
    '## Notes',
    '',
    ...report.rows.filter((row) => row.note).map((row) => `- ${row.area}, ${row.what}: ${row.note}`),
    '',
    misses,
  ];
  return `${lines.join('\n').trimEnd()}\n`;
}
