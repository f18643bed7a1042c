import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildOpenApiDocument } from '../src/document/build-document.js';
import type { JsonObject } from '../src/json.js';
import { serialiseDocument } from '../src/output/files.js';
import { runOpenApiCli } from '../src/run-cli.js';

const git = promisify(execFile);

type Document = JsonObject & {
  components: { schemas: Record<string, { properties: Record<string, JsonObject>; required?: string[] }> };
};

/** Runs the command in `cwd` (as the pnpm script `env` names, if any) and collects what it printed. */
async function run(argv: string[], cwd: string, env: Record<string, string> = {}) {
  let stdout = '';
  let stderr = '';
  const status = await runOpenApiCli(argv, {
    cwd,
    env,
    stdout: { write: (text: string) => (stdout += text) },
    stderr: { write: (text: string) => (stderr += text) },
  });
  return { status, stdout, stderr };
}

describe('print-contracts-openapi diff', () => {
  let repo: string;

  /** Writes the v2 document as `change` leaves it and commits it. */
  async function commit(message: string, change: (document: Document) => void = () => {}) {
    const document = buildOpenApiDocument('v2') as Document;
    change(document);
    await writeFile(join(repo, 'contracts/openapi/print-order-api-v2.json'), serialiseDocument(document));
    await git('git', ['add', '-A'], { cwd: repo });
    await git('git', ['-c', 'commit.gpgsign=false', 'commit', '-q', '-m', message], { cwd: repo });
  }

  beforeEach(async () => {
    repo = await mkdtemp(join(tmpdir(), 'print-contracts-openapi-git-'));
    await mkdir(join(repo, 'contracts/openapi'), { recursive: true });
    await git('git', ['init', '-q', '-b', 'main'], { cwd: repo });
    await git('git', ['config', 'user.email', 'kit@example.com'], { cwd: repo });
    await git('git', ['config', 'user.name', 'Kit'], { cwd: repo });
    await commit('the document as generated');
  });

  afterEach(async () => {
    await rm(repo, { recursive: true, force: true });
  });

  it('reports a commit that renames a response field as breaking, exit 1', async () => {
    await commit('rename number', (document) => {
      const summary = document.components.schemas.OrderSummary;
      if (!summary) throw new Error('No OrderSummary');
      const { number, ...rest } = summary.properties;
      summary.properties = { ...rest, orderNumber: number as JsonObject };
      summary.required = summary.required?.map((name) => (name === 'number' ? 'orderNumber' : name));
    });
    const result = await run(['diff', 'HEAD~1'], repo);
    expect(result.stdout).toMatch(
      /BREAKING\s+listOrders \(GET \/orders\)\s+response 2XX: orders\[\]\.number\s+removed/,
    );
    expect(result.stdout).toMatch(
      /additive\s+listOrders \(GET \/orders\)\s+response 2XX: orders\[\]\.orderNumber\s+added/,
    );
    expect(result.stdout).toContain(
      '1 breaking, 1 additive, 0 compatible changes in the OpenAPI documents since HEAD~1.',
    );
    expect(result.status).toBe(1);
  });

  it("reports a commit that removes updateOrder's documented 400 as breaking, exit 1", async () => {
    await commit('drop the 400', (document) => {
      const paths = document.paths as Record<string, Record<string, { responses: Record<string, unknown> }>>;
      delete paths['/orders/{id}']?.put?.responses['400'];
    });
    const result = await run(['diff', 'HEAD~1'], repo);
    expect(result.stdout).toMatch(/BREAKING\s+updateOrder \(PUT \/orders\/\{id\}\)\s+response 400\s+removed/);
    expect(result.status).toBe(1);
  });

  it('reports a commit that adds an optional response field as additive, exit 0', async () => {
    await commit('add an optional field', (document) => {
      const summary = document.components.schemas.OrderSummary;
      if (summary) summary.properties.channel = { type: 'string' };
    });
    const result = await run(['diff', 'HEAD~1'], repo);
    expect(result.stdout).toMatch(
      /additive\s+listOrders \(GET \/orders\)\s+response 2XX: orders\[\]\.channel\s+added \(optional\)/,
    );
    expect(result.stdout).toContain('0 breaking, 1 additive, 0 compatible changes');
    expect(result.status).toBe(0);
  });

  it('compares with the main branch by default, and sees uncommitted changes in the work tree', async () => {
    const document = buildOpenApiDocument('v2') as Document;
    delete document.components.schemas.CancelResult?.properties.success;
    await writeFile(join(repo, 'contracts/openapi/print-order-api-v2.json'), serialiseDocument(document));
    const result = await run(['diff'], repo);
    expect(result.stdout).toMatch(
      /BREAKING\s+cancelOrder \(DELETE \/orders\/\{id\}\)\s+response 2XX: success\s+removed/,
    );
    expect(result.stdout).toContain('since main.');
  });

  it('says so when nothing changed', async () => {
    const result = await run(['diff', 'HEAD'], repo);
    expect(result).toEqual({
      status: 0,
      stdout: 'No changes in the OpenAPI documents since HEAD.\n',
      stderr: '',
    });
  });

  it.each([
    [['diff', 'no-such-branch'], 'Unknown git revision "no-such-branch"'],
    [['diff', 'HEAD', 'HEAD~1'], 'diff takes one git revision, got 2'],
    [['publish'], 'unknown command "publish"'],
    [[], 'a command is needed'],
    [['diff', '--since', 'main'], "Unknown option '--since'"],
  ])('refuses %j in one line with exit 2', async (argv, message) => {
    const result = await run(argv, repo);
    expect(result.status).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain(message);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
  });

  it.each([
    { given: ['--help'], want: /^Usage: print-contracts-openapi <command>/ },
    { given: ['--version'], want: /^@print-contracts\/openapi \d+\.\d+\.\d+\n$/ },
    { given: ['diff', '--version'], want: /^@print-contracts\/openapi \d+\.\d+\.\d+\n$/ },
  ])('prints what $given asks for, exit 0', async ({ given, want }) => {
    const result = await run(given, repo);
    expect(result.status).toBe(0);
    expect(result.stderr).toBe('');
    expect(result.stdout).toMatch(want);
  });

  it.each([
    {
      ran: 'pnpm contracts:diff',
      env: { npm_lifecycle_event: 'contracts:diff' },
      want: "contracts:diff: Unknown option '--sicne' (see pnpm contracts:diff --help)\n",
    },
    {
      ran: 'pnpm contracts:html',
      env: { npm_lifecycle_event: 'contracts:html' },
      want: "contracts:html: Unknown option '--sicne' (see pnpm contracts:html --help)\n",
    },
    {
      ran: 'the binary itself',
      env: { npm_lifecycle_event: 'generate' },
      want: "print-contracts-openapi: Unknown option '--sicne' (see print-contracts-openapi --help)\n",
    },
  ])("says a usage error in the kit's one shape, naming $ran", async ({ env, want }) => {
    const result = await run(['diff', '--sicne', 'main'], repo, env);
    expect(result).toEqual({ status: 2, stdout: '', stderr: want });
  });

  it('names the command and leaves out the pointer to --help for an unknown revision', async () => {
    const result = await run(['diff', 'no-such-branch'], repo, { npm_lifecycle_event: 'contracts:diff' });
    expect(result.status).toBe(2);
    expect(result.stderr).toMatch(/^contracts:diff: Unknown git revision "no-such-branch"[^\n]*\n$/);
    expect(result.stderr).not.toContain('--help');
  });
});
