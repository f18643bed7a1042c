import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { createApiSurface } from './api-surface.js';
import { Authenticator } from './auth.js';
import { createControlSurface } from './control.js';
import { CONTROL_BASE_PATH } from './control-surface.js';
import type { CredentialSet } from './credentials.js';
import { ApiAnswerError } from './errors/api-answer-error.js';
import { applyFault, FaultInjector } from './faults/fault-injector.js';
import { type FaultRule, parseFaultRules } from './faults/fault-rule.js';
import { answerFor, send } from './http/answer.js';
import { refuseConnect, refuseExpectation, refuseUnparsable } from './http/protocol-refusals.js';
import { splitTarget } from './http/request-target.js';
import { resolveOptions, type SampleApiOptions } from './options.js';
import { API_BASE_PATH, route } from './router.js';
import { OrderStore } from './store/order-store.js';

/** A running sample API. */
export interface SampleApi {
  /** Base URL ending in `/api`, e.g. `http://127.0.0.1:41234/api`: what the client takes as `baseUrl`. */
  readonly url: string;
  /** `http://127.0.0.1:41234`: where `/__control` lives when enabled. */
  readonly origin: string;
  /** The credential sets it accepts. */
  readonly credentials: readonly CredentialSet[];
  /** Replaces the fault rules (checked like the option; a bad rule throws and changes nothing). */
  setFaults(rules: readonly FaultRule[]): void;
  /** Stops listening, closes keep-alive and in-flight connections, clears pending timers. Idempotent. */
  close(): Promise<void>;
}

const API_PREFIX = `${API_BASE_PATH}/`;
const CONTROL_PREFIX = `${CONTROL_BASE_PATH}/`;

/** How a listening address appears in a URL: wildcard addresses are reached over loopback. */
function urlHost(host: string): string {
  if (host === '0.0.0.0') return '127.0.0.1';
  if (host === '::' || host === '[::]') return '[::1]';
  return host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
}

/**
 * Starts the simulator of the vendor's orders API on `host:port` (default 127.0.0.1 and an
 * ephemeral port) and resolves once it listens. Throws `SampleApiConfigurationError` for a
 * bad option, and the listen error (e.g. `EADDRINUSE`) when the port is taken.
 */
export async function startSampleApi(options: SampleApiOptions = {}): Promise<SampleApi> {
  const config = resolveOptions(options);
  const store = new OrderStore(
    config.credentials.map((set) => set.userId),
    config.seedOrders,
  );
  const faults = new FaultInjector(config.faults);
  const api = createApiSurface(
    new Authenticator(config.credentials),
    { store, processingDelayMs: config.processingDelayMs },
    config.bodyLimitBytes,
  );
  const control = config.control ? createControlSurface(store, faults, config.bodyLimitBytes) : undefined;
  const timers = new Set<NodeJS.Timeout>();

  /** A request under `/api`: the fault rules that fire on it first (their latency, then their effect). */
  const serveApi = (req: IncomingMessage, res: ServerResponse, path: string, query: string | undefined) => {
    const proceed = () => api(req, res, path, query);
    if (!faults.active) return proceed();
    const found = route(req.method ?? 'GET', path);
    const operation = found.kind === 'operation' ? found.name : undefined;
    const decision = faults.decide(operation);
    if (decision === undefined) return proceed();
    const { effect, latencyMs } = decision;
    const act = effect === undefined ? proceed : () => applyFault(effect, operation, req, res);
    if (latencyMs <= 0) return act();
    const timer = setTimeout(() => {
      timers.delete(timer);
      if (!res.destroyed) act();
    }, latencyMs);
    timers.add(timer);
  };

  const onRequest = (req: IncomingMessage, res: ServerResponse) => {
    try {
      const { path, query } = splitTarget(req.url);
      if (path === API_BASE_PATH || path.startsWith(API_PREFIX)) return serveApi(req, res, path, query);
      if (control && (path === CONTROL_BASE_PATH || path.startsWith(CONTROL_PREFIX))) {
        return control(req, res, path);
      }
      const where = `${req.method} ${path.slice(0, 200)}`;
      throw new ApiAnswerError(404, `No route ${where}: the API lives under ${API_BASE_PATH}`);
    } catch (error) {
      send(res, answerFor(error));
    }
  };

  const server = createServer(onRequest);
  // Requests below the router still get the vendor's JSON shape (an Upgrade request, without
  // an 'upgrade' listener, is routed like any other). A CONNECT socket leaves node:http's care,
  // so close() ends the ones still open itself.
  const tunnels = new Set<Duplex>();
  server.on('clientError', refuseUnparsable);
  server.on('checkExpectation', refuseExpectation);
  server.on('connect', (req: IncomingMessage, socket: Duplex) => {
    tunnels.add(socket);
    socket.once('close', () => tunnels.delete(socket));
    refuseConnect(req, socket);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.port, config.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  const origin = `http://${urlHost(config.host)}:${port}`;

  let closing: Promise<void> | undefined;
  return {
    url: `${origin}${API_BASE_PATH}`,
    origin,
    credentials: config.credentials,
    setFaults(rules) {
      faults.set(parseFaultRules(rules));
    },
    close() {
      closing ??= new Promise<void>((resolve) => {
        for (const timer of timers) clearTimeout(timer);
        timers.clear();
        server.close(() => resolve());
        server.closeAllConnections();
        for (const socket of tunnels) socket.destroy();
      });
      return closing;
    },
  };
}
