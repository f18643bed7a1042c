import { describe, expect, it } from 'vitest';
import { pactResultSchema, parseDuration, verdictsFrom } from '../src/replay/pact-results.js';

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
