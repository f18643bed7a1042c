import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { API_VERSIONS } from '@print-contracts/client';
import {
  PLACEHOLDER_CREDENTIALS,
  pactFileName,
  providerName,
  VENDOR_EXAMPLES,
} from '@print-contracts/client/kit';
import { pactCliBinary } from '@print-contracts/consumer-contracts/pact-cli';
import { startDocsStandIn } from '@print-contracts/sample-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const run = promisify(execFile);
const contracts = new URL('../../contracts/', import.meta.url);

interface Interaction {
  description: string;
  request: { method: string; query?: Record<string, unknown> };
  response: { status: number };
}

/**
 * The interactions whose request a documented example answers: every success expected of a
 * request without a query. A page, a status filter or a page past the end asks for
 * something other than the docs' one list, and a refusal has no documented body.
 */
const answeredByExamples = (interaction: Interaction) =>
  interaction.response.status < 300 && Object.keys(interaction.request.query ?? {}).length === 0;

const escapeRegex = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

describe("the contracts' matching rules against the vendor's documented answers", () => {
  let standIn: Awaited<ReturnType<typeof startDocsStandIn>>;
  let states: ReturnType<typeof createServer>;
  let statesUrl: string;
  let scratch: string;

  beforeAll(async () => {
    standIn = await startDocsStandIn({ credentials: [PLACEHOLDER_CREDENTIALS] });
    // Provider states hand the verifier the documented order's id and a listed uuid to inject.
    const [listed] = VENDOR_EXAMPLES.orderList.body.orders;
    const values = JSON.stringify({ id: VENDOR_EXAMPLES.orderDetail.body.id, uuid: listed.uuid });
    states = createServer((req, res) => {
      req.resume().on('end', () => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(values);
      });
    });
    await new Promise<void>((resolve) => states.listen(0, '127.0.0.1', resolve));
    statesUrl = `http://127.0.0.1:${(states.address() as AddressInfo).port}/states`;
    scratch = await mkdtemp(join(tmpdir(), 'documented-answers-'));
  });

  afterAll(async () => {
    await standIn?.close();
    await new Promise((resolve) => states?.close(resolve));
    await rm(scratch, { recursive: true, force: true });
  });

  it.each(API_VERSIONS)(
    'the official pact verifier passes every %s interaction a documented example answers',
    async (version) => {
      const file = new URL(pactFileName(version), contracts);
      const pact = JSON.parse(await readFile(file, 'utf8')) as { interactions: Interaction[] };
      const chosen = pact.interactions.filter(answeredByExamples).map((item) => item.description);
      // Reads, creates, updates and cancels: every operation of the table has one.
      expect(chosen.length).toBeGreaterThanOrEqual(10);
      const report = join(scratch, `${version}.json`);
      const { port } = new URL(standIn.url);
      const outcome = await run(
        pactCliBinary(),
        [
          'verifier',
          '--file',
          fileURLToPath(file),
          '--hostname',
          '127.0.0.1',
          '--port',
          port,
          '--provider-name',
          providerName(version),
          '--state-change-url',
          statesUrl,
          '--filter-description',
          `^(${chosen.map(escapeRegex).join('|')})$`,
          '--json',
          report,
          '--no-colour',
        ],
        { env: { ...process.env, PACT_DO_NOT_TRACK: 'true' } },
      ).catch((error: { code?: number; stdout?: string }) => error);
      const result = JSON.parse(await readFile(report, 'utf8')) as {
        result: boolean;
        interactionResults: { description: string; result: string }[];
        errors: { interaction: string; mismatch: unknown }[];
      };
      expect(result.errors).toEqual([]);
      expect(result.interactionResults.map((item) => item.description).sort()).toEqual([...chosen].sort());
      expect(result.interactionResults.every((item) => item.result === 'OK')).toBe(true);
      expect((outcome as { code?: number }).code ?? 0).toBe(0);
    },
  );
});
