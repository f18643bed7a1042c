import { mkdir, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { captureIo, workspace } from '@print-contracts/test-support';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type Baseline,
  type CurrentVerdict,
  classify,
  compareRun,
  type KnownFinding,
  type KnownFindings,
} from '../src/compare/compare.js';
import { isUsageError, runVerify } from '../src/index.js';
import { readBaseline, readKnownFindings } from '../src/options/comparison.js';

const V = 'verified';
const F = 'failed';
const N = 'not-verifiable';
const U = 'target-unavailable';

describe('classify', () => {
  it.each([
    [V, V, 'unchanged'],
    [V, F, 'regression'],
    [V, N, 'regression'],
    [V, U, 'regression'],
    [F, F, 'unchanged'],
    [F, V, 'fixed'],
    [F, N, 'unchanged'],
    [N, F, 'new-failure'],
    [U, F, 'new-failure'],
    [N, V, 'fixed'],
    [U, V, 'fixed'],
    [N, N, 'unchanged'],
    [N, U, 'unchanged'],
    [undefined, F, 'new-failure'],
    [undefined, V, 'new-interaction'],
    [undefined, N, 'new-interaction'],
    [V, undefined, 'gone'],
    [F, undefined, 'gone'],
  ] as const)('classifies %s before and %s now as %s', (before, now, kind) => {
    expect(classify(before, now)).toBe(kind);
  });
});

const verdict = (version: string, description: string, value: string): CurrentVerdict => ({
  key: `${version} | client | ${description}`,
  version,
  description,
  verdict: value,
});

const baselineOf = (verdicts: CurrentVerdict[]): Baseline => ({
  file: 'reports/verify-report.json',
  startedAt: '2026-11-23T03:17:00.000Z',
  verdicts,
  drift: [],
});

const known = (entry: Partial<KnownFinding>): KnownFindings => ({
  file: 'known-findings.json',
  findings: [
    {
      version: 'v1',
      interaction: 'a request for an order',
      pattern: false,
      reason: 'v1 was shut down on 2020-09-11',
      expires: '2027-06-30',
      ...entry,
    },
  ],
});

const TODAY = { strict: false, today: '2026-11-24' };

