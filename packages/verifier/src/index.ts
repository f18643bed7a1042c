export { type Arrangement, arrange } from './arrange/arrange.js';
export {
  compareDriftWithBaseline,
  type DriftChanges,
  earlierDriftFindings,
  type MarkedDriftFinding,
} from './drift/baseline.js';
export type { DriftFinding, DriftFindingKind, DriftReport } from './drift/observe-drift.js';
export * from './errors/index.js';
export { EXIT_CODES, type ExitCode, SIGNAL_EXIT_CODES, type StopSignal } from './exit-codes.js';
export { Ledger, type LedgerEntry, type LedgerOutcome, runReference } from './ledger/ledger.js';
export {
  type BrokerAuth,
  type BrokerConnection,
  brokerAuth,
  brokerSecrets,
  checkBrokerUrl,
} from './options/broker-connection.js';
export { OTHER_SECRET_ENV, OTHER_USER_ID_ENV } from './options/credentials.js';
export {
  CREATION_TIMEOUT_MS,
  checkBaseUrl,
  EMBEDDED_PROCESSING_DELAY_MS,
  parseVerifyArgs,
} from './options/parse-args.js';
export { VERIFY_USAGE } from './options/usage.js';
export type {
  BrokerOptions,
  TargetOptions,
  VerifyCommand,
  VerifyOptions,
} from './options/verify-options.js';
export type { LoadedPact, PactInteraction } from './pacts/interaction.js';
export { loadPactFiles, parsePact } from './pacts/load-pacts.js';
export { type Plan, type PlannedInteraction, planRun, type Verdict } from './plan/plan.js';
export { normalisePath, operationOf } from './plan/request-path.js';
export { STATE_ARRANGERS } from './plan/state-arrangers.js';
export type { Replayed } from './replay/replay.js';
export type { Counts, InteractionReport, RunReport } from './report/model.js';
export { REPORT_FILES } from './report/write-reports.js';
export { runVerify, type VerifyIo } from './run-verify.js';
