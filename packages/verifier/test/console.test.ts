import { readFileSync } from 'node:fs';
import { captureIo, workspace } from '@print-contracts/test-support';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPORT_FILES, type RunReport, runVerify } from '../src/index.js';
import { writeFixturePacts } from './helpers/fixture-pact.js';

// biome-ignore lint/suspicious/noControlCharactersInRegex: an ANSI escape is what this looks for.
const ESCAPE = /\u001b\[/;

describe('the console of a verify run', () => {
  let space: Awaited<ReturnType<typeof workspace>>;
  let n = 0;

  /** One run over the fixture pacts; `tty` makes the console stream look like a terminal. */
  const verify = async (
    extra: readonly string[],
    options: { tty?: boolean; env?: Record<string, string> } = {},
  ) => {
    const output = captureIo({ cwd: space.dir, env: options.env });
    const reports = space.path(`reports-${n++}`);
    const io = options.tty ? { ...output.io, stdout: { ...output.io.stdout, isTTY: true } } : output.io;
    const code = await runVerify(['--pact', space.path('pacts'), '--report-dir', reports, ...extra], io);
    const report = JSON.parse(readFileSync(`${reports}/${REPORT_FILES.json}`, 'utf8')) as RunReport;
    return { code, stdout: output.stdout(), stderr: output.stderr(), report };
  };

  beforeAll(async () => {
    space = await workspace();
    await writeFixturePacts(space.path('pacts'));
  });
  afterAll(() => space.remove());

  it('by default prints at most one line per interaction besides the matrix and the summary', async () => {
    const { code, stdout, report } = await verify([]);
    expect(code).toBe(0);
    // The waits stay: they are what a user needs during a long wait. Whether arranging or teardown
    // waits for an order still being created depends on the machine's pace, so they are not counted.
    const waits = /^ {2}(waiting for |order \S+ is still being created: )/;
    const lines = stdout
      .trimEnd()
      .split('\n')
      .filter((line) => !waits.test(line));
    const verdicts = lines.filter((line) => /^ {2}✓ v[12] /.test(line));
    expect(verdicts).toHaveLength(report.totals.total);
    // The header, a line per interaction, the matrix (blank, heading, rule, a row per description),
    // drift (blank and a line), the summary (blank and a line), orders and reports.
    const rows = new Set(report.interactions.map((item) => item.description)).size;
    expect(lines.length).toBeLessThanOrEqual(1 + report.totals.total + 3 + rows + 2 + 2 + 2);
    expect(stdout).not.toMatch(/^ {2}state /m);
    expect(stdout).not.toMatch(/^ {2}→ /m);
    expect(stdout).not.toContain('Teardown:');
  });

  it('with --verbose prints each state arranged, each request replayed and the teardown', async () => {
    const { stdout } = await verify(['--verbose']);
    expect(stdout).toContain('state v1 "an order in production exists" → ready');
    expect(stdout).toMatch(/→ v2 DELETE \/api\/orders\/\d+ → 500/);
    expect(stdout).toMatch(/^Teardown: settling \d+ orders the run created$/m);
    expect(stdout).toMatch(/^Plan: \d+ to replay/m);
  });

  it('aligns the matrix in columns, each as wide as its widest cell', async () => {
    const { stdout } = await verify(['--quiet']);
    const header = stdout.split('\n').find((line) => line.startsWith('Interaction'));
    const rule = stdout.split('\n').find((line) => line.startsWith('-----'));
    expect(header).toMatch(/ {2}v1 {8}v2$/);
    expect(rule).toMatch(/ {2}-{8} {2}-{8}$/);
  });

  it.each([
    ['a piped stream', {}, false],
    ['a terminal with NO_COLOR set', { tty: true, env: { NO_COLOR: '1' } }, false],
    ['a terminal', { tty: true }, true],
  ] as const)('on %s uses colour: %s', async (_what, options, colour) => {
    const { stdout } = await verify(['--only', 'by uuid'], options);
    expect(ESCAPE.test(stdout)).toBe(colour);
  });

  it('with --only replays just the interactions whose description contains the text, states arranged as usual', async () => {
    const { code, report } = await verify(['--only', 'BY UUID', '--only', 'in production']);
    expect(code).toBe(0);
    const descriptions = new Set(report.interactions.map((item) => item.description));
    expect([...descriptions].sort()).toEqual(
      [...descriptions].filter((text) => /by uuid|in production/.test(text)).sort(),
    );
    expect(descriptions.size).toBeGreaterThan(1);
    expect(report.interactions.some((item) => item.arranged.length > 0)).toBe(true);
    expect(report.totals.verified).toBe(report.totals.total);
  });

  it('with an --only that matches nothing exits 2 with one line naming the flag', async () => {
    const output = captureIo({ cwd: space.dir });
    const code = await runVerify(['--pact', space.path('pacts'), '--only', 'no such words'], output.io);
    expect(code).toBe(2);
    expect(output.stderr()).toBe(
      'verify: --only "no such words" matches no interaction\'s description in the pacts (see pnpm verify --help)\n',
    );
  });

  it('writes the kit version into the JSON, JUnit and Markdown reports', async () => {
    const { report } = await verify(['--quiet']);
    const version = (
      JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
        version: string;
      }
    ).version;
    expect(report).toMatchObject({ tool: '@print-contracts/verifier', version });
    const reports = space.path(`reports-${n - 1}`);
    expect(readFileSync(`${reports}/${REPORT_FILES.junit}`, 'utf8')).toContain(
      `<property name="version" value="${version}"/>`,
    );
    expect(readFileSync(`${reports}/${REPORT_FILES.markdown}`, 'utf8')).toContain(
      `@print-contracts/verifier ${version}`,
    );
  });
});
