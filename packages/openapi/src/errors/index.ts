export { DocumentError, isDocumentError } from './document-error.js';
export { GitRevisionError, isGitRevisionError } from './git-revision-error.js';
export {
  isOpenApiError,
  OPENAPI_ERROR_CODES,
  OpenApiError,
  type OpenApiErrorCode,
} from './openapi-error.js';
export { isToolError, ToolError } from './tool-error.js';
export { isUsageError, UsageError } from './usage-error.js';
