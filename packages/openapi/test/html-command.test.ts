import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { API_VERSIONS, OPERATION_NAMES, operations } from '@print-contracts/client';
import { descendants, findByCommand, waitUntilGone } from '@print-contracts/test-support';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { documentName } from '../src/document/build-document.js';
import { OPENAPI_DIR, readOpenApiFiles } from '../src/output/files.js';
import { runOpenApiCli } from '../src/run-cli.js';
import { embeddedDefinition, prerenderedText } from './support/html.js';

describe('print-contracts-openapi html', () => {
  const documents = readOpenApiFiles(OPENAPI_DIR);
  let scratch: string;
  let result: { status: number; stdout: string; stderr: string };
  const page = (version: (typeof API_VERSIONS)[number]) =>
    readFileSync(join(scratch, 'html', `${documentName(version)}.html`), 'utf8');
  const document = (version: (typeof API_VERSIONS)[number]) =>
    JSON.parse(documents.get(`${documentName(version)}.json`) ?? '{}') as {
      info: { title: string };
      paths: Record<string, Record<string, { operationId?: string; summary?: string }>>;
    };

  beforeAll(async () => {
    scratch = await mkdtemp(join(tmpdir(), 'print-contracts-openapi-html-test-'));
    mkdirSync(join(scratch, 'html'));
    writeFileSync(join(scratch, 'html', 'index.html'), '<h1>the team site</h1>');
    writeFileSync(join(scratch, 'html', 'print-order-api-v0.html'), '<h1>a retired version</h1>');
    let stdout = '';
    let stderr = '';
    const status = await runOpenApiCli(['html', '--out', 'html'], {
      cwd: scratch,
      stdout: { write: (text: string) => (stdout += text) },
      stderr: { write: (text: string) => (stderr += text) },
    });
    result = { status, stdout, stderr };
  }, 120_000);

  afterAll(async () => {
    await rm(scratch, { recursive: true, force: true });
  });

  it('writes one HTML reference per committed document into --out, exit 0', () => {
    expect(result.status).toBe(0);
    expect(result.stderr).toBe('');
    for (const version of API_VERSIONS) {
      const file = join(scratch, 'html', `${documentName(version)}.html`);
      expect(existsSync(file), file).toBe(true);
      expect(statSync(file).size).toBeGreaterThan(100_000);
      expect(result.stdout).toContain(join('html', `${documentName(version)}.html`));
    }
  });

  it("leaves the other pages of --out alone and removes a retired version's", () => {
    expect(readFileSync(join(scratch, 'html', 'index.html'), 'utf8')).toBe('<h1>the team site</h1>');
    expect(existsSync(join(scratch, 'html', 'print-order-api-v0.html'))).toBe(false);
  });

  it.each(API_VERSIONS)(
    'writes a page for %s that opens with the HTML doctype and names the API',
    (version) => {
      const html = page(version);
      expect(html.trimStart().slice(0, 15).toLowerCase()).toBe('<!doctype html>');
      expect(html).toContain(`<title>${document(version).info.title}`);
    },
  );

  it.each(API_VERSIONS)('writes a page for %s that embeds its committed document', (version) => {
    expect(embeddedDefinition(page(version))).toEqual(document(version));
  });

  it.each(API_VERSIONS)('writes a page for %s that carries every operation of that version', (version) => {
    const definition = embeddedDefinition(page(version)) as ReturnType<typeof document>;
    for (const name of OPERATION_NAMES) {
      const operation = operations[name];
      const found = definition.paths[operation.path]?.[operation.method.toLowerCase()];
      if (operation.versions.includes(version)) {
        expect(found, name).toMatchObject({ operationId: name, summary: operation.summary });
      } else {
        expect(found, name).toBeUndefined();
      }
    }
  });

  it.each(API_VERSIONS)(
    'writes a page for %s pre-rendered with the title and the version header',
    (version) => {
      const text = prerenderedText(page(version));
      expect(text).toContain(document(version).info.title);
      expect(text).toContain(`application/vnd.printdeal-api.${version}`);
    },
  );

  it.each(API_VERSIONS)(
    'writes a page for %s that inlines Redoc instead of loading it from a CDN',
    (version) => {
      expect(page(version)).not.toMatch(/<script[^>]+src=/);
    },
  );

  it('refuses an --out that is a file in one line, exit 2, before rendering', async () => {
    let stderr = '';
    writeFileSync(join(scratch, 'a-file'), '');
    const status = await runOpenApiCli(['html', '--out', 'a-file'], {
      cwd: scratch,
      stdout: { write: () => true },
      stderr: { write: (text: string) => (stderr += text) },
    });
    expect(status).toBe(2);
    expect(stderr).toMatch(/^print-contracts-openapi: --out: cannot write into .*a-file \(EEXIST\)/);
    expect(stderr.trim().split('\n')).toHaveLength(1);
  });

  it('refuses --out on another command in one line, exit 2', async () => {
    let stderr = '';
    const status = await runOpenApiCli(['generate', '--out', 'x'], {
      cwd: scratch,
      stdout: { write: () => true },
      stderr: { write: (text: string) => (stderr += text) },
    });
    expect(status).toBe(2);
    expect(stderr.trim().split('\n')).toHaveLength(1);
  });
});

describe('print-contracts-openapi html, stopped', () => {
  it('ends with 143 on SIGTERM, its Redocly processes gone and nothing written', async () => {
    // Found by an audit: the command took no signal, and its Redocly children wrote the pages
    // after it was told to stop (or outlived it, orphaned).
    const out = await mkdtemp(join(tmpdir(), 'print-contracts-openapi-html-stop-'));
    const stop = new AbortController();
    let stderr = '';
    try {
      const running = runOpenApiCli(['html', '--out', out], {
        cwd: out,
        stdout: { write: () => true },
        stderr: { write: (text: string) => (stderr += text) },
        signal: stop.signal,
      });
      let redocly: number | undefined;
      for (let tries = 0; redocly === undefined && tries < 1_200; tries++) {
        redocly = await findByCommand(await descendants(process.pid), /redocly.*build-docs/);
        if (redocly === undefined) await new Promise((done) => setTimeout(done, 50));
      }
      expect(redocly, 'a Redocly process rendering').toBeDefined();
      stop.abort('SIGTERM');
      expect(await running).toBe(143);
      expect(stderr).toBe('print-contracts-openapi: stopped by SIGTERM; nothing written\n');
      expect(await waitUntilGone([redocly as number])).toEqual([]);
      expect(readdirSync(out)).toEqual([]);
    } finally {
      await rm(out, { recursive: true, force: true });
    }
  }, 120_000);
});
