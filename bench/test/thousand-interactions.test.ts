import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REPORT_FILES, type RunReport } from '@print-contracts/verifier';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT, run, VERIFIER_CLI } from '../src/processes.js';
import { repeatInteractions } from '../src/thousand-interactions.js';
import { checkKitReport, readContracts } from '../src/verify-checks.js';

const pact = {
  consumer: { name: 'c' },
  interactions: [
    { description: 'read', request: { path: '/a' } },
    { description: 'write', request: { path: '/b' } },
  ],
};

describe('a pact repeated to a size', () => {
  it('holds that many interactions, in order, each described once, the originals untouched', () => {
    const repeated = repeatInteractions(pact, 5);
    expect(repeated.consumer).toEqual(pact.consumer);
    expect(repeated.interactions.map((item) => item.description)).toEqual([
      'read (copy 0)',
      'write (copy 0)',
      'read (copy 1)',
      'write (copy 1)',
      'read (copy 2)',
    ]);
    expect(repeated.interactions.map((item) => item.request.path)).toEqual(['/a', '/b', '/a', '/b', '/a']);
    const [first] = repeated.interactions;
    if (first) first.request.path = '/changed';
    expect(pact.interactions[0]?.request.path).toBe('/a');
    expect(pact.interactions.map((item) => item.description)).toEqual(['read', 'write']);
  });

  it('cannot be made from a pact without interactions', () => {
    expect(() => repeatInteractions({ interactions: [] }, 10)).toThrow(RangeError);
  });

  it('of the committed v2 pact is verified in full by the default `pnpm verify --pact`', async () => {
    const v2 = (await readContracts(REPO_ROOT)).find((committed) => committed.provider.endsWith('-v2'));
    if (!v2) throw new Error('no v2 pact in contracts/');
    const source = JSON.parse(await readFile(join(REPO_ROOT, v2.file), 'utf8'));
    const count = source.interactions.length * 2 + 3;
    const work = await mkdtemp(join(tmpdir(), 'bench-test-repeated-'));
    try {
      const file = join(work, 'repeated.json');
      await writeFile(file, JSON.stringify(repeatInteractions(source, count)));
      await run(process.execPath, [VERIFIER_CLI, '--pact', file, '--report-dir', work, '--quiet']);
      const report = JSON.parse(await readFile(join(work, REPORT_FILES.json), 'utf8')) as RunReport;
      expect(() => checkKitReport(report, { interactions: count })).not.toThrow();
      expect(report.totals.verified).toBe(count);
    } finally {
      await rm(work, { recursive: true, force: true });
    }
  }, 60_000);
});
