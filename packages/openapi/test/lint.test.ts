import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { API_VERSIONS } from '@print-contracts/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildOpenApiDocument, documentName } from '../src/document/build-document.js';
import { OPENAPI_DIR, serialiseDocument } from '../src/output/files.js';
import { REDOCLY_CONFIG, runRedocly } from '../src/tools/redocly.js';

interface LintReport {
  problems: Array<{ ruleId: string; severity: string; message: string }>;
}

/** Redocly's findings for one file, with the kit's configuration. */
async function lint(file: string) {
  const run = await runRedocly(['lint', file, '--config', REDOCLY_CONFIG, '--format', 'json'], OPENAPI_DIR);
  const report = JSON.parse(run.stdout) as LintReport;
  return {
    status: run.status,
    problems: report.problems.map((p) => `${p.severity} ${p.ruleId}: ${p.message}`),
  };
}

describe('Redocly lint', () => {
  let scratch: string;

  beforeAll(async () => {
    scratch = await mkdtemp(join(tmpdir(), 'print-contracts-openapi-lint-'));
  });

  afterAll(async () => {
    await rm(scratch, { recursive: true, force: true });
  });

  it.each(API_VERSIONS)('finds no problem in the committed %s document', async (version) => {
    const result = await lint(join(OPENAPI_DIR, `${documentName(version)}.json`));
    expect(result.problems).toEqual([]);
    expect(result.status).toBe(0);
  });

  it('fails a document without a title whose schema points nowhere', async () => {
    const document = buildOpenApiDocument('v2') as {
      info: Record<string, unknown>;
      components: { schemas: Record<string, unknown> };
    };
    delete document.info.title;
    delete document.components.schemas.OrderSummary;
    const file = join(scratch, 'broken.json');
    await writeFile(file, serialiseDocument(document as never));
    const result = await lint(file);
    expect(result.status).not.toBe(0);
    expect(result.problems.join('\n')).toMatch(/no-unresolved-refs/);
    expect(result.problems.join('\n')).toMatch(/struct/);
  });
});
