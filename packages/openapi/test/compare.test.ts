import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compareContracts, comparePact, formatFindings } from '../src/compare.js';
import { isDocumentError } from '../src/errors/document-error.js';
import type { JsonObject } from '../src/json.js';
import { OPENAPI_DIR, PACTS_DIR } from '../src/output/files.js';

type Interaction = {
  description: string;
  request: { method: string; path: string; headers?: Record<string, string[]> };
  response: { status: number; body?: { content?: Record<string, unknown> } };
};
type Pact = JsonObject & { interactions: Interaction[] };

const V2_PACT = 'print-order-client-print-order-api-v2.json';
const V2_DOCUMENT = 'print-order-api-v2.json';

async function readJson<T>(path: string): Promise<T> {
  return JSON.parse(await readFile(path, 'utf8')) as T;
}

const errors = (findings: readonly { type: string; code: string }[]) =>
  findings.filter((finding) => finding.type === 'error').map((finding) => finding.code);

/** The v2 pact's interaction that reads an order by its numeric id: a 2xx with an order body. */
const readOrder = (pact: Pact) => {
  const interaction = pact.interactions.find(
    (item) => item.description === 'a request for an order by its numeric id',
  );
  if (!interaction?.response.body?.content) throw new Error('The v2 pact lost its read-by-id interaction');
  return interaction;
};

describe("PactFlow's comparator on the committed contracts", () => {
  it('finds every interaction of every pact consistent with its document', async () => {
    const comparisons = await compareContracts(PACTS_DIR, OPENAPI_DIR);
    expect(comparisons.map((comparison) => comparison.document)).toEqual([
      'print-order-api-v1.json',
      'print-order-api-v2.json',
    ]);
    for (const comparison of comparisons) expect(comparison.interactions).toBeGreaterThan(20);
    const findings = formatFindings(comparisons);
    expect(findings, findings).toBe('');
  });
});

/** PactFlow's comparator CLI as a team that publishes the documents runs it: `opc --oas <document> <pact>`. */
const OPC = fileURLToPath(new URL('../node_modules/.bin/opc', import.meta.url));

function runOpc(
  document: string,
  pact: string,
): Promise<{ code: number; results: { type: string; code: string }[] }> {
  return new Promise((resolve, reject) => {
    execFile(OPC, ['--oas', document, pact], { maxBuffer: 64 * 1024 * 1024 }, (error, stdout) => {
      const code = error ? Number((error as { code?: unknown }).code) : 0;
      if (error && !Number.isInteger(code)) return reject(error);
      const lines = stdout.split('\n').filter((line) => line.trim() !== '');
      resolve({
        code,
        results: lines.flatMap((line) => JSON.parse(line) as { type: string; code: string }[]),
      });
    });
  });
}

describe("PactFlow's comparator CLI on the raw committed pacts and documents", () => {
  it.each(['v1', 'v2'])(
    'opc finds no error in the %s pact against its document, the Accept header as sent',
    async (version) => {
      const { code, results } = await runOpc(
        join(OPENAPI_DIR, `print-order-api-${version}.json`),
        join(PACTS_DIR, `print-order-client-print-order-api-${version}.json`),
      );
      expect(errors(results)).toEqual([]);
      expect(code).toBe(0);
    },
    120_000,
  );
});

describe('comparePact', () => {
  let document: JsonObject;
  let pact: Pact;

  beforeAll(async () => {
    document = await readJson<JsonObject>(join(OPENAPI_DIR, V2_DOCUMENT));
    pact = await readJson<Pact>(join(PACTS_DIR, V2_PACT));
  });

  it('fails a pact that expects a response field the document does not have', async () => {
    const mutated = structuredClone(pact);
    const body = readOrder(mutated).response.body?.content as Record<string, unknown>;
    body.loyaltyPoints = 12;
    expect(errors(await comparePact(document, mutated))).toEqual(['response.body.incompatible']);
  });

  it('fails a pact when the document loses a field the pact expects', async () => {
    const mutated = structuredClone(document) as JsonObject & {
      components: { schemas: Record<string, { properties: Record<string, unknown>; required?: string[] }> };
    };
    const order = mutated.components.schemas.OrderDetail;
    if (!order) throw new Error('The v2 document lost its OrderDetail component');
    delete order.properties.reference;
    order.required = order.required?.filter((name) => name !== 'reference');
    const found = errors(await comparePact(mutated, pact));
    expect(found.length).toBeGreaterThan(0);
    expect(new Set(found)).toEqual(new Set(['response.body.incompatible']));
  });

  it('fails a pact whose request goes to a path the document does not have', async () => {
    const mutated = structuredClone(pact);
    const interaction = readOrder(mutated);
    interaction.request.path = '/api/order/1001';
    expect(errors(await comparePact(document, mutated))).toContain('request.path-or-method.unknown');
  });

  it('fails a pact whose request sends another version header than the document names', async () => {
    const mutated = structuredClone(pact);
    const interaction = readOrder(mutated);
    interaction.request.headers = {
      ...interaction.request.headers,
      Accept: ['application/vnd.printdeal-api.v1'],
    };
    expect(errors(await comparePact(document, mutated))).toEqual(['request.version-header.incompatible']);
  });

  it('fails a v2 pact whose request leaves the version header out', async () => {
    const mutated = structuredClone(pact);
    const interaction = readOrder(mutated);
    const { Accept: _dropped, ...rest } = interaction.request.headers ?? {};
    interaction.request.headers = rest;
    expect(errors(await comparePact(document, mutated))).toEqual(['request.version-header.missing']);
  });

  it('fails a pact whose successful request carries no credentials', async () => {
    const mutated = structuredClone(pact);
    const interaction = readOrder(mutated);
    interaction.request.headers = { Accept: ['application/vnd.printdeal-api.v2'] };
    expect(errors(await comparePact(document, mutated))).toContain('request.authorization.missing');
  });

  it('leaves the document and the pact it was given as they were', async () => {
    const documentBefore = JSON.stringify(document);
    const pactBefore = JSON.stringify(pact);
    await comparePact(document, pact);
    expect(JSON.stringify(document)).toBe(documentBefore);
    expect(JSON.stringify(pact)).toBe(pactBefore);
  });
});

describe('compareContracts', () => {
  let scratch: string;

  beforeAll(async () => {
    scratch = await mkdtemp(join(tmpdir(), 'print-contracts-openapi-compare-'));
  });

  afterAll(async () => {
    await rm(scratch, { recursive: true, force: true });
  });

  it('refuses a pact whose provider has no document, so no pact goes unchecked', async () => {
    const pact = await readJson<Pact>(join(PACTS_DIR, V2_PACT));
    await writeFile(
      join(scratch, 'orphan.json'),
      JSON.stringify({ ...pact, provider: { name: 'print-order-api-v3' } }),
    );
    const error = await compareContracts(scratch, OPENAPI_DIR).catch((caught: unknown) => caught);
    expect(isDocumentError(error)).toBe(true);
    expect((error as Error).message).toContain('print-order-api-v3.json');
  });
});
