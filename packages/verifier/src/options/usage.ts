import { ENV } from '@print-contracts/client';
import { OTHER_SECRET_ENV, OTHER_USER_ID_ENV } from './credentials.js';

/** The help text of `pnpm verify`. */
export const VERIFY_USAGE = `Usage: pnpm verify [options]

Replays the committed Pact contracts (contracts/*.json) against a target with Pact's
verifier and reports per interaction and per API version.

With no options it starts the sample API in-process (control surface on), verifies both
pacts, prints the matrix, writes the reports and stops the sample API.

Target
  --base-url URL            Verify a running API; the URL ends in /api.
  --mode sample|live        Required with --base-url. live: https only, every order the run
                            creates is a test order, and non-test creates are not replayed.
  --user-id ID              User id (default: ${ENV.userId}).
  --secret-file PATH        Read the secret from a file (default: ${ENV.secret}).
                            The secret is never accepted as an argument.
  --other-user-id ID        A second credential set for the tenant-isolation interactions
  --other-secret-file PATH  (default: ${OTHER_USER_ID_ENV}, ${OTHER_SECRET_ENV}).
  --control                 The target has the sample API's control surface (/__control).
  --processing-delay MS     Embedded sample API only: asynchronous creation delay (default 20).

Contracts and reports
  --api-version v1|v2       Verify one version only (default: both).
  --pact PATH               A pact file or a folder of them; repeatable (default: contracts/).
  --report-dir DIR          Where the JUnit XML, JSON and Markdown reports go (default: reports/).
  --ledger PATH             The ledger of created orders (default: <report-dir>/verify-ledger.jsonl).
  --strict                  Count interactions not verifiable here as failures.
  --quiet                   Print only the matrix and the summary.

Orders
  --cleanup                 Cancel the orders an interrupted run left in the ledger, then exit.
  --request-timeout MS      Bound on each request to the target (default 10000).
  --creation-timeout MS     Bound on waiting for an order's asynchronous creation (default 360000).
  --poll-interval MS        Longest pause between polls of an order being created
                            (default 50 for the embedded sample API, 1000 otherwise).

Pact Broker (instead of contracts/ when PACT_BROKER_BASE_URL or --broker-url is set)
  --broker-url URL          Base URL of the Pact Broker (default: PACT_BROKER_BASE_URL).
                            Auth: PACT_BROKER_TOKEN, or PACT_BROKER_USERNAME and PACT_BROKER_PASSWORD.
  --consumer-version-selector JSON
                            Repeatable (default: {"mainBranch":true} and {"deployedOrReleased":true}).
  --provider-version V      The provider version the results are published for.
  --provider-branch B       The provider's branch, for pending pacts and the published results.
  --publish                 Publish the verification results to the broker (needs --provider-version).

  --help                    Show this help.

Exit status: 0 every verifiable interaction passed, 1 a contract broke, 2 the run could not start.`;
