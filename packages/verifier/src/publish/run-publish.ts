import { spawn } from 'node:child_process';
import { redact } from '@print-contracts/client';
import { pactCliBinary } from '@print-contracts/consumer-contracts/vocabulary';
import { isVerifierError } from '../errors/verifier-error.js';
import { defaultContractsDir } from '../options/paths.js';
import type { VerifyIo } from '../run-verify.js';
import { PUBLISH_USAGE, parsePublishArgs, publishCommand } from './publish-args.js';

/**
 * `pnpm contracts:publish` as a function: runs `pact broker publish contracts/ …` with the
 * official Pact CLI and resolves with its exit status (2 when it could not start).
 */
export async function runPublishContracts(argv: readonly string[], io: VerifyIo): Promise<number> {
  const secrets = ['PACT_BROKER_TOKEN', 'PACT_BROKER_PASSWORD']
    .map((name) => io.env[name])
    .filter((value): value is string => Boolean(value));
  let options: ReturnType<typeof parsePublishArgs>;
  try {
    options = parsePublishArgs(argv, io.env, io.cwd, defaultContractsDir(io.cwd));
  } catch (error) {
    if (!isVerifierError(error)) throw error;
    io.stderr.write(`contracts:publish: ${redact(error.message, secrets)}\n`);
    return 2;
  }
  if (!options) {
    io.stdout.write(`${PUBLISH_USAGE}\n`);
    return 0;
  }
  const args = publishCommand(options);
  if (options.dryRun) {
    io.stdout.write(
      `pact ${args.map((arg) => (/[\s"']/.test(arg) ? JSON.stringify(arg) : arg)).join(' ')}\n`,
    );
    return 0;
  }
  const child = spawn(pactCliBinary(), args, {
    cwd: io.cwd,
    env: { ...io.env, PACT_DO_NOT_TRACK: 'true' } as NodeJS.ProcessEnv,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => io.stdout.write(redact(chunk, secrets)));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => io.stderr.write(redact(chunk, secrets)));
  return new Promise<number>((resolve) => {
    child.on('error', (error) => {
      io.stderr.write(`contracts:publish: cannot run the Pact CLI: ${error.message}\n`);
      resolve(2);
    });
    child.on('close', (code) => resolve(code ?? 2));
  });
}