describe('compareRun', () => {
  it('compares nothing without a baseline or known findings', () => {
    expect(
      compareRun([verdict('v1', 'a', F)], { baseline: undefined, knownFindings: undefined }, TODAY),
    ).toBe(undefined);
  });

  it('fails on a regression and a new failure, not on what was fixed or stayed verified', () => {
    const before = baselineOf([
      verdict('v2', 'shipped', V),
      verdict('v2', 'discount', N),
      verdict('v2', 'list', F),
      verdict('v2', 'read', V),
    ]);
    const now = [
      verdict('v2', 'shipped', N),
      verdict('v2', 'discount', F),
      verdict('v2', 'list', V),
      verdict('v2', 'read', V),
    ];
    const result = compareRun(now, { baseline: before, knownFindings: undefined }, TODAY);
    expect(result?.fails).toBe(true);
    expect(result?.counts).toMatchObject({ regressions: 1, newFailures: 1, fixed: 1, gone: 0 });
    expect(result?.changes.map((row) => [row.description, row.kind, row.fails])).toEqual([
      ['shipped', 'regression', true],
      ['discount', 'new-failure', true],
      ['list', 'fixed', false],
    ]);
  });

  it('passes when nothing regressed, even with interactions gone and new ones verified', () => {
    const before = baselineOf([verdict('v2', 'old', V), verdict('v1', 'not run now', V)]);
    const result = compareRun(
      [verdict('v2', 'new', V)],
      { baseline: before, knownFindings: undefined },
      TODAY,
    );
    expect(result?.fails).toBe(false);
    // A version this run did not verify is no interaction gone.
    expect(result?.changes.map((row) => [row.description, row.kind])).toEqual([
      ['new', 'new-interaction'],
      ['old', 'gone'],
    ]);
  });

  it('lists as gone the interactions of a version asked for whose pacts are gone tonight', () => {
    // Found by an audit: the broker held no v1 pact one night, and the comparison said nothing.
    const before = baselineOf([verdict('v2', 'read', V), verdict('v1', 'read', V)]);
    const result = compareRun(
      [verdict('v2', 'read', V)],
      { baseline: before, knownFindings: undefined },
      { ...TODAY, versions: ['v1', 'v2'] },
    );
    expect(result?.changes.map((row) => [row.version, row.description, row.kind])).toEqual([
      ['v1', 'read', 'gone'],
    ]);
    expect(result?.counts.gone).toBe(1);
  });

  it('keeps an unacknowledged FAILED failing although it failed the night before too', () => {
    const before = baselineOf([verdict('v2', 'list', F)]);
    const result = compareRun(
      [verdict('v2', 'list', F)],
      { baseline: before, knownFindings: undefined },
      TODAY,
    );
    expect(result?.fails).toBe(true);
    expect(result?.changes).toEqual([]);
  });

  it('excuses a FAILED that an acknowledgement in force names, through the day it expires', () => {
    const result = compareRun(
      [verdict('v1', 'a request for an order', F), verdict('v2', 'a request for an order', V)],
      { baseline: undefined, knownFindings: known({ expires: '2026-11-24' }) },
      TODAY,
    );
    expect(result?.fails).toBe(false);
    expect(result?.changes).toEqual([
      expect.objectContaining({
        version: 'v1',
        known: { reason: 'v1 was shut down on 2020-09-11', expires: '2026-11-24' },
      }),
    ]);
    expect(result?.acknowledgements).toEqual([expect.objectContaining({ status: 'in-force', matched: 1 })]);
  });

  it('excuses nothing once the acknowledgement expired, and says so', () => {
    const result = compareRun(
      [verdict('v1', 'a request for an order', F)],
      { baseline: undefined, knownFindings: known({ expires: '2026-11-23' }) },
      TODAY,
    );
    expect(result?.fails).toBe(true);
    expect(result?.counts.expired).toBe(1);
    expect(result?.acknowledgements[0]).toMatchObject({ status: 'expired', matched: 1 });
  });

  it('reports an acknowledgement whose finding no longer occurs as unused, without failing', () => {
    const result = compareRun(
      [verdict('v1', 'a request for an order', V)],
      { baseline: undefined, knownFindings: known({}) },
      TODAY,
    );
    expect(result?.fails).toBe(false);
    expect(result?.acknowledgements[0]).toMatchObject({ status: 'unused', matched: 0 });
  });

  it('matches a pattern within its version only, and excuses a regression it names', () => {
    const before = baselineOf([
      verdict('v1', 'a request to cancel', V),
      verdict('v2', 'a request to cancel', V),
    ]);
    const result = compareRun(
      [verdict('v1', 'a request to cancel', N), verdict('v2', 'a request to cancel', N)],
      { baseline: before, knownFindings: known({ interaction: '^a request', pattern: true }) },
      TODAY,
    );
    expect(result?.changes.map((row) => [row.version, row.kind, row.known !== undefined, row.fails])).toEqual(
      [
        ['v1', 'regression', true, false],
        ['v2', 'regression', false, true],
      ],
    );
  });

  it('counts an interaction not verifiable here as a finding under strict only', () => {
    const inputs = { baseline: undefined, knownFindings: known({ interaction: 'x' }) };
    expect(compareRun([verdict('v1', 'y', N)], inputs, TODAY)?.fails).toBe(false);
    expect(compareRun([verdict('v1', 'y', N)], inputs, { ...TODAY, strict: true })?.fails).toBe(true);
  });
});

