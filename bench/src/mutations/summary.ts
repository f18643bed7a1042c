import { isLostKind } from './generate.js';
import type { MutationResult } from './harness.js';
import type { KilledRunResult, TeardownOutcome } from './killed-run.js';

/** RESULTS.md keeps the harness's section between these lines; `pnpm bench` carries it over. */
export const SECTION_START = '<!-- mutation-harness:start -->';
export const SECTION_END = '<!-- mutation-harness:end -->';

export interface MutationSummary {
  readonly date: string;
  readonly seconds: number;
  readonly concurrency: number;
  /** Whether the verifier took a baseline (the unaltered stand-in's report) on each run. */
  readonly baseline: boolean;
  /** Orders each credential set of a stand-in held beyond its seeds before the run. */
  readonly extraOrders: number;
  readonly fields: number;
  readonly skipped: number;
  readonly byKind: Readonly<Record<string, number>>;
  readonly results: readonly MutationResult[];
  /** A run killed mid-arranging behind each vendor behaviour, then `--cleanup` (absent in older summaries). */
  readonly killedRuns?: readonly KilledRunResult[];
  /** The same runs stopped by SIGTERM instead: their own teardown, then `--cleanup` (absent in older summaries). */
  readonly stoppedRuns?: readonly KilledRunResult[];
  /** Every mutation again in the nightly configuration, without `--control` (absent in older summaries). */
  readonly nightly?: readonly MutationResult[];
}

const percent = (part: number, whole: number) =>
  whole === 0 ? '—' : `${((100 * part) / whole).toFixed(1)} %`;

/** The figures: catch rate over the harmful mutations, false-alarm rate over the harmless ones (lost answers apart). */
export function figures(results: readonly MutationResult[]) {
  const harmful = results.filter((result) => result.harmful);
  const lost = results.filter((result) => isLostKind(result.kind));
  const harmless = results.filter((result) => !result.harmful && !isLostKind(result.kind));
  const count = (outcome: MutationResult['outcome']) =>
    results.filter((result) => result.outcome === outcome);
  const falseAlarms = harmless.filter((result) => result.outcome === 'false alarm');
  return {
    harmful: harmful.length,
    harmless: harmless.length,
    caught: count('caught'),
    missed: count('missed'),
    green: count('green'),
    falseAlarms,
    neither: count('neither'),
    lost,
    unavailable: count('unavailable'),
    leftOpen: results.filter((result) => result.leftOpen),
    ledgerKept: results.filter((result) => result.ledgerKept),
    unsaid: results.filter((result) => result.unsaid),
    catchRate: percent(count('caught').length, harmful.length),
    falseAlarmRate: percent(falseAlarms.length, harmless.length),
  };
}

const why = (result: MutationResult) =>
  result.changed.length
    ? `; vs the unaltered stand-in: ${result.changed.slice(0, 3).join('; ')}${result.changed.length > 3 ? ` (+${result.changed.length - 3})` : ''}`
    : '';

const names = (results: readonly { readonly name: string }[]) =>
  `${results.length}${results.length ? `: ${results.map((result) => result.name).join('; ')}` : ''}`;

/** The Markdown section of RESULTS.md, markers included. */
export function renderSection(summary: MutationSummary): string {
  const f = figures(summary.results);
  const line = (result: MutationResult) => `- ${result.name} (exit ${result.exitCode}${why(result)})`;
  const lostBy = (outcome: MutationResult['outcome']) =>
    f.lost.filter((result) => result.outcome === outcome).length;
  const lines = [
    SECTION_START,
    '## Mutation harness',
    '',
    `Written by \`pnpm bench --mutations\` (bench/src/mutations/) on ${summary.date}: ${summary.results.length} mutations,`,
    `each verified in-process (\`--base-url … --mode sample --control\`) against a fresh sample API behind an altering proxy`,
    `(its seed orders and ${summary.extraOrders} more per credential set, made before the run: the list runs past the pacts' page at limit 10, offset 10),`,
    `${summary.concurrency} at a time, in ${Math.round(summary.seconds)} s. Caught: exit 1; green: exit 0; an exit 2 or 3 is neither.`,
    "A mutation that loses answers (a connection closed, or a gateway's 502 for the vendor) is judged by its verdicts:",
    '"target unavailable" is honest for a replay whose answer never came (exit 3, or 1 as a regression against the',
    'baseline); a FAILED verdict is a false alarm.',
    summary.baseline
      ? "Each run took the unaltered stand-in's report as its `--baseline`."
      : 'The verifier took no `--baseline` yet: caught means FAILED only.',
    '',
    `Generated from the pacts' ${summary.fields} pinned response fields and the operations table (${summary.skipped} field mutations left out: the pinned matcher accepts them):`,
    '',
    '| kind | mutations |',
    '|---|---|',
    ...Object.entries(summary.byKind).map(([kind, n]) => `| ${kind} | ${n} |`),
    '',
    '| figure | value |',
    '|---|---|',
    `| harmful mutations caught (catch rate) | ${f.caught.length} of ${f.harmful} (${f.catchRate}) |`,
    `| harmless changes that failed the run (false-alarm rate) | ${f.falseAlarms.length} of ${f.harmless} (${f.falseAlarmRate}) |`,
    `| runs that lost answers: green, unavailable, FAILED (false alarm) | ${lostBy('green')}, ${lostBy('unavailable')}, ${lostBy('false alarm')} of ${f.lost.length} |`,
    `| runs that ended 2 or 3 (neither) | ${f.neither.length} |`,
    `| runs that left an order they created open at the sample API (only a vendor that never cancels may) | ${names(f.leftOpen)} |`,
    `| runs whose ledger kept an order it did not settle | ${names(f.ledgerKept)} |`,
    `| runs that left more orders open than their report says (unsaid) | ${names(f.unsaid)} |`,
    '',
    `### Missed (${f.missed.length})`,
    '',
    ...(f.missed.length ? f.missed.map(line) : ['None.']),
    '',
    `### False alarms (${f.falseAlarms.length})`,
    '',
    ...(f.falseAlarms.length ? f.falseAlarms.map(line) : ['None.']),
    '',
    `### Answers lost (${f.lost.length}): none may fail the run or leave an order open`,
    '',
    ...f.lost.map(line),
    '',
    `### Neither caught nor green: exit 2 or 3 (${f.neither.length})`,
    '',
    ...(f.neither.length ? f.neither.map(line) : ['None.']),
    ...nightlyLines(summary.nightly ?? []),
    ...killedRunLines(summary.killedRuns ?? []),
    ...stoppedRunLines(summary.stoppedRuns ?? []),
    SECTION_END,
  ];
  return `${lines.join('\n')}\n`;
}

