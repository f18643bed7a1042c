import { ENV } from '@print-contracts/client';
import { EXIT_CODES } from '../exit-codes.js';
import { OTHER_SECRET_ENV, OTHER_USER_ID_ENV } from './credentials.js';
import { CREATION_TIMEOUT_MS, DEFAULT_RETRIES } from './parse-args.js';

const minutes = (ms: number) => `${ms / 60_000} min`;

/** The help text of `pnpm verify`. */
export const VERIFY_USAGE = `Usage: pnpm verify [options]

Replays the committed Pact contracts (contracts/*.json) against a target with Pact's
verifier and reports per interaction and per API version.

With no options it starts the sample API in-process (control surface on), verifies both
pacts, prints the matrix, writes the reports and stops the sample API.

Target
  --base-url URL            Verify a running API; the URL ends in /api.
  --mode sample|live        Required with --base-url. sample: a sample-data credential set,
                            whose orders may never be processed. live: https only, only
                            test orders are created, only orders this run created are changed.
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
  --baseline FILE           An earlier run's verify-report.json: each interaction and version is
                            then a new failure, a regression (verified before, not now), fixed
                            or unchanged; a new failure or a regression fails the run.
  --known-findings FILE     Acknowledged findings, each with its reason and expiry date
                            (default: contracts/known-findings/known-findings.json, if present).
                            One in force excuses what it names; an expired one excuses nothing.
  --only TEXT               Replay only the interactions whose description contains TEXT (any
                            case); repeatable. Their provider states are arranged as usual.
  --quiet                   Print only the matrix and the summary.
  --verbose                 Also print each state arranged, each request replayed and the
                            teardown (by default: a line per interaction, the waits, the matrix).
  --openapi DIR             The OpenAPI documents each answer is compared with for drift
                            (default: contracts/openapi/ when present). Every run also writes
                            the exchanges with the target, redacted, as <report-dir>/verify-exchanges.har.
  --fail-on-drift           Exit 1 when an answer shows drift from the OpenAPI description
                            (with --baseline: drift the baseline did not show; otherwise
                            drift findings inform only).

Orders
  --order-fixture FILE      The create body to order with: one JSON create body, or
                            {"v1": body, "v2": body} (default: the kit's example order).
                            testOrder may be left out (it is set true); "testOrder": false is
                            refused (exit 2): the verifier creates test orders only. The
                            reference is replaced by the run's own.
  --cleanup                 Cancel what an interrupted run left, then exit: the orders in the
                            ledger, and those with its run reference where a create got no answer.
                            Reads --ledger (or --report-dir), the credentials, the bounds below.
  --request-timeout MS      Bound on each request to the target (default 10000).
  --retries N               Retries of a request not answered, or answered 503 without
                            Retry-After (default ${DEFAULT_RETRIES}, at most 10; 0: no retries at all). A 429
                            or a 503 with Retry-After is waited out as it asks, up to the
                            --creation-timeout (a cancel: its order's deadline). A create,
                            update or cancel is sent again only after a 429, a 503 or a
                            refused connection: nothing was processed.
  --creation-timeout MS     Bound on waiting for the orders' asynchronous creation, one wait
                            for all of them (default ${minutes(CREATION_TIMEOUT_MS.sample)} sample, ${minutes(CREATION_TIMEOUT_MS.live)} live).
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
  --version                 Print the kit's version.

Exit status
  ${EXIT_CODES.passed}    every verifiable interaction passed
  ${EXIT_CODES.failed}    a contract broke, or an interaction regressed since --baseline, and no known
       finding in force excuses it (with --strict, also: an interaction not verifiable here;
       with --fail-on-drift, also: a drift finding)
  ${EXIT_CODES.notStarted}    the run could not start: bad flags or files, target unreachable or untrusted
  ${EXIT_CODES.targetUnavailable}    the target stopped answering mid-run, after the retries; no contract broke
  ${EXIT_CODES.interrupted}  stopped by SIGINT, ${EXIT_CODES.terminated} stopped by SIGTERM; both cancel what the run created first`;
