export {
  type ComparisonFinding,
  compareContracts,
  comparePact,
  formatFindings,
  type PactComparison,
} from './compare.js';
export {
  CHANGE_RULES,
  type ChangeRuleName,
  type ChangeSeverity,
  type Direction,
} from './diff/change-rules.js';
export { type DocumentChange, diffDocuments } from './diff/diff-documents.js';
export { diffSinceRevision } from './diff/git-documents.js';
export { type FileChanges, renderChangesText, renderOpenApiSection } from './diff/render-changes.js';
export { buildOpenApiDocument, buildOpenApiDocuments, documentName } from './document/build-document.js';
export { DocumentError, isDocumentError } from './errors/document-error.js';
export { GitRevisionError, isGitRevisionError } from './errors/git-revision-error.js';
export {
  isOpenApiError,
  OPENAPI_ERROR_CODES,
  OpenApiError,
  type OpenApiErrorCode,
} from './errors/openapi-error.js';
export { isToolError, ToolError } from './errors/tool-error.js';
export type { Json, JsonObject } from './json.js';
export { type IsGenerated, readGenerated, writeGenerated } from './output/files.js';
export { OPENAPI_USAGE, type OpenApiCliIo, runOpenApiCli } from './run-cli.js';