describe('the comparison files', () => {
  let space: Awaited<ReturnType<typeof workspace>>;

  beforeAll(async () => {
    space = await workspace();
    await writeFile(space.path('not-json.json'), '{ nope');
    await writeFile(space.path('pact.json'), JSON.stringify({ consumer: { name: 'x' }, interactions: [] }));
    await writeFile(
      space.path('old-report.json'),
      JSON.stringify({
        tool: '@print-contracts/verifier',
        startedAt: '2026-11-23T03:17:00.000Z',
        byVersion: { v2: {} },
        interactions: [
          { version: 'v2', consumer: 'c', description: 'd', states: 'an order exists', verdict: 'verified' },
        ],
      }),
    );
    const finding = { version: 'v1', interaction: 'x', reason: 'known', expires: '2027-06-30' };
    await writeFile(space.path('known-ok.json'), JSON.stringify({ findings: [finding] }));
    await writeFile(space.path('known-bom.json'), `\uFEFF${JSON.stringify({ findings: [finding] })}`);
    await writeFile(
      space.path('known-no-date.json'),
      JSON.stringify({ findings: [{ ...finding, expires: 'soon' }] }),
    );
    await writeFile(
      space.path('known-bad-day.json'),
      JSON.stringify({ findings: [{ ...finding, expires: '2027-02-30' }] }),
    );
    await writeFile(
      space.path('known-both.json'),
      JSON.stringify({ findings: [{ ...finding, interactionPattern: 'x' }] }),
    );
    await writeFile(
      space.path('known-regex.json'),
      JSON.stringify({
        findings: [{ version: 'v1', interactionPattern: '(', reason: 'r', expires: '2027-06-30' }],
      }),
    );
    await writeFile(
      space.path('known-v3.json'),
      JSON.stringify({ findings: [{ ...finding, version: 'v3' }] }),
    );
    await writeFile(
      space.path('known-no-reason.json'),
      JSON.stringify({ findings: [{ ...finding, reason: ' ' }] }),
    );
  });
  afterAll(() => space.remove());

  it('reads a baseline without keys (an older report) by the fields that name each interaction', () => {
    const baseline = readBaseline('old-report.json', space.dir);
    expect(baseline).toMatchObject({ file: 'old-report.json' });
    expect(baseline.verdicts).toEqual([
      { key: 'v2 | c | d | given an order exists', version: 'v2', description: 'd', verdict: 'verified' },
    ]);
  });

  it('reads a known-findings file', () => {
    expect(readKnownFindings('known-ok.json', space.dir).findings).toEqual([
      { version: 'v1', interaction: 'x', pattern: false, reason: 'known', expires: '2027-06-30' },
    ]);
  });

  it('reads a known-findings file an editor saved with a UTF-8 byte order mark', () => {
    expect(readKnownFindings('known-bom.json', space.dir).findings).toEqual(
      readKnownFindings('known-ok.json', space.dir).findings,
    );
  });

  it.each([
    ['missing.json', /--baseline missing\.json cannot be read \(ENOENT\); give the verify-report\.json/],
    ['not-json.json', /--baseline not-json\.json is not JSON; give/],
    ['pact.json', /--baseline pact\.json is not a pnpm verify JSON report: tool /],
  ])('refuses the baseline %s with one line naming the fix', (file, want) => {
    const error = (() => {
      try {
        readBaseline(file, space.dir);
      } catch (caught) {
        return caught;
      }
    })();
    expect(isUsageError(error)).toBe(true);
    expect((error as Error).message).toMatch(want);
  });

  it.each([
    ['known-no-date.json', /findings\[0\]\.expires must be a date written YYYY-MM-DD/],
    ['known-bad-day.json', /findings\[0\]\.expires must be a real date/],
    ['known-both.json', /findings\[0\] must name the interaction by exactly one/],
    ['known-regex.json', /findings\[0\]\.interactionPattern must be a valid regular expression/],
    ['known-v3.json', /findings\[0\]\.version /],
    ['known-no-reason.json', /findings\[0\]\.reason must say why/],
  ])('refuses the known findings %s with one line saying what is wrong', (file, want) => {
    expect(() => readKnownFindings(file, space.dir)).toThrow(want);
  });

  it.each([
    ['--baseline', 'missing.json'],
    ['--baseline', 'not-json.json'],
    ['--baseline', 'pact.json'],
    ['--known-findings', 'known-no-date.json'],
  ])('pnpm verify %s %s exits 2 with one line, before starting anything', async (flag, file) => {
    const output = captureIo({ cwd: space.dir });
    const code = await runVerify([flag, file, '--report-dir', space.path('reports')], output.io);
    expect(code).toBe(2);
    expect(output.stdout()).toBe('');
    expect(output.stderr().trimEnd().split('\n')).toEqual([
      expect.stringMatching(new RegExp(`^verify: ${flag} ${file} `)),
    ]);
  });
});

describe('the committed known findings', () => {
  it("the nightly job's acknowledgements read cleanly and excuse v1 only", () => {
    const vendor = readKnownFindings(
      fileURLToPath(new URL('../../../contracts/known-findings/vendor.json', import.meta.url)),
      process.cwd(),
    );
    expect(vendor.findings.map((finding) => finding.version)).toEqual(['v1']);
    expect(vendor.findings[0]?.expires).toMatch(/^\d{4}-\d{2}-\d{2}$/);
  });

  let space: Awaited<ReturnType<typeof workspace>>;

  beforeAll(async () => {
    // A workspace of its own, so that its contracts/ is the default one.
    space = await workspace();
    await writeFile(space.path('pnpm-workspace.yaml'), 'packages: []\n');
    await mkdir(space.path('contracts', 'known-findings'), { recursive: true });
    await writeFile(space.path('contracts', 'known-findings', 'known-findings.json'), '{"findings": [{}]}');
  });
  afterAll(() => space.remove());

  it('are read by default from contracts/known-findings/known-findings.json, and checked like any', async () => {
    const output = captureIo({ cwd: space.dir });
    const code = await runVerify(['--report-dir', space.path('reports')], output.io);
    expect(code).toBe(2);
    expect(output.stderr()).toMatch(
      /^verify: the known findings contracts\/known-findings\/known-findings\.json is not a known-findings file: findings\[0\]\.version /,
    );
  });
});
