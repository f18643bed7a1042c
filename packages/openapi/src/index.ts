export {
  compareContracts,
  formatFindings,
  PACTS_DIR,
  type PactComparison,
} from './compare/compare-contracts.js';
export { type ComparisonFinding, comparePact } from './compare/compare-pact.js';
export {
  CHANGE_RULES,
  type ChangeRule,
  type ChangeRuleName,
  type ChangeSeverity,
  classify,
  type Direction,
} from './diff/change-rules.js';
export { type DocumentChange, diffDocuments } from './diff/diff-documents.js';
export { diffSinceRevision, documentsAtRevision } from './diff/git-documents.js';
export { renderOpenApiSection } from './diff/openapi-section.js';
export {
  countChanges,
  type FileChanges,
  renderChangesTable,
  renderChangesText,
} from './diff/render-changes.js';
export { renderVersionDifferences } from './diff/version-differences.js';
export {
  buildOpenApiDocument,
  buildOpenApiDocuments,
  documentName,
  IDEMPOTENT_EXTENSION,
  OPENAPI_VERSION,
} from './document/build-document.js';
export {
  JSON_MEDIA_TYPE,
  VERSION_HEADER_EXTENSION,
  type VersionHeader,
  versionHeader,
} from './document/conventions.js';
export { DOCUMENTED_EXTENSION } from './document/responses.js';
export * from './errors/index.js';
export { EXAMPLE_PLACEMENTS, type ExamplePlacement, placedExamples } from './examples/placement.js';
export { type IsGenerated, readGenerated, writeGenerated } from './output/generated-folder.js';
export {
  generateHtmlReferences,
  generateOpenApiDocuments,
  HTML_DIR,
  OPENAPI_DIR,
  readOpenApiFiles,
  writeOpenApiFiles,
} from './output/openapi-files.js';
export { serialiseDocument } from './output/serialise.js';
export { DEFAULT_DIFF_REVISION, OPENAPI_USAGE, type OpenApiCliIo, runOpenApiCli } from './run-cli.js';
export { buildComponents, type SchemaComponents } from './schemas/components.js';
export type { Json, JsonObject } from './schemas/json-schema.js';
export { componentName, nameSchemas } from './schemas/schema-names.js';
export { REDOCLY_CONFIG, type RedoclyRun, runRedocly } from './tools/redocly.js';