/**
 * The nightly configuration's part: a harmful mutation is caught, or observable only through a state
 * the control surface makes (said, with those interactions); any other green is a false green.
 */
function nightlyLines(results: readonly MutationResult[]): string[] {
  if (results.length === 0) return [];
  const f = figures(results);
  const hidden = f.missed.filter((result) => (result.unobservable ?? []).length > 0);
  const falseGreens = f.missed.filter((result) => (result.unobservable ?? []).length === 0);
  const lostBy = (outcome: MutationResult['outcome']) =>
    f.lost.filter((result) => result.outcome === outcome).length;
  const line = (result: MutationResult) =>
    `- ${result.name}: with the control surface it changes ${result.unobservable?.join('; ')}, not verifiable without one`;
  return [
    '',
    `### The nightly configuration: every mutation again without \`--control\` (${results.length})`,
    '',
    'The nightly job verifies a sample-data set, which has no control surface: the same runs without `--control`, so that',
    'the sample-data probe may excuse what the target answers whatever it is asked, and each run takes the unaltered',
    "stand-in's report without `--control` as its `--baseline`. A harmful mutation must make the night red (a FAILED",
    'verdict, or a regression against the baseline), unless every interaction it changes with the control surface is one',
    'only the control surface makes verifiable; any other green night is a false green.',
    '',
    '| figure | value |',
    '|---|---|',
    `| harmful mutations caught | ${f.caught.length} of ${f.harmful} |`,
    `| harmful mutations observable only through a control surface | ${hidden.length} |`,
    `| harmful mutations missed otherwise (false greens) | ${names(falseGreens)} |`,
    `| harmless changes that failed the night (false alarms) | ${names(f.falseAlarms)} |`,
    `| runs that lost answers: green, unavailable, FAILED | ${lostBy('green')}, ${lostBy('unavailable')}, ${lostBy('false alarm')} of ${f.lost.length} |`,
    `| runs that ended 2 or 3 (neither) | ${names(f.neither)} |`,
    `| runs that left more orders open than their report says (unsaid) | ${names(f.unsaid)} |`,
    '',
    ...(hidden.length ? hidden.map(line) : []),
  ];
}

/** The killed runs' part of the section: every cleanup must leave nothing open, or say what it left. */
function killedRunLines(runs: readonly KilledRunResult[]): string[] {
  if (runs.length === 0) return [];
  const by = (outcome: KilledRunResult['outcome']) => runs.filter((run) => run.outcome === outcome);
  const sum = (pick: (run: KilledRunResult) => number) => runs.reduce((total, run) => total + pick(run), 0);
  const line = (run: KilledRunResult) =>
    `- ${run.name}: ${run.outcome}; ${run.creates} creates sent, ${run.unanswered} unanswered at the kill${run.endedFirst ? ' (the run ended first)' : ''}; --cleanup exit ${run.exitCode ?? '— (no ledger)'}, ${run.leftOpen} left open${run.heldOpen === undefined ? '' : `, ${run.heldOpen} open in its ledger`}, in ${run.seconds.toFixed(1)} s`;
  return [
    '',
    `### A killed run, then \`--cleanup\` (${runs.length})`,
    '',
    'Each behaviour of the vendor that meets a create, a read, the list or a cancel, and each change of a field a settling',
    "request reads (a list's orders, an id, uuid, date, status or reference, a create's uuid, a cancel's success): a `pnpm verify` process against a",
    'fresh stand-in behind it, killed (SIGKILL, its process group) once two of its creates were answered, then',
    '`pnpm verify --cleanup` through the same stand-in. Clean: nothing the run made is left open, exit 0. Unsure:',
    'nothing is left, but the cleanup could not prove it (exit 1, ledger kept). Said: orders left open, exit 1 and each',
    'of them still open in the kept ledger. Unsaid: orders left open while the cleanup exits 0, removes its ledger or',
    'crossed one of them off.',
    '',
    '| figure | value |',
    '|---|---|',
    `| clean, unsure, said, unsaid | ${by('clean').length}, ${by('unsure').length}, ${by('said').length}, ${by('unsaid').length} of ${runs.length} |`,
    `| creates sent before the kill, of them unanswered (found only by the run's reference) | ${sum((run) => run.creates)}, ${sum((run) => run.unanswered)} |`,
    `| runs that ended before the kill (their own teardown settled what they made) | ${names(runs.filter((run) => run.endedFirst))} |`,
    '',
    ...runs.filter((run) => run.outcome !== 'clean').map(line),
    ...(runs.every((run) => run.outcome === 'clean') ? ['Every one clean.'] : []),
  ];
}

