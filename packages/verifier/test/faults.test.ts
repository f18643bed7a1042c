import { existsSync, readFileSync } from 'node:fs';
import type { FaultRule, SampleApi } from '@print-contracts/sample-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunReport, runVerify } from '../src/index.js';
import { writeFixturePacts } from './helpers/fixture-pact.js';
import { captureIo } from './helpers/io.js';
import { ordersOf } from './helpers/orders.js';
import { credentialEnv, sampleTarget, verifyArgs } from './helpers/targets.js';
import { workspace } from './helpers/workspace.js';

/** Each fault on `GET /orders`, and what the failed interaction's reason must say. */
const FAULTS: readonly { name: string; rule: FaultRule; reason: RegExp }[] = [
  {
    name: 'latency beyond the timeout',
    rule: { latencyMs: 1_000 },
    reason: /the target timed out waiting for the answer/,
  },
  { name: 'a 503', rule: { status: 503 }, reason: /^status: expected 200 but was 503/ },
  {
    name: 'a 429 with Retry-After',
    rule: { status: 429, retryAfterSeconds: 1 },
    reason: /^status: expected 200 but was 429/,
  },
  { name: 'a dropped connection', rule: { drop: true }, reason: /the target dropped the connection/ },
  {
    name: 'a truncated body',
    rule: { truncate: true },
    reason: /the target closed the connection before the body was complete \(truncated answer\)/,
  },
  {
    name: 'a non-JSON body',
    rule: { nonJson: true },
    reason: /^body: Expected a body of 'application\/json'/,
  },
  { name: 'a 200 that breaks the schema', rule: { badSchema: true }, reason: /^body \$/ },
];

describe('the verifier against a target with faults on GET /orders', () => {
  let space: Awaited<ReturnType<typeof workspace>>;
  let api: SampleApi;

  beforeAll(async () => {
    space = await workspace();
    await writeFixturePacts(space.path('pacts'), ['v1']);
    api = await sampleTarget();
  });
  afterAll(async () => {
    await api.close();
    await space.remove();
  });

  for (const [index, { name, rule, reason }] of FAULTS.entries()) {
    it(`reports ${name} as that interaction's failure, tears down and leaves the ledger empty`, async () => {
      api.setFaults([{ operation: 'listOrders', ...rule }]);
      const reports = space.path(`fault-${index}`);
      const output = captureIo({ cwd: space.dir, env: credentialEnv(api) });
      const code = await runVerify(
        verifyArgs({
          baseUrl: api.url,
          mode: 'sample',
          control: true,
          pact: space.path('pacts'),
          reports,
          extra: ['--request-timeout', '400'],
        }),
        output.io,
      );
      api.setFaults([]);

      expect(output.stderr()).toBe('');
      expect(code).toBe(1);
      const report = JSON.parse(readFileSync(`${reports}/verify-report.json`, 'utf8')) as RunReport;
      const list = report.interactions.find(
        (item) => item.description === 'a request for the first page of orders',
      );
      expect(list?.verdict).toBe('failed');
      expect(list?.reason).toMatch(reason);
      expect(
        report.interactions.find((item) => item.description === 'a request for an order by id')?.verdict,
      ).toBe('verified');
      expect(existsSync(`${reports}/verify-ledger.jsonl`)).toBe(false);
      expect((await ordersOf(api)).filter((order) => order.status !== 'cancelled')).toEqual([]);
    });
  }
});
