import { createServer } from 'node:http';
import { text } from 'node:stream/consumers';
import { gzipSync } from 'node:zlib';
import { listen } from './loopback.js';

/** A request the stub broker received. */
export interface BrokerRequest {
  readonly method: string;
  readonly path: string;
  readonly authorization: string | undefined;
  readonly body: unknown;
}

/**
 * A stand-in for a Pact Broker on loopback, just enough of its HAL API for the official
 * tools to talk to it: the index, "pacts for verification", the pacts themselves, the
 * verification results they link to, `POST /contracts/publish`, and the matrix that
 * `can-i-deploy` asks. It records every request, so a test can check what the official
 * tools sent. (A real broker cannot run in this repository's tests.)
 */
export async function startStubBroker(
  pacts: Readonly<Record<string, object>>,
  options: {
    /** What `GET /matrix` (can-i-deploy) answers; default deployable. */
    deployable?: boolean;
    /** Answer every request with this status instead, as a broker refusing us would, its body naming the credentials. */
    refuseWith?: number;
    /** Send every answer gzip-encoded, asked or not (a broker behind a compressing proxy). */
    gzip?: boolean;
    /** Answer the first request of each method and path 429 with this `Retry-After`, as a rate-limited broker would. */
    throttleOnce?: { readonly retryAfter: number };
    /** The origin its index links "pacts for verification" to, instead of its own (a misconfigured public URL). */
    linksTo?: string;
    /** Providers whose pacts it calls pending (not yet verified on the provider branch). */
    pending?: readonly string[];
    /** A second pact per provider, the consumer version deployed to production (0.9.0), listed after the main one. */
    deployed?: Readonly<Record<string, object>>;
  } = {},
) {
  const requests: BrokerRequest[] = [];
  const throttled = new Set<string>();
  let base = '';
  const pactPath = (provider: string, version = '1.0.0') =>
    `/pacts/provider/${provider}/consumer/print-order-client/version/${version}`;
  /** Every pact it serves: the main ones (1.0.0), then the deployed ones (0.9.0). */
  const served = [
    ...Object.entries(pacts).map(([provider, pact]) => ({
      provider,
      pact,
      version: '1.0.0',
      what: 'latest from main',
    })),
    ...Object.entries(options.deployed ?? {}).map(([provider, pact]) => ({
      provider,
      pact,
      version: '0.9.0',
      what: 'deployed to production',
    })),
  ];
  const server = createServer(async (req, res) => {
    const raw = await text(req);
    let body: unknown = raw;
    try {
      body = raw ? JSON.parse(raw) : undefined;
    } catch {
      // Keep the text.
    }
    const path = req.url ?? '/';
    requests.push({ method: req.method ?? 'GET', path, authorization: req.headers.authorization, body });
    const send = (status: number, json: unknown) => {
      const body = Buffer.from(JSON.stringify(json));
      if (!options.gzip) {
        res.writeHead(status, { 'content-type': 'application/hal+json' });
        return void res.end(body);
      }
      res.writeHead(status, { 'content-type': 'application/hal+json', 'content-encoding': 'gzip' });
      res.end(gzipSync(body));
    };
    if (options.refuseWith !== undefined) {
      // It names the credentials it refused, as some brokers' error pages do: nothing may print them.
      return send(options.refuseWith, {
        error: `refused by the stub: ${req.headers.authorization ?? 'none'}`,
      });
    }
    if (options.throttleOnce && !throttled.has(`${req.method} ${path}`)) {
      throttled.add(`${req.method} ${path}`);
      const retryAfter = String(options.throttleOnce.retryAfter);
      res.writeHead(429, { 'content-type': 'application/json', 'retry-after': retryAfter });
      return void res.end('{"error":"rate limited"}');
    }
    if (path.startsWith('/matrix?') && req.method === 'GET') {
      const deployable = options.deployable ?? true;
      return send(200, {
        summary: {
          deployable,
          reason: deployable
            ? 'All required verification results are published and successful'
            : 'A verification failed',
          success: deployable ? 1 : 0,
          failed: deployable ? 0 : 1,
          unknown: 0,
        },
        notices: [],
        matrix: [],
      });
    }
    if (path === '/') {
      return send(200, {
        _links: {
          'pb:publish-contracts': { href: `${base}/contracts/publish` },
          'pb:provider-pacts-for-verification': {
            href: `${options.linksTo ?? base}/pacts/provider/{provider}/for-verification`,
            templated: true,
          },
        },
      });
    }
    const forVerification = /^\/pacts\/provider\/([^/]+)\/for-verification$/.exec(path);
    if (forVerification && req.method === 'POST') {
      const provider = decodeURIComponent(forVerification[1] ?? '');
      return send(200, {
        _embedded: {
          pacts: served
            .filter((entry) => entry.provider === provider)
            .map(({ version, what }) => ({
              shortDescription: what,
              verificationProperties: { pending: options.pending?.includes(provider) ?? false, notices: [] },
              _links: {
                self: { href: `${base}${pactPath(provider, version)}`, name: `Pact for ${provider}` },
              },
            })),
        },
      });
    }
    for (const { provider, pact, version } of served) {
      if (path === pactPath(provider, version) && req.method === 'GET') {
        return send(200, {
          ...pact,
          _links: {
            self: { href: `${base}${pactPath(provider, version)}` },
            'pb:provider': { href: `${base}/pacticipants/${provider}` },
            'pb:publish-verification-results': {
              href: `${base}${pactPath(provider, version)}/verification-results`,
            },
          },
        });
      }
      if (path === `/pacticipants/${provider}` && req.method === 'GET') {
        return send(200, {
          name: provider,
          _links: {
            'pb:branch-version': {
              href: `${base}/pacticipants/${provider}/branches/{branch}/versions/{version}`,
              templated: true,
            },
          },
        });
      }
      if (path.startsWith(`/pacticipants/${provider}/branches/`) && req.method === 'PUT') {
        return send(200, { _links: {} });
      }
      if (path === `${pactPath(provider, version)}/verification-results` && req.method === 'POST') {
        return send(201, { _links: { self: { href: `${base}${path}/1` } } });
      }
    }
    if (path === '/contracts/publish' && req.method === 'POST') {
      return send(200, { logs: [{ level: 'info', message: 'Published' }], _embedded: {}, _links: {} });
    }
    send(404, { error: `no stub for ${req.method} ${path}` });
  });
  const { url, close } = await listen(server);
  base = url;
  return { url, requests, close };
}
