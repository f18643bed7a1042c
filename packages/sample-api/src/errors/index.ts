export { ApiAnswerError } from './api-answer-error.js';
export { ClientGoneError, isClientGoneError } from './client-gone-error.js';
export { isSampleApiConfigurationError, SampleApiConfigurationError } from './configuration-error.js';
export {
  isSampleApiError,
  SAMPLE_API_ERROR_CODES,
  SampleApiError,
  type SampleApiErrorCode,
} from './sample-api-error.js';
