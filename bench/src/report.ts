import { cpus, loadavg, totalmem } from 'node:os';
import type { BenchRow } from './results.js';
import { round } from './stats.js';

export interface BenchReport {
  date: string;
  machine: { cpus: number; cpuModel: string; memoryGiB: number; platform: string };
  node: string;
  /** The 1-minute load average when the run started and when it ended: other work on the machine shows here. */
  load: { start: number; end: number };
  /** The whole run's real duration. */
  seconds: number;
  /** Each section's duration, in the order they ran. */
  sections: { name: string; seconds: number; failed: boolean }[];
  rows: BenchRow[];
  /** Lines for the notes that belong to no row. */
  notes: string[];
}

export function describeMachine(): BenchReport['machine'] {
  return {
    cpus: cpus().length,
    cpuModel: cpus()[0]?.model.trim() ?? 'unknown',
    memoryGiB: Math.round(totalmem() / 1024 ** 3),
    platform: `${process.platform} ${process.arch}`,
  };
}

export const loadNow = () => round(loadavg()[0] ?? 0, 1);

/** `7 min 12 s` */
export function duration(seconds: number): string {
  const whole = Math.round(seconds);
  return whole < 60 ? `${whole} s` : `${Math.floor(whole / 60)} min ${String(whole % 60).padStart(2, '0')} s`;
}

const cell = (value: string | number | undefined) => (value === undefined ? '—' : String(value));
const figure = (row: BenchRow) => (row.value === null ? 'not measured' : `${row.value} ${row.unit}`);

/** RESULTS.md: the table of every figure with its reference, ratio and budget, then the notes. */
export function renderMarkdown(report: BenchReport): string {
  const { machine } = report;
  const misses = report.rows.filter((row) => !row.met);
  const lines = [
    '# Benchmark results',
    '',
    '<!-- Written by `pnpm bench` (bench/src/run.ts); the same figures are in results.json. -->',
    '',
    `Run on ${report.date} with Node ${report.node} on ${machine.platform}, ${machine.cpus} × ${machine.cpuModel},`,
    `${machine.memoryGiB} GiB (load average ${report.load.start} at the start, ${report.load.end} at the end).`,
    `**The whole run took ${duration(report.seconds)}** (${Math.round(report.seconds)} s). Each figure is a median`,
    'of several runs (the note says how many) measured side by side with its reference in the same run,',
    'alternating, so the ratio holds when the machine is busy; absolute figures move with the machine.',
    '',
    '| area | what | figure | reference | ratio | budget | met |',
    '|---|---|---|---|---|---|---|',
    ...report.rows.map(
      (row) =>
        `| ${row.area} | ${row.what} | ${figure(row)} | ${
          row.reference ? `${row.reference.value} ${row.unit} (${row.reference.what})` : '—'
        } | ${cell(row.ratio)} | ${row.budget} | ${row.met ? 'yes' : '**no**'} |`,
    ),
    '',
    '## Notes',
    '',
    ...report.rows.filter((row) => row.note).map((row) => `- ${row.area}, ${row.what}: ${row.note}`),
    ...report.notes.map((note) => `- ${note}`),
    '',
    '## Where the run went',
    '',
    ...report.sections.map(
      (section) => `- ${section.name}: ${duration(section.seconds)}${section.failed ? ' (failed)' : ''}`,
    ),
    '',
    misses.length
      ? `## Budgets missed\n\n${misses.map((row) => `- ${row.area}, ${row.what}: ${row.note ?? 'no explanation recorded'}`).join('\n')}`
      : 'Every budget was met in this run.',
  ];
  return `${lines.join('\n').trimEnd()}\n`;
}
