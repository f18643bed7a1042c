import { execFile } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ToolError } from '../errors/tool-error.js';

/** The Redocly configuration of the kit: which lint rules are off and why, and the HTML's options. */
export const REDOCLY_CONFIG = fileURLToPath(new URL('../../redocly.yaml', import.meta.url));

/** Where the Redocly CLI of this package's dependencies lives. */
function redoclyBin(): string {
  const require = createRequire(import.meta.url);
  return join(dirname(require.resolve('@redocly/cli/package.json')), 'bin', 'cli.js');
}

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
      [redoclyBin(), ...args],
      { cwd, env, maxBuffer: 64 * 1024 * 1024 },
      (error, stdout, stderr) => {
        const status = error && typeof error.code === 'number' ? error.code : error ? -1 : 0;
        if (status === -1) {
          reject(
            new ToolError(`redocly ${args[0] ?? ''}`, `Could not run the Redocly CLI: ${error?.message}`),
          );
          return;
        }
        resolve({ status, stdout, stderr });
      },
    );
  });
}
