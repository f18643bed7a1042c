export { CATALOGUE, DELIVERY_METHOD_NAMES, describeCatalogue, type Product } from './catalogue.js';
export {
  CONTROL_BASE_PATH,
  CONTROL_STATES,
  type ControlState,
  PROVIDER_STATES_PATH,
} from './control-surface.js';
export { CREDENTIALS_ENV, type CredentialSet, DEMO_CREDENTIALS } from './credentials.js';
export { type DocsStandIn, startDocsStandIn } from './docs-stand-in.js';
export * from './errors/index.js';
export { ALL_OPERATIONS, FAULT_EFFECT_FIELDS, type FaultRule } from './faults/fault-rule.js';
export {
  DEFAULT_BODY_LIMIT_BYTES,
  DEFAULT_PROCESSING_DELAY_MS,
  type SampleApiOptions,
} from './options.js';
export { API_BASE_PATH } from './router.js';
export { type CliIo, runSampleApiCli, SAMPLE_API_EXIT, SAMPLE_API_USAGE } from './run-cli.js';
export { type SampleApi, startSampleApi } from './server.js';
export { SEED_ORDER_COUNT } from './store/seed.js';
