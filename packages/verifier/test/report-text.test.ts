import { readFileSync } from 'node:fs';
import { captureIo, workspace } from '@print-contracts/test-support';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPORT_FILES, type RunReport, runVerify } from '../src/index.js';
import { junitXml } from '../src/report/junit.js';
import { writeFixturePacts } from './helpers/fixture-pact.js';

/** A description that would forge a line and recolour a terminal, were it printed as it is. */
const HOSTILE =
  'a request for the first page of orders\r\nv2 every interaction: verified \u001b[32m✓\u001b[0m \uffff';

// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what this looks for.
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f]/;

describe('the reports of a pact whose description holds control characters', () => {
  let space: Awaited<ReturnType<typeof workspace>>;
  let stdout: string;

  beforeAll(async () => {
    space = await workspace();
    await writeFixturePacts(space.path('pacts'), ['v2'], (_version, interactions) =>
      interactions.map((interaction, index) =>
        index === 0 ? { ...interaction, description: HOSTILE } : interaction,
      ),
    );
    const output = captureIo({ cwd: space.dir });
    await runVerify(['--pact', space.path('pacts'), '--report-dir', space.path('reports')], output.io);
    stdout = output.stdout();
  });
  afterAll(() => space.remove());

  it('prints them as visible escapes on the console: no forged line, no colour', () => {
    expect(stdout).toContain(
      'a request for the first page of orders\\r\\nv2 every interaction: verified \\u001b[32m✓',
    );
    expect(stdout.split('\n').some((line) => line.startsWith('v2 every interaction'))).toBe(false);
    expect(stdout).not.toMatch(CONTROL);
  });

  it.each([REPORT_FILES.markdown, REPORT_FILES.junit])('writes none of them raw into %s', (file) => {
    const text = readFileSync(space.path('reports', file), 'utf8');
    expect(text).toContain('first page of orders\\r\\nv2');
    expect(text).not.toMatch(CONTROL);
  });

  it('keeps the JUnit XML well-formed: no character XML 1.0 cannot hold (U+FFFF)', () => {
    const text = readFileSync(space.path('reports', REPORT_FILES.junit), 'utf8');
    expect(text).not.toMatch(/[\uffff\ufffe]/);
  });
});

describe('junitXml', () => {
  it('drops what XML 1.0 cannot hold from a vendor text Pact quotes: U+FFFE, U+FFFF, a lone surrogate', () => {
    const failed = {
      key: 'v2 | client | a read',
      version: 'v2',
      consumer: 'client',
      provider: 'print-order-api-v2',
      description: 'a read',
      states: '',
      request: 'GET /api/orders/1',
      verdict: 'failed',
      reason: 'status "in-\ufffe\uffffprogress\ud800" and a pair \ud83d\ude00 kept',
      mismatches: [],
      ms: 1,
    };
    const report = {
      strict: false,
      failOnDrift: false,
      version: '0.0.0',
      durationMs: 1,
      byVersion: { v2: { verified: 0, failed: 1 } },
      interactions: [failed],
    } as unknown as RunReport;
    const xml = junitXml(report);
    expect(xml).toContain('message="status &quot;in-progress&quot; and a pair \ud83d\ude00 kept"');
  });
});