/** The SIGTERM'd runs' part: each must tear down what it made and exit 143, or keep in its ledger what it could not. */
function stoppedRunLines(runs: readonly KilledRunResult[]): string[] {
  const stopped = runs.filter((run) => run.teardown !== undefined);
  if (stopped.length === 0) return [];
  const by = (outcome: TeardownOutcome) => stopped.filter((run) => run.teardown?.outcome === outcome);
  const seconds = stopped.map((run) => run.teardown?.seconds ?? 0).sort((a, b) => a - b);
  const median = seconds[Math.floor(seconds.length / 2)] ?? 0;
  const handedOver = by('handed over');
  // A stop is never the vendor's fault: behind a harmless vendor, a FAILED verdict is a false alarm.
  const falseAlarms = stopped.filter((run) => run.harmful === false && (run.teardown?.failed ?? 0) > 0);
  const reported = stopped.filter((run) => run.teardown?.failed !== undefined);
  const line = (run: KilledRunResult) =>
    `- ${run.name}: ${run.teardown?.outcome}, exit ${run.teardown?.exitCode} ${run.teardown?.seconds.toFixed(1)} s after the signal, ${run.teardown?.leftOpen} left open, ${run.teardown?.heldOpen} open in its ledger; --cleanup ${run.outcome}, exit ${run.exitCode ?? '— (no ledger)'}, ${run.leftOpen} left open`;
  return [
    '',
    `### A run stopped by SIGTERM, then \`--cleanup\` (${stopped.length})`,
    '',
    'The same vendors, a `pnpm verify` process sent SIGTERM (a cancelled CI job, to its process group) once two of',
    'its creates were answered. Clean: it cancelled what it made, removed its ledger and exited 143. Handed over:',
    'exit 143 with its ledger kept for `--cleanup`, which then ran (its outcome as above). Unsaid: more orders left',
    'open than its ledger holds open (none when it is gone). Status: another exit status. Hung: still running 90 s',
    'after the signal.',
    '',
    '| figure | value |',
    '|---|---|',
    `| clean, handed over, unsaid, status, hung | ${by('clean').length}, ${handedOver.length}, ${by('unsaid').length}, ${by('status').length}, ${by('hung').length} of ${stopped.length} |`,
    `| seconds from the signal to the exit: median, longest | ${median.toFixed(1)}, ${(seconds.at(-1) ?? 0).toFixed(1)} |`,
    `| the handed-over runs' --cleanup: clean, unsure, said, unsaid | ${['clean', 'unsure', 'said', 'unsaid'].map((outcome) => handedOver.filter((run) => run.outcome === outcome).length).join(', ')} |`,
    `| runs that ended before the signal | ${names(runs.filter((run) => run.endedFirst))} |`,
    `| harmless vendors whose stopped run reported an interaction FAILED (false alarms), of the runs that wrote a report | ${falseAlarms.length} of ${reported.filter((run) => run.harmful === false).length}${falseAlarms.length ? `: ${names(falseAlarms)}` : ''} |`,
    '',
    ...stopped.filter((run) => run.teardown?.outcome !== 'clean').map(line),
    ...(stopped.every((run) => run.teardown?.outcome === 'clean') ? ['Every one clean.'] : []),
  ];
}

/** `markdown` with its harness section replaced by `section` (appended when it has none). */
export function withSection(markdown: string, section: string): string {
  const start = markdown.indexOf(SECTION_START);
  const end = markdown.indexOf(SECTION_END);
  if (start === -1 || end === -1) return `${markdown.trimEnd()}\n\n${section}`;
  return `${markdown.slice(0, start)}${section.trimEnd()}${markdown.slice(end + SECTION_END.length)}`;
}

/** The harness's section of `markdown`, or '' when it has none. */
export function sectionOf(markdown: string): string {
  const start = markdown.indexOf(SECTION_START);
  const end = markdown.indexOf(SECTION_END);
  return start === -1 || end === -1 ? '' : `${markdown.slice(start, end + SECTION_END.length)}\n`;
}
