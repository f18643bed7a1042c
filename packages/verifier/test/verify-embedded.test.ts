import { existsSync, readFileSync } from 'node:fs';
import { captureIo, workspace } from '@print-contracts/test-support';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPORT_FILES, type RunReport, runVerify } from '../src/index.js';
import { writeFixturePacts } from './helpers/fixture-pact.js';

describe('the verifier against the embedded sample API', () => {
  let space: Awaited<ReturnType<typeof workspace>>;
  let code: number;
  let output: ReturnType<typeof captureIo>;
  let report: RunReport;

  beforeAll(async () => {
    space = await workspace();
    await writeFixturePacts(space.path('pacts'));
    output = captureIo({ cwd: space.dir });
    code = await runVerify(['--pact', space.path('pacts'), '--report-dir', space.path('reports')], output.io);
    report = JSON.parse(readFileSync(space.path('reports', REPORT_FILES.json), 'utf8')) as RunReport;
  });
  afterAll(() => space.remove());

  it('verifies every interaction of both versions and exits 0', () => {
    expect(output.stderr()).toBe('');
    expect(code).toBe(0);
    expect(report.totals).toEqual({
      verified: 20,
      failed: 0,
      pendingFailed: 0,
      notVerifiable: 0,
      targetUnavailable: 0,
      notRun: 0,
      total: 20,
    });
    expect(Object.keys(report.byVersion)).toEqual(['v1', 'v2']);
  });

  it('prints a verdict line per interaction (states and requests only with --verbose) and the matrix', () => {
    const text = output.stdout();
    expect(text).not.toContain('state v1 "an order in production exists" → ready');
    expect(text).toMatch(/^ {2}✓ v1 a request to cancel an order \(\d+ ms\)$/m);
    expect(text).toMatch(/a request for an order by uuid\s+verified\s+verified/);
  });

  it('writes the JUnit XML, JSON and Markdown reports', () => {
    expect(readFileSync(space.path('reports', REPORT_FILES.junit), 'utf8')).toContain(
      '<testsuite name="print-order-api-v2" tests="10" failures="0"',
    );
    expect(readFileSync(space.path('reports', REPORT_FILES.markdown), 'utf8')).toContain(
      '| a request to cancel an order in production | ✅ verified | ✅ verified |',
    );
  });

  it('tears down every order it created and leaves no ledger behind', () => {
    expect(report.teardown.open).toBe(0);
    // Per version: the cancel's own order, the one in production, the replayed create; the failed one closed itself.
    expect(report.teardown.ended).toEqual({ cancelled: 6, 'creation-failed': 2 });
    expect(report.teardown.created).toBe(8);
    expect(output.stdout()).toContain(
      'Orders: 8 created at the target: 6 cancelled, 2 failed creation at the vendor (nothing to cancel); none left open.',
    );
    expect(existsSync(space.path('reports', 'verify-ledger.jsonl'))).toBe(false);
  });
});

describe('the verifier stopped once its teardown is over', () => {
  it('writes its reports, says the run had finished, and keeps its own status', async () => {
    const space = await workspace();
    try {
      await writeFixturePacts(space.path('pacts'));
      const stop = new AbortController();
      const output = captureIo({ cwd: space.dir, signal: stop.signal });
      // The signal lands as the results are printed, the orders already cancelled.
      const stdout = {
        write: (text: string) => {
          if (text.includes('Orders: ')) stop.abort('SIGINT');
          return output.io.stdout.write(text);
        },
      };
      const reports = space.path('reports');
      const args = ['--pact', space.path('pacts'), '--report-dir', reports];
      const code = await runVerify(args, { ...output.io, stdout });
      expect(stop.signal.aborted).toBe(true);
      expect(output.stderr()).toBe(
        '\nSIGINT: the run has finished and torn down: writing its reports, with its own status (again to quit now)…\n',
      );
      expect(code).toBe(0);
      const report = JSON.parse(readFileSync(`${reports}/${REPORT_FILES.json}`, 'utf8')) as RunReport;
      expect(report).toMatchObject({ exitCode: 0, teardown: { open: 0 } });
      expect(report.stoppedBy).toBeUndefined();
      expect(existsSync(`${reports}/${REPORT_FILES.har}`)).toBe(true);
    } finally {
      await space.remove();
    }
  });
});
