import { redact } from '@print-contracts/client';
import { isUsageError } from '../errors/usage-error.js';
import { BROKER_EXIT_CODES, type BrokerIo, runBrokerCommand } from './broker-command.js';
import { brokerSecrets } from './broker-options.js';
import { CAN_I_DEPLOY_USAGE, parseCanIDeployArgs } from './can-i-deploy-args.js';

/**
 * `pnpm can-i-deploy` as a function: asks the Pact Broker with the official
 * `pact broker can-i-deploy`, within `--timeout` (default 60 s), and resolves with a status of
 * `BROKER_EXIT_CODES` (0 deployable, 1 not, 2 bad arguments, 3 no answer from the broker,
 * 130/143 stopped by a signal).
 */
export async function runCanIDeploy(argv: readonly string[], io: BrokerIo): Promise<number> {
  let options: ReturnType<typeof parseCanIDeployArgs>;
  try {
    options = parseCanIDeployArgs(argv, io.env);
  } catch (error) {
    if (!isUsageError(error)) throw error;
    io.stderr.write(`can-i-deploy: ${redact(error.message, brokerSecrets(io.env))} (see --help)\n`);
    return BROKER_EXIT_CODES.notStarted;
  }
  if (!options) {
    io.stdout.write(`${CAN_I_DEPLOY_USAGE}\n`);
    return BROKER_EXIT_CODES.ok;
  }
  return runBrokerCommand(
    {
      tool: 'can-i-deploy',
      purpose: `asking the Pact Broker at ${options.brokerUrl} whether ${options.question}`,
      brokerUrl: options.brokerUrl,
      args: options.args,
      timeoutMs: options.timeoutMs,
    },
    io,
  );
}
