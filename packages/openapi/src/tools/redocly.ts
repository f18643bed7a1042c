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
 * means findings. Throws `ToolError` when the CLI cannot be started.
 */
export function runRedocly(args: readonly string[], cwd: string): Promise<RedoclyRun> {
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
      { cwd, env, maxBuffer: 64 * 1024 * 1024 },
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
 * The static HTML reference of one document, from Redocly's `build-docs` (Redoc): the page is
 * pre-rendered on the server, so the operations are in the HTML itself, and Redoc's script is
 * inlined, so the one file works offline. Deterministic: same document, same bytes.
 */
export async function renderHtmlReference(
  documentText: string,
  fileStem: string,
  title: string,
): Promise<string> {
  const scratch = await mkdtemp(join(tmpdir(), 'print-contracts-openapi-html-'));
  try {
    const input = join(scratch, `${fileStem}.json`);
    const output = join(scratch, `${fileStem}.html`);
    await writeFile(input, documentText);
    const run = await runRedocly(
      [
        'build-docs',
        input,
        '--output',
        output,
        '--inlineBundle',
        '--title',
        title,
        '--config',
        REDOCLY_CONFIG,
      ],
      scratch,
    );
    if (run.status !== 0) {
      const reason = `${run.stderr}\n${run.stdout}`.trim().split('\n').slice(-1)[0] ?? '';
      throw new ToolError('redocly build-docs', `redocly build-docs failed for ${fileStem}: ${reason}`);
    }
    return await readFile(output, 'utf8');
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}
