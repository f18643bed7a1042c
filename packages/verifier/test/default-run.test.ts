import { readFileSync } from 'node:fs';
import type { SampleApi } from '@print-contracts/sample-api';
import { captureIo, workspace } from '@print-contracts/test-support';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPORT_FILES, type RunReport, runVerify } from '../src/index.js';
import { spawnCli } from './helpers/cli.js';
import { writeFixturePacts } from './helpers/fixture-pact.js';
import { credentialEnv, sampleTarget, verifyArgs } from './helpers/targets.js';

describe('the default run (no flags)', () => {
  let space: Awaited<ReturnType<typeof workspace>>;
  beforeAll(async () => {
    space = await workspace();
  });
  afterAll(() => space.remove());

  it('verifies every interaction of contracts/ against the embedded sample API, both versions green', async () => {
    const output = captureIo({ cwd: space.dir });
    // Only the report folder moves; the pacts are the repository's contracts/.
    const code = await runVerify(['--report-dir', space.path('reports')], output.io);
    expect(output.stderr()).toBe('');
    expect(code).toBe(0);
    const report = JSON.parse(readFileSync(space.path('reports', REPORT_FILES.json), 'utf8')) as RunReport;
    expect(report.target).toMatchObject({ kind: 'embedded', control: true });
    expect(report.totals.failed).toBe(0);
    expect(report.totals.notVerifiable).toBe(0);
    expect(report.byVersion.v1?.verified).toBeGreaterThan(0);
    expect(report.byVersion.v2?.verified).toBeGreaterThan(0);
    expect(report.teardown.open).toBe(0);
  });

  it('creates no more orders than the interactions that create, change or cancel one, plus one per state of its own kind, says how many, and warns of nothing', async () => {
    // As `pnpm verify` runs it: its own process, whose stderr would show any warning Node prints.
    const run = spawnCli(['--report-dir', space.path('count')], { cwd: space.dir });
    expect(await run.done).toEqual({ code: 0, signal: null });
    expect(run.stderr()).toBe('');
    const report = JSON.parse(readFileSync(space.path('count', REPORT_FILES.json), 'utf8')) as RunReport;
    const changing = report.interactions.filter((item) => /^(POST|PUT|DELETE) /.test(item.request)).length;
    const ownKind = new Set(
      report.interactions
        .filter((item) => /whose creation failed|of another credential set|in production/.test(item.states))
        .map((item) => `${item.version} ${item.states}`),
    ).size;
    expect(report.teardown.created).toBeGreaterThan(0);
    expect(report.teardown.created).toBeLessThanOrEqual(changing + ownKind);
    expect(run.stdout()).toContain(`Orders: ${report.teardown.created} created at the target`);
  });
});

describe('the --strict flag', () => {
  let space: Awaited<ReturnType<typeof workspace>>;
  let api: SampleApi;
  beforeAll(async () => {
    space = await workspace();
    await writeFixturePacts(space.path('pacts'), ['v2']);
    api = await sampleTarget({ control: false });
  });
  afterAll(async () => {
    await api.close();
    await space.remove();
  });

  const run = async (strict: boolean) => {
    const output = captureIo({ cwd: space.dir, env: credentialEnv(api) });
    const flags = verifyArgs({
      baseUrl: api.url,
      mode: 'sample',
      pact: space.path('pacts'),
      reports: space.path(`r-${strict}`),
    });
    const code = await runVerify(strict ? [...flags, '--strict'] : flags, output.io);
    return { code, stdout: output.stdout() };
  };

  it('turns interactions not verifiable here into failures (exit 1)', async () => {
    expect((await run(false)).code).toBe(0);
    expect((await run(true)).code).toBe(1);
    const junit = readFileSync(space.path('r-true', REPORT_FILES.junit), 'utf8');
    expect(junit).toContain('type="not-verifiable"');
  });

  it('says why a run with no failure exits 1: --strict counts the interactions not verifiable here', async () => {
    const { code, stdout } = await run(true);
    expect(code).toBe(1);
    const report = JSON.parse(readFileSync(space.path('r-true', REPORT_FILES.json), 'utf8')) as RunReport;
    expect(report.totals.failed).toBe(0);
    expect(stdout).toContain('not verifiable here (failures under --strict)');
    expect(report.totals.notVerifiable).toBeGreaterThan(0);
    expect(stdout).toMatch(
      /^Exit 1: no contract broke, but \d+ interactions? (was|were) not verifiable here and --strict counts them as failures\.$/m,
    );
    const markdown = readFileSync(space.path('r-true', REPORT_FILES.markdown), 'utf8');
    expect(markdown).not.toContain('the target broke the contract');
    expect(markdown).toContain('no contract broke, but');
    expect(markdown).toContain('--strict counts as failures');
  });
});
