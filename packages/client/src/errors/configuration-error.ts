import { ERROR_CODES, guardFor, PrintOrderError } from './print-order-error.js';

/** The client's options are unusable; the message says which and how to fix it. */
export class ConfigurationError extends PrintOrderError {
  override readonly name = 'ConfigurationError';

  constructor(message: string) {
    super(ERROR_CODES.configuration, message);
  }
}

export const isConfigurationError = guardFor<ConfigurationError>(ERROR_CODES.configuration);
