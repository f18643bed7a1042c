export {
  ConsumerContractsError,
  type ConsumerContractsErrorCode,
  ERROR_CODES,
} from './consumer-contracts-error.js';
export { isPactOutputError, PactOutputError } from './pact-output-error.js';
export { isStubServerError, StubServerError } from './stub-server-error.js';
