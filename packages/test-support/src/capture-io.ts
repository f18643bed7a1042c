/** An in-process command's streams, environment and interrupt: the shape of `VerifyIo` and `BrokerIo`. */
export interface CapturedIo {
  readonly stdout: { write(text: string): unknown };
  readonly stderr: { write(text: string): unknown };
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly cwd: string;
  readonly signal?: AbortSignal;
}

/** Io for a command run in-process that keeps what it prints. */
export function captureIo(options: {
  env?: Record<string, string | undefined>;
  cwd: string;
  signal?: AbortSignal;
}) {
  let stdout = '';
  let stderr = '';
  const io: CapturedIo = {
    stdout: { write: (text: string) => (stdout += text) },
    stderr: { write: (text: string) => (stderr += text) },
    env: { PACT_DO_NOT_TRACK: 'true', ...options.env },
    cwd: options.cwd,
    ...(options.signal ? { signal: options.signal } : {}),
  };
  return { io, stdout: () => stdout, stderr: () => stderr };
}
