export { compareDriftWithBaseline } from './compare/compare.js';
export * from './errors/index.js';
export { OTHER_SECRET_ENV, OTHER_USER_ID_ENV } from './options/credentials.js';
export { brokerSecrets, checkBrokerUrl } from './options/parse-args.js';
export { VERIFY_USAGE } from './options/usage.js';
export type { RunReport } from './report/model.js';
export { REPORT_FILES } from './report/write-reports.js';
export { runVerify, type VerifyIo } from './run-verify.js';
