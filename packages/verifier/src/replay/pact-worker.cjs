'use strict';
// Runs Pact's verifier (pact-core's native FFI) in its own process: the native core prints to
// file descriptor 1 (a pipe the parent discards), and a crash of it does not end the run.
// IPC: {type: 'verify', id, job} → {type: 'done', id, code, json} or {type: 'failed', id, message}.
const { dirname, join } = require('node:path');

// Pact's native core, from the platform package @pact-foundation/pact-core loads it from
// (prebuildify's `prebuilds/<platform>-<arch>/` layout): the verifier needs only its verifier
// functions, not pact-core's JavaScript and its dependencies (pino, underscore…).
function loadPactFfi(logLevel) {
  const os = process.platform === 'win32' ? 'windows' : process.platform;
  const libc =
    os === 'linux' ? (process.report.getReport().header.glibcVersionRuntime ? '-glibc' : '-musl') : '';
  const name = `@pact-foundation/pact-core-${os}-${process.arch}${libc}`;
  let dir;
  try {
    dir = dirname(require.resolve(`${name}/package.json`));
  } catch {
    throw new Error(`Pact's native core for this platform (${name}) is not installed`);
  }
  const core = require(join(dir, 'prebuilds', `${process.platform}-${process.arch}`, 'node.napi.node'));
  core.pactffiInitWithLogLevel(logLevel);
  return core;
}
const ffi = loadPactFfi('error');

// The parent asks for a CA store that trusts nothing only when the core talks to loopback servers alone.
const systemCa = { SSL_CERT_FILE: process.env.SSL_CERT_FILE, SSL_CERT_DIR: process.env.SSL_CERT_DIR };
function useCaStore(trustNothing) {
  const chosen = trustNothing
    ? { SSL_CERT_FILE: trustNothing.file, SSL_CERT_DIR: trustNothing.dir }
    : systemCa;
  for (const [name, value] of Object.entries(chosen)) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
}

function verify(job) {
  useCaStore(job.trustNothing);
  return new Promise((resolve, reject) => {
    const handle = ffi.pactffiVerifierNewForApplication('print-contracts-verifier', job.appVersion);
    try {
      ffi.pactffiVerifierSetProviderInfo(handle, job.provider, 'http', job.host, job.port, '/');
      ffi.pactffiVerifierSetProviderState(handle, job.stateUrl, false, true);
      ffi.pactffiVerifierSetVerificationOptions(handle, false, job.timeoutMs);
      if (job.publish) {
        const { providerVersion, branch } = job.publish;
        ffi.pactffiVerifierSetPublishOptions(handle, providerVersion, '', [], branch || '');
      }
      for (const file of job.files || []) ffi.pactffiVerifierAddFileSource(handle, file);
      const auth = job.brokerAuth || {};
      for (const url of job.urls || []) {
        ffi.pactffiVerifierUrlSource(handle, url, auth.username || '', auth.password || '', auth.token || '');
      }
    } catch (error) {
      ffi.pactffiVerifierShutdown(handle);
      reject(error);
      return;
    }
    ffi.pactffiVerifierExecute(handle, (error, code) => {
      let json = '';
      try {
        json = ffi.pactffiVerifierJson(handle);
      } finally {
        ffi.pactffiVerifierShutdown(handle);
      }
      if (error) reject(error);
      else resolve({ code, json });
    });
  });
}

process.on('message', (message) => {
  if (message?.type !== 'verify') return;
  verify(message.job).then(
    ({ code, json }) => process.send({ type: 'done', id: message.id, code, json }),
    (error) => process.send({ type: 'failed', id: message.id, message: String(error?.message || error) }),
  );
});
// It ends when the parent goes (the IPC channel closes). A signal to the whole process group
// (Ctrl-C, a CI job cancelled) reaches it too: the parent decides when it ends, after it has
// recorded the stop.
process.on('disconnect', () => process.exit(0));
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, () => undefined);
process.send({ type: 'ready' });
