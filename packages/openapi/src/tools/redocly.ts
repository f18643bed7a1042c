import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ToolError } from '../errors/tool-error.js';

/** The Redocly configuration of the kit: which lint rules are off and why, and the HTML's options. */
export const REDOCLY_CONFIG = fileURLToPath(new URL('../../redocly.yaml', import.meta.url));

/** What one run of the Redocly CLI printed, and its exit status. */
export interface RedoclyRun {
  readonly status: number;
  readonly stdout: string;
  readonly stderr: string;
}

/**
 * Runs the Redocly CLI with `args` on this Node. Telemetry and the update check are off (both
 * would reach the network); a non-zero status is returned, not thrown, since for `lint` it
 * means findings. Throws `ToolError` when the CLI cannot be started, or `signal` stopped it (the
 * Redocly process is killed then: nothing it started outlives the command).
 */
export function runRedocly(args: readonly string[], cwd: string, signal?: AbortSignal): Promise<RedoclyRun> {
  const cli = join(
    dirname(createRequire(import.meta.url).resolve('@redocly/cli/package.json')),
    'bin',
    'cli.js',
  );
  const env = {
    ...process.env,
    REDOCLY_TELEMETRY: 'off',
    REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true',
    REDOCLY_SUPPRESS_NOTIFICATIONS: 'true',
    NO_COLOR: '1',
  };
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      [cli, ...args],
      { cwd, env, maxBuffer: 64 * 1024 * 1024, ...(signal ? { signal } : {}) },
      (error, stdout, stderr) => {
        const status = error && typeof error.code === 'number' ? error.code : error ? -1 : 0;
        if (status === -1) {
          reject(
            new ToolError(`redocly ${args[0] ?? ''}`, `Could not run the Redocly CLI: ${error?.message}`),
          );
        } else resolve({ status, stdout, stderr });
      },
    );
  });
}

/**
 * The static HTML reference of each document (`print-order-api-v2.json` → `print-order-api-v2.html`),
 * from Redocly's `build-docs` (Redoc), one process per document, in parallel: the page is
 * pre-rendered on the server, so the operations are in the HTML itself, and Redoc's script is
 * inlined, so the one file works offline. Deterministic: same document, same bytes. Not
 * committed: 2.5 MB each, rewritten whenever Redoc changes; `print-contracts-openapi html`
 * writes them on demand.
 */
export async function renderHtmlReferences(
  documents: ReadonlyMap<string, string>,
  signal?: AbortSignal,
): Promise<Map<string, string>> {
  const scratch = await mkdtemp(join(tmpdir(), 'print-contracts-openapi-html-'));
  const render = async (file: string, text: string) => {
    const stem = file.replace(/\.json$/, '');
    const { info } = JSON.parse(text) as { info: Record<string, unknown> };
    const input = join(scratch, `${stem}.json`);
    const output = join(scratch, `${stem}.html`);
    await writeFile(input, text);
    const run = await runRedocly(
      [
        'build-docs',
        input,
        '--output',
        output,
        '--inlineBundle',
        '--title',
        `${String(info.title)} ${String(info.version)}`,
        '--config',
        REDOCLY_CONFIG,
      ],
      scratch,
      signal,
    );
    if (run.status !== 0) {
      const reason = `${run.stderr}\n${run.stdout}`.trim().split('\n').slice(-1)[0] ?? '';
      throw new ToolError('redocly build-docs', `redocly build-docs failed for ${stem}: ${reason}`);
    }
    return [`${stem}.html`, await readFile(output, 'utf8')] as const;
  };
  try {
    const pages = await Promise.all([...documents].map(([file, text]) => render(file, text)));
    return new Map(pages.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}
