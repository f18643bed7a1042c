import type { RunReport } from '@print-contracts/verifier';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../src/processes.js';
import {
  checkKitReport,
  checkPactCliReport,
  type PactCliReport,
  phasesOf,
  readContracts,
} from '../src/verify-checks.js';

/** The fields of a kit report the check reads; the rest does not matter to it. */
function kitReport(
  totals: Partial<RunReport['totals']> = {},
  rest: { exitCode?: number; open?: number } = {},
): RunReport {
  return {
    exitCode: rest.exitCode ?? 0,
    totals: { verified: 57, failed: 0, notVerifiable: 0, targetUnavailable: 0, total: 57, ...totals },
    teardown: { created: 20, settled: 20, open: rest.open ?? 0, problems: [], ledger: undefined },
  } as unknown as RunReport;
}

describe("the check of the kit's report", () => {
  it('accepts a run that verified every interaction and left no order open', () => {
    expect(() => checkKitReport(kitReport(), { interactions: 57 })).not.toThrow();
  });

  it('accepts interactions not verifiable here only as many as allowed', () => {
    const report = kitReport({ verified: 53, notVerifiable: 4 });
    expect(() => checkKitReport(report, { interactions: 57, notVerifiable: 4 })).not.toThrow();
    expect(() => checkKitReport(report, { interactions: 57 })).toThrow(/4 not verifiable here/);
  });

  it.each([
    ['a failed interaction', kitReport({ verified: 56, failed: 1 }, { exitCode: 1 }), /1 failed/],
    ['an unavailable target', kitReport({ verified: 56, targetUnavailable: 1 }), /target unavailable/],
    ['fewer interactions than the pacts hold', kitReport({ verified: 50, total: 50 }), /50 interactions/],
    ['a non-zero exit', kitReport({}, { exitCode: 2 }), /exit code 2/],
    ['an order left open', kitReport({}, { open: 1 }), /1 orders left open/],
  ])('rejects %s', (_, report, reason) => {
    expect(() => checkKitReport(report, { interactions: 57 })).toThrow(reason);
  });
});

describe("the check of the official verifier's JSON report", () => {
  const ok = (description: string) => ({ description, result: 'OK' });
  const report = (results: PactCliReport['interactionResults'], result = true): PactCliReport => ({
    result,
    errors: [],
    interactionResults: results,
  });

  it('accepts exactly the expected interactions, all OK, in any order', () => {
    expect(() => checkPactCliReport(report([ok('b'), ok('a')]), ['a', 'b'])).not.toThrow();
  });

  it('rejects a mismatch, a missing or an extra interaction, and a failed result', () => {
    expect(() =>
      checkPactCliReport(report([ok('a'), { description: 'b', result: 'Failed' }]), ['a', 'b']),
    ).toThrow(/not OK: b/);
    expect(() => checkPactCliReport(report([ok('a')]), ['a', 'b'])).toThrow(/1 interactions replayed, 2/);
    expect(() => checkPactCliReport(report([ok('a'), ok('c')]), ['a', 'b'])).toThrow(/replayed/);
    expect(() => checkPactCliReport(report([ok('a')], false), ['a'])).toThrow(/result false/);
  });
});

describe('the phases of a kit run', () => {
  const at = (second: number, text: string) => ({ at: second, text });

  it('splits at the first replayed request and at teardown', () => {
    const lines = [
      at(0.3, 'Contract verification of http://127.0.0.1:1/api (mode sample, control surface off)'),
      at(31, '  state v1 "an order exists" → ready: created test order 5000001 (30.2 s)'),
      at(31.1, '  → v1 GET /api/orders/5000001 → 200 (101 ms)  a request for an order by its numeric id'),
      at(33, 'Teardown: settling 20 orders the run created'),
      at(63, 'Orders: 20 created at the target, 18 settled.'),
    ];
    expect(phasesOf(lines, 64)).toEqual({ arrange: 31.1, replay: 33 - 31.1, settle: 31 });
  });

  it('says nothing when the output does not show the phases (a --quiet run)', () => {
    expect(phasesOf([at(1, '57 verified, 0 failed')], 2)).toBeUndefined();
  });
});

describe('the committed contracts', () => {
  it('are read as two pacts, v1 and v2, with their interactions', async () => {
    const pacts = await readContracts(REPO_ROOT);
    expect(pacts.map((pact) => pact.provider)).toEqual(['print-order-api-v1', 'print-order-api-v2']);
    for (const pact of pacts) {
      expect(pact.file).toMatch(/^contracts\/.+\.json$/);
      expect(pact.descriptions.length).toBeGreaterThan(0);
    }
  });
});
