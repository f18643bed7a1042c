import type { VerifyIo } from '../../src/index.js';

/** An in-process `VerifyIo` that keeps what the run prints. */
export function captureIo(options: {
  env?: Record<string, string | undefined>;
  cwd: string;
  signal?: AbortSignal;
}) {
  let stdout = '';
  let stderr = '';
  const io: VerifyIo = {
    stdout: { write: (text: string) => (stdout += text) },
    stderr: { write: (text: string) => (stderr += text) },
    env: { PACT_DO_NOT_TRACK: 'true', ...options.env },
    cwd: options.cwd,
    ...(options.signal ? { signal: options.signal } : {}),
  };
  return { io, stdout: () => stdout, stderr: () => stderr };
}
