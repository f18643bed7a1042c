import { redact } from '@print-contracts/client';
import { CONSUMER_NAME } from '@print-contracts/consumer-contracts/vocabulary';
import { isVerifierError } from '../errors/verifier-error.js';
import { defaultContractsDir } from '../options/paths.js';
import { BROKER_EXIT_CODES, type BrokerIo, runBrokerCommand } from './broker-command.js';
import { brokerSecrets } from './broker-options.js';
import { PUBLISH_USAGE, parsePublishArgs, publishCommand } from './publish-args.js';

/**
 * `pnpm contracts:publish` as a function: runs `pact broker publish contracts/ …` with the
 * official Pact CLI within `--timeout` (default 60 s), and resolves with a status of
 * `BROKER_EXIT_CODES` (0 published, 1 the Pact CLI failed, 2 bad arguments, 3 no answer from
 * the broker, 130/143 stopped by a signal).
 */
export async function runPublishContracts(argv: readonly string[], io: BrokerIo): Promise<number> {
  const secrets = brokerSecrets(io.env);
  let options: ReturnType<typeof parsePublishArgs>;
  try {
    options = parsePublishArgs(argv, io.env, io.cwd, defaultContractsDir(io.cwd));
  } catch (error) {
    if (!isVerifierError(error)) throw error;
    io.stderr.write(`contracts:publish: ${redact(error.message, secrets)}\n`);
    return BROKER_EXIT_CODES.notStarted;
  }
  if (!options) {
    io.stdout.write(`${PUBLISH_USAGE}\n`);
    return BROKER_EXIT_CODES.ok;
  }
  const args = publishCommand(options);
  if (options.dryRun) {
    io.stdout.write(
      `pact ${args.map((arg) => (/[\s"']/.test(arg) ? JSON.stringify(arg) : arg)).join(' ')}\n`,
    );
    return BROKER_EXIT_CODES.ok;
  }
  const branch = options.branch ? ` on branch ${options.branch}` : '';
  return runBrokerCommand(
    {
      tool: 'contracts:publish',
      purpose: `publishing the pacts in ${options.contractsDir} as ${CONSUMER_NAME} version ${options.consumerVersion}${branch} to the Pact Broker at ${options.brokerUrl}`,
      brokerUrl: options.brokerUrl,
      args,
      timeoutMs: options.timeoutMs,
    },
    io,
  );
}
