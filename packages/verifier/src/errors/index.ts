export { ArrangeError, type ArrangeVerdict, isArrangeError } from './arrange-error.js';
export { BrokerError, isBrokerError } from './broker-error.js';
export { isPactFileError, PactFileError } from './pact-file-error.js';
export { isReplayError, ReplayError } from './replay-error.js';
export { isTargetError, TargetError } from './target-error.js';
export { isUnknownStateError, UnknownStateError } from './unknown-state-error.js';
export { isUsageError, UsageError } from './usage-error.js';
export {
  isVerifierError,
  VERIFIER_ERROR_CODES,
  VerifierError,
  type VerifierErrorCode,
} from './verifier-error.js';
