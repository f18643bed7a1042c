export { CONTROL_BASE_PATH, type ControlState, PROVIDER_STATES_PATH } from './control-surface.js';
export { type CredentialSet, DEMO_CREDENTIALS } from './credentials.js';
export { startDocsStandIn } from './docs-stand-in.js';
export * from './errors/index.js';
export type { FaultRule } from './faults/fault-rule.js';
export { API_BASE_PATH } from './router.js';
export { type SampleApi, startSampleApi } from './server.js';
