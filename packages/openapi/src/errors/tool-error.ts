import { hasErrorCode } from '@print-contracts/client';
import { OPENAPI_ERROR_CODES, OpenApiError } from './openapi-error.js';

/** An external tool (Redocly CLI) could not run, or failed for a reason other than findings. */
export class ToolError extends OpenApiError {
  override readonly name = 'ToolError';
  /** The tool's name and command, e.g. `redocly build-docs`. */
  readonly tool: string;

  constructor(tool: string, message: string, options?: ErrorOptions) {
    super(OPENAPI_ERROR_CODES.tool, message, options);
    this.tool = tool;
  }
}

export const isToolError = (error: unknown): error is ToolError =>
  hasErrorCode<ToolError>(error, OPENAPI_ERROR_CODES.tool);
