/**
 * What the kit's own packages share beside the client (`@print-contracts/client/kit`): the
 * contract vocabulary (provider states, participants, placeholders, canonical JSON), stopping on
 * signals, redaction, transport-failure wording and the CLIs' usage lines. The consumer suite,
 * the simulator, the verifier and the tools read them; an integrator needs only the main entry.
 */
export { argsProblem, listenProblem, parseFlags, usageLine } from './cli-words.js';
export * from './contract/canonical-json.js';
export * from './contract/participants.js';
export * from './contract/placeholders.js';
export * from './contract/provider-states.js';
export * from './contract/state-change.js';
export { isRedirect } from './errors/http-error.js';
export { withoutUserInfo } from './options.js';
export { decodeContent, MAX_ANSWER_BYTES, readBody } from './read-body.js';
export * from './redact.js';
export {
  describeIncompleteBody,
  describeTransportFailure,
  hopeless,
  notConnected,
} from './transport-failures.js';
export * from './until-stopped.js';
export * from './vendor-examples.js';
