import { X509Certificate } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { pactResultSchema, parseDuration, verdictsFrom } from '../src/replay/pact-results.js';
import { PactRunner } from '../src/replay/pact-runner.js';

const result = pactResultSchema.parse({
  result: false,
  interactionResults: [
    { description: 'a', duration: '12ms', interactionKey: 'k1', result: 'OK' },
    { description: 'b', duration: '1s 5ms', interactionKey: 'k2', result: 'Error' },
  ],
  errors: [
    {
      interaction: 'Verifying a pact between c and p Given x - b',
      mismatch: {
        type: 'mismatches',
        mismatches: [
          { type: 'BodyMismatch', path: '$.id', mismatch: 'Expected 3 (Integer) to be equal to 1 (Integer)' },
          { type: 'StatusMismatch', mismatch: 'expected 200 but was 404' },
        ],
      },
    },
  ],
});

describe("Pact's JSON result", () => {
  it('pairs verdicts with interactions in order, status mismatch first', () => {
    expect(
      verdictsFrom(result, [
        { description: 'a', key: 'k1' },
        { description: 'b', key: 'k2' },
      ]),
    ).toEqual([
      { passed: true, mismatches: [], ms: 12 },
      {
        passed: false,
        mismatches: [
          'status: expected 200 but was 404',
          'body $.id: Expected 3 (Integer) to be equal to 1 (Integer)',
        ],
        ms: 1005,
      },
    ]);
  });

  it('refuses to map results whose descriptions or keys are out of step', () => {
    expect(
      verdictsFrom(result, [
        { description: 'b', key: 'k2' },
        { description: 'a', key: 'k1' },
      ]),
    ).toMatch(/result 1 is "a", expected "b"/);
    expect(verdictsFrom(result, [{ description: 'a', key: 'k1' }])).toMatch(/2 results for 1 interactions/);
  });

  it('reads humantime durations', () => {
    expect(parseDuration('2m 3s 4ms')).toBe(123_004);
    expect(parseDuration('4ms 250us')).toBe(4);
  });

  it("reads the decimal durations of the verifier's JSON result", () => {
    // Read as "394s", a 4.4 s replay was reported as taking 394,000 ms.
    expect(parseDuration('4.394s')).toBe(4_394);
    expect(parseDuration('1.5ms')).toBe(2);
    expect(parseDuration('61.25s')).toBe(61_250);
    expect(parseDuration(undefined)).toBeUndefined();
  });
});

describe('the CA store of a replay against loopback', () => {
  it('holds one self-signed certificate and no key, valid for decades: pact-core 20 refuses a store without any', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'trust-nothing-'));
    try {
      const store = PactRunner.trustNothingCaStore(dir);
      const pem = readFileSync(store.file, 'utf8');
      expect(pem.match(/-----BEGIN CERTIFICATE-----/g)).toHaveLength(1);
      expect(pem).not.toMatch(/PRIVATE KEY/);
      const certificate = new X509Certificate(pem);
      expect(certificate.issuer).toBe(certificate.subject);
      expect(certificate.verify(certificate.publicKey)).toBe(true);
      expect(Date.parse(certificate.validTo)).toBeGreaterThan(Date.parse('2100-01-01'));
      expect(readdirSync(store.dir)).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
