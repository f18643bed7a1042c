import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import { DEFAULT_VERSION_HEADER, versionHeaderValue } from '@print-contracts/client';
import { secretForms } from '@print-contracts/client/kit';
import { type SampleApi, startSampleApi } from '@print-contracts/sample-api';
import {
  type Alteration,
  type AlteringProxy,
  captureIo,
  editJson,
  type ProxiedAnswer,
  type ProxiedRequest,
  startAlteringProxy,
  workspace,
} from '@print-contracts/test-support';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { compareDriftWithBaseline } from '../src/compare/compare.js';
import { type DriftFinding, observeDrift } from '../src/drift/observe-drift.js';
import { loadOpenApiDocuments } from '../src/drift/openapi-documents.js';
import { REPORT_FILES, type RunReport, runVerify } from '../src/index.js';
import { earlierDriftFindings } from '../src/options/comparison.js';
import { toHar } from '../src/record/har.js';
import type { RecordedExchange } from '../src/record/recorder.js';
import { driftConsoleLines } from '../src/report/console-reporter.js';

const CONTRACTS = fileURLToPath(new URL('../../../contracts', import.meta.url));
const V2_PACT = `${CONTRACTS}/print-order-client-print-order-api-v2.json`;

/** A secret no other test uses, with characters that JSON-escape, percent-encode and base64 differently. */
const SECRET = 'drift-Secret/"q+r&s=t~42';
const OTHER_SECRET = 'drift-Other/"x+y&z=w~17';
const CREDENTIALS = [
  { userId: 'drift-user', secret: SECRET },
  { userId: 'drift-other', secret: OTHER_SECRET },
];

/** The HAR 1.2 fields every log, entry, request and response must have (the spec's required ones). */
const nameValue = z.object({ name: z.string(), value: z.string() });
const harSchema = z.object({
  log: z.object({
    version: z.literal('1.2'),
    creator: z.object({ name: z.string(), version: z.string() }),
    entries: z.array(
      z.object({
        startedDateTime: z.iso.datetime(),
        time: z.number().nonnegative(),
        request: z.object({
          method: z.string(),
          url: z.url(),
          httpVersion: z.string(),
          cookies: z.array(nameValue),
          headers: z.array(nameValue),
          queryString: z.array(nameValue),
          postData: z.object({ mimeType: z.string(), text: z.string() }).optional(),
          headersSize: z.number().int(),
          bodySize: z.number().int(),
        }),
        response: z.object({
          status: z.number().int(),
          statusText: z.string(),
          httpVersion: z.string(),
          cookies: z.array(nameValue),
          headers: z.array(nameValue),
          content: z.object({
            size: z.number().int(),
            compression: z.number().int().optional(),
            mimeType: z.string(),
            text: z.string().optional(),
            encoding: z.literal('base64').optional(),
          }),
          redirectURL: z.string(),
          headersSize: z.number().int(),
          bodySize: z.number().int(),
        }),
        cache: z.object({}),
        timings: z.object({
          send: z.number().nonnegative(),
          wait: z.number().nonnegative(),
          receive: z.number().nonnegative(),
        }),
      }),
    ),
  }),
});

const isOrderRead = (request: ProxiedRequest) =>
  request.method === 'GET' && /^\/api\/orders\/[^/?]+$/.test(request.path);
/** The probe before arranging lists one order without a version header (v1); in a v2 run, nothing else reads that answer. */
const isProbe = (request: ProxiedRequest) =>
  request.method === 'GET' && request.path === '/api/orders?limit=1' && request.headers.accept === undefined;

type Json = Record<string, unknown>;
const onProbeOrders =
  (edit: (order: Json) => void): Alteration['response'] =>
  (answer: ProxiedAnswer, request: ProxiedRequest) =>
    isProbe(request) && answer.status === 200
      ? editJson(answer, (json) => {
          for (const order of ((json as Json).orders as Json[] | undefined) ?? []) edit(order);
          return json;
        })
      : undefined;

/** The vendor changes, one per stand-in, and the finding each must produce. */
const STAND_INS: {
  name: string;
  alteration: Alteration;
  want: Partial<DriftFinding>;
}[] = [
  {
    name: 'a vendor that adds a property to every order line',
    alteration: {
      response: (answer, request) =>
        isOrderRead(request) && answer.status === 200
          ? editJson(answer, (json) => {
              for (const line of ((json as Json).lines as Json[] | undefined) ?? []) line.carbonOffset = 0.12;
              return json;
            })
          : undefined,
    },
    want: {
      kind: 'undescribed-property',
      operation: 'getOrder',
      path: '$.lines[*].carbonOffset',
      example: '0.12',
    },
  },
  {
    name: 'a vendor that sends a new order status where no pact reads it',
    alteration: { response: onProbeOrders((order) => Object.assign(order, { status: 'on-hold' })) },
    want: {
      kind: 'unlisted-enum-value',
      operation: 'listOrders',
      status: 200,
      path: '$.orders[*].status',
      example: '"on-hold"',
    },
  },
  {
    name: 'a vendor that sends an order id as a string where no pact reads it',
    alteration: { response: onProbeOrders((order) => Object.assign(order, { id: String(order.id) })) },
    want: { kind: 'unexpected-type', operation: 'listOrders', path: '$.orders[*].id' },
  },
  {
    name: 'a vendor that drops the order number where no pact reads it',
    alteration: {
      response: onProbeOrders((order) => {
        delete order.number;
      }),
    },
    want: { kind: 'missing-required', operation: 'listOrders', path: '$.orders[*].number' },
  },
];

describe('drift and the HAR record of a run against a stand-in of the vendor', () => {
  let space: Awaited<ReturnType<typeof workspace>>;
  let api: SampleApi;

  beforeAll(async () => {
    space = await workspace();
    api = await startSampleApi({ credentials: CREDENTIALS, processingDelayMs: 10, control: true });
  });
  afterAll(async () => {
    await api.close();
    await space.remove();
  });

  const env = {
    PRINT_API_USER_ID: 'drift-user',
    PRINT_API_SECRET: SECRET,
    PRINT_API_OTHER_USER_ID: 'drift-other',
    PRINT_API_OTHER_SECRET: OTHER_SECRET,
  };

  /** One v2 run through `alteration`, read back from its reports. */
  async function run(name: string, alteration: Alteration, extra: readonly string[] = []) {
    const proxy: AlteringProxy = await startAlteringProxy(api.origin, alteration);
    try {
      const reports = space.path(name);
      const output = captureIo({ cwd: space.dir, env });
      const code = await runVerify(
        [
          ...['--base-url', `${proxy.origin}/api`, '--mode', 'sample', '--control'],
          ...['--pact', V2_PACT, '--api-version', 'v2', '--report-dir', reports],
          ...extra,
        ],
        output.io,
      );
      const read = (file: string) => readFileSync(`${reports}/${file}`, 'utf8');
      return {
        code,
        seen: [...proxy.seen],
        report: JSON.parse(read(REPORT_FILES.json)) as RunReport,
        markdown: read(REPORT_FILES.markdown),
        harText: read(REPORT_FILES.har),
        stdout: output.stdout(),
        stderr: output.stderr(),
      };
    } finally {
      await proxy.close();
    }
  }

  it.each(STAND_INS)(
    'the drift section reports $name, with its path and example, and the run stays green',
    async ({ name, alteration, want }) => {
      const result = await run(name.replaceAll(' ', '-'), alteration);
      expect(result.code, result.stdout + result.stderr).toBe(0);
      const findings = result.report.drift?.findings ?? [];
      expect(findings).toContainEqual(expect.objectContaining(want));
      const finding = findings.find((candidate) => candidate.path === want.path);
      expect(finding?.example === undefined).toBe(want.kind === 'missing-required');
      expect(
        findings.filter((candidate) => candidate.path === want.path && candidate.kind === want.kind),
      ).toHaveLength(1);
      expect(result.stdout).toContain(finding?.text);
      expect(result.markdown).toContain('## Drift from the OpenAPI description');
      expect(result.markdown).toContain(`\`${want.path}\``);
    },
    180_000,
  );

  it('the unaltered sample API shows no drift, and the HAR holds every request the run sent, valid and free of secrets', async () => {
    const result = await run('unaltered', {});
    expect(result.code, result.stdout + result.stderr).toBe(0);
    expect(result.report.drift?.findings).toEqual([]);
    expect(result.report.drift?.compared).toBeGreaterThan(20);

    const har = harSchema.parse(JSON.parse(result.harText));
    const key = (method: string, path: string) => `${method} ${path}`;
    const sent = har.log.entries.map((entry) => {
      const url = new URL(entry.request.url);
      return key(entry.request.method, `${url.pathname}${url.search}`);
    });
    expect(sent.length).toBe(result.seen.length);
    expect(sent.sort()).toEqual(result.seen.map((request) => key(request.method, request.path)).sort());
    expect(har.log.entries.every((entry) => entry.response.status > 0)).toBe(true);

    for (const secret of [SECRET, OTHER_SECRET]) {
      for (const form of secretForms(secret, ['drift-user', 'drift-other'])) {
        expect(result.harText.includes(form), `a form of a secret in the HAR: ${form.length} chars`).toBe(
          false,
        );
      }
    }
    const credentialHeaders = har.log.entries.flatMap((entry) =>
      entry.request.headers.filter((header) => /^(user-id|api-secret)$/i.test(header.name)),
    );
    expect(credentialHeaders.length).toBeGreaterThan(0);
    expect(new Set(credentialHeaders.map((header) => header.value))).toEqual(new Set(['[REDACTED]']));
  }, 180_000);

  it('a vendor that compresses every answer unasked, echoing the secret in it: all verified, no order left open, the HAR decoded and redacted', async () => {
    const codings: [string, (data: Buffer) => Buffer][] = [
      ['gzip', gzipSync],
      ['br', brotliCompressSync],
      ['deflate', deflateSync],
    ];
    let answers = 0;
    const result = await run('compressed', {
      response: (answer, request) => {
        if (answer.body.length === 0) return undefined;
        const [coding, encode] = codings[answers++ % codings.length] as (typeof codings)[number];
        const echoed =
          request.method === 'GET' && request.path.startsWith('/api/orders?')
            ? editJson(answer, (json) => ({ ...(json as Json), echo: request.headers['api-secret'] }))
            : answer;
        const headers = { ...answer.headers, 'content-encoding': coding };
        return { ...echoed, headers, body: encode(echoed.body) };
      },
    });
    expect(result.code, result.stdout + result.stderr).toBe(0);
    expect(result.report.totals.failed).toBe(0);
    expect(result.stdout).toContain('none left open');
    // The echo is the only drift: every compressed answer was read as the JSON it encodes.
    const findings = result.report.drift?.findings ?? [];
    expect(findings.length).toBeGreaterThan(0);
    expect(new Set(findings.map((finding) => finding.path))).toEqual(new Set(['$.echo']));

    const har = harSchema.parse(JSON.parse(result.harText));
    const compressed = har.log.entries.filter((entry) =>
      entry.response.headers.some((header) => header.name === 'content-encoding'),
    );
    expect(compressed.length).toBeGreaterThan(20);
    for (const { response } of compressed) {
      expect(response.content.encoding).toBeUndefined();
      expect(() => JSON.parse(response.content.text ?? '')).not.toThrow();
      // Present even where the coding saved nothing (a short body br-encoded to its own length).
      expect(response.content.compression).toBe(response.content.size - response.bodySize);
    }
    expect(result.harText).toContain('\\"echo\\":\\"[REDACTED]\\"');
    for (const form of secretForms(SECRET, ['drift-user'])) {
      expect(result.harText.includes(form), `a form of the secret in the HAR: ${form.length} chars`).toBe(
        false,
      );
      expect(JSON.stringify(result.report).includes(form)).toBe(false);
    }
  }, 180_000);

  it('--fail-on-drift makes a run with drift findings exit 1', async () => {
    const [stand] = STAND_INS;
    if (!stand) throw new Error('no stand-in');
    const result = await run('fail-on-drift', stand.alteration, ['--fail-on-drift']);
    expect(result.report.totals.failed).toBe(0);
    expect(result.report.drift?.findings.length).toBeGreaterThan(0);
    expect(result.code).toBe(1);
    // A test tab shows why the run is red: each finding that fails it is a failure of its own.
    const junit = readFileSync(space.path('fail-on-drift', REPORT_FILES.junit), 'utf8');
    expect(junit).toContain('<testsuite name="drift from the OpenAPI description"');
    expect(junit.match(/<failure type="drift"/g)?.length).toBe(result.report.drift?.findings.length);
  }, 180_000);

  it('--fail-on-drift against a baseline fails on drift the baseline did not show, and not on drift it did', async () => {
    const [stand] = STAND_INS;
    if (!stand) throw new Error('no stand-in');
    const baseline = (name: string) => ['--baseline', space.path(`${name}/${REPORT_FILES.json}`)];
    expect((await run('baseline-clean', {})).code).toBe(0);
    expect((await run('baseline-drifted', stand.alteration)).code).toBe(0);

    const fresh = await run('drift-new', stand.alteration, [
      '--fail-on-drift',
      ...baseline('baseline-clean'),
    ]);
    expect(fresh.report.totals.failed).toBe(0);
    expect(fresh.code, fresh.stdout).toBe(1);
    expect(fresh.stdout).toContain(
      'answers drifted from the OpenAPI description and --fail-on-drift counts that',
    );

    const known = await run('drift-known', stand.alteration, [
      '--fail-on-drift',
      ...baseline('baseline-drifted'),
    ]);
    expect(known.report.drift?.findings.length).toBeGreaterThan(0);
    expect(known.code, known.stdout).toBe(0);
  }, 300_000);
});

describe('compareDriftWithBaseline', () => {
  const finding = (path: string, fields: Partial<DriftFinding> = {}): DriftFinding => ({
    kind: 'undescribed-property',
    operation: 'getOrder',
    version: 'v2',
    status: 200,
    path,
    example: '1',
    answers: 1,
    text: path,
    ...fields,
  });

  it('marks only what an earlier report did not have as new, and lists what disappeared', () => {
    const earlier = { drift: { findings: [finding('$.a'), finding('$.gone')] } };
    const changes = compareDriftWithBaseline(
      [finding('$.a', { example: '2', answers: 5 }), finding('$.b')],
      earlierDriftFindings(earlier),
      ['getOrder|v2|200'],
    );
    expect(changes.findings.map((item) => [item.path, item.change])).toEqual([
      ['$.a', 'known'],
      ['$.b', 'new'],
    ]);
    expect(changes.disappeared.map((item) => item.path)).toEqual(['$.gone']);
  });

  it('treats a finding of another kind, version or status at the same path as new', () => {
    const earlier = { drift: { findings: [finding('$.a')] } };
    const changes = compareDriftWithBaseline(
      [
        finding('$.a', { kind: 'unexpected-type' }),
        finding('$.a', { version: 'v1' }),
        finding('$.a', { status: 404 }),
      ],
      earlierDriftFindings(earlier),
      ['getOrder|v2|200'],
    );
    expect(changes.findings.map((item) => item.change)).toEqual(['new', 'new', 'new']);
    expect(changes.disappeared.map((item) => item.path)).toEqual(['$.a']);
  });

  it('marks everything new against a report without a drift section', () => {
    const changes = compareDriftWithBaseline(
      [finding('$.a')],
      earlierDriftFindings({ tool: '@print-contracts/verifier' }),
      ['getOrder|v2|200'],
    );
    expect(changes.findings.map((item) => item.change)).toEqual(['new']);
    expect(changes.disappeared).toEqual([]);
  });

  it('calls nothing gone that this run saw no answer of (an --only run, a stopped one)', () => {
    // Found by an audit: a run that read no order called the baseline's order findings gone.
    const earlier = { drift: { findings: [finding('$.lines[*].carbonOffset')] } };
    const changes = compareDriftWithBaseline([], earlierDriftFindings(earlier), ['listOrders|v2|200']);
    expect(changes.disappeared).toEqual([]);
  });
});

describe('driftConsoleLines', () => {
  const finding = (path: string) => ({
    kind: 'undescribed-property' as const,
    operation: 'getOrder',
    version: 'v2' as const,
    status: 200,
    path,
    example: '1',
    answers: 1,
    text: `getOrder v2 200 ${path}`,
  });

  it('marks the findings a baseline did not have as new and names those that went away', () => {
    const earlier = [finding('$.a'), finding('$.gone')];
    const observed = {
      documents: 'contracts/openapi',
      compared: 3,
      answered: ['getOrder|v2|200'],
      findings: [finding('$.a'), finding('$.b')],
    };
    const lines = driftConsoleLines({
      ...observed,
      ...compareDriftWithBaseline(observed.findings, earlier, observed.answered),
    });
    expect(lines).toContain('  getOrder v2 200 $.a');
    expect(lines).toContain('  new: getOrder v2 200 $.b');
    expect(lines).toContain('  gone since the baseline: getOrder v2 200 $.gone');
  });
});

describe('observeDrift', () => {
  const documents = loadOpenApiDocuments(`${CONTRACTS}/openapi`);
  const answer = (status: number, body: string): RecordedExchange => ({
    startedAt: new Date(),
    method: 'GET',
    url: 'http://127.0.0.1:1/api/orders/1000001',
    requestHeaders: { [DEFAULT_VERSION_HEADER.name]: versionHeaderValue('v2') },
    requestBody: undefined,
    requestBodyStreamed: false,
    waitMs: 0,
    receiveMs: 0,
    response: {
      status,
      statusText: '',
      headers: {},
      body: Buffer.from(body),
      bodySize: Buffer.byteLength(body),
      decoded: false,
    },
  });
  const observe = (exchanges: RecordedExchange[]) =>
    observeDrift(exchanges, documents, { basePath: '/api', secrets: [], dir: 'openapi' }).findings;

  it('reports a status the operation does not list, once however many answers showed it', () => {
    expect(observe([answer(500, ''), answer(500, '')])).toEqual([
      expect.objectContaining({ kind: 'unlisted-status', path: '$', example: '500', answers: 2 }),
    ]);
  });

  it("takes no drift from a busy target's or a gateway's answer, nor from one cut short", () => {
    // Found by an audit: 503s waited out, and bodies cut mid-answer then read again, were drift,
    // and failed a --fail-on-drift night over throttling.
    const cut = { ...answer(200, '{"id": 1, "numb'), error: 'other side closed' };
    expect(observe([answer(429, ''), answer(503, ''), answer(502, '<h1>Bad Gateway</h1>'), cut])).toEqual([]);
  });

  it('takes any body where the document asks for none, as for a refusal (4XX, application/*)', () => {
    expect(observe([answer(401, '<error>denied</error>')])).toEqual([]);
  });

  it('reports properties named like those every object has (constructor, toString)', () => {
    const order = JSON.parse(
      readFileSync(`${CONTRACTS}/print-order-client-print-order-api-v2.json`, 'utf8'),
    ).interactions.find(
      (item: { description: string }) => item.description === 'a request for an order by its numeric id',
    ).response.body.content;
    const body = JSON.stringify({ ...order, constructor: 1, toString: 'x' });
    expect(observe([answer(200, body)]).map((finding) => finding.path)).toEqual([
      '$.constructor',
      '$.toString',
    ]);
  });

  it('reports an answer that is not JSON as an unexpected type, with its start as the example', () => {
    expect(observe([answer(200, 'not json')])).toEqual([
      expect.objectContaining({ kind: 'unexpected-type', path: '$', example: '"not json"', allowed: 'JSON' }),
    ]);
  });

  it.each([
    [
      'a property the document does not describe',
      (filler: string) => `{"debug":"${filler} key=${SECRET.replaceAll('"', '\\"')}"}`,
    ],
    ['an answer that is not JSON', (filler: string) => `${filler} key=${SECRET}`],
  ])('shows no part of a secret in the example of %s, wherever the example is cut', (_what, body) => {
    // The example is cut at 80 characters: each filler puts the cut at another character of the secret.
    for (let filler = 60; filler < 80; filler++) {
      const findings = observeDrift([answer(200, body('.'.repeat(filler)))], documents, {
        basePath: '/api',
        secrets: [SECRET],
        dir: 'openapi',
      }).findings;
      const shown = findings.map((finding) => `${finding.example} ${finding.text}`).join('\n');
      expect(findings.length).toBeGreaterThan(0);
      expect(shown, `filler ${filler}`).not.toMatch(/drift-S|Secret/);
    }
  });

  it('reports a property nested deeper than JSON.stringify can go, without throwing', () => {
    // JSON.parse reads 100,000 levels; writing them back overflowed the stack and ended the run
    // with exit 2. Node 26's JSON.stringify writes them back, so there the example is shown, shortened.
    const deep = `${'['.repeat(100_000)}${']'.repeat(100_000)}`;
    expect(observe([answer(200, `{"deep":${deep}}`)])).toContainEqual(
      expect.objectContaining({
        kind: 'undescribed-property',
        path: '$.deep',
        example: expect.stringMatching(/^(?:\(nested too deeply to show\)|\[{79}…)$/),
      }),
    );
  });
});

describe('toHar', () => {
  type Answer = NonNullable<RecordedExchange['response']>;
  const exchange = (response: Answer): RecordedExchange => ({
    startedAt: new Date(),
    method: 'GET',
    url: 'http://127.0.0.1:1/api/orders',
    requestHeaders: {},
    requestBody: undefined,
    requestBodyStreamed: false,
    waitMs: 1,
    receiveMs: 1,
    response,
  });
  /** The HAR response of one 200 answer with `body`, as it came unless `answer` says otherwise. */
  const har = (body: Buffer, answer: Partial<Answer> = {}) =>
    harSchema.parse(
      toHar(
        [
          exchange({
            status: 200,
            statusText: 'OK',
            headers: {},
            body,
            bodySize: body.length,
            decoded: false,
            ...answer,
          }),
        ],
        { creator: { name: 'test', version: '0' }, secrets: [SECRET], userIds: [] },
      ),
    ).log.entries[0]?.response;

  it('gives a decoded answer its compression, also one its coding made no smaller', () => {
    const body = Buffer.from('{"success":true}');
    const coded = { headers: { 'content-encoding': 'br' }, decoded: true };
    expect(har(body, coded)).toMatchObject({
      bodySize: body.length,
      content: { size: body.length, compression: 0 },
    });
    expect(har(body, { ...coded, bodySize: 10 })?.content.compression).toBe(body.length - 10);
    expect(har(body)?.content.compression).toBeUndefined();
  });

  it('redacts a secret echoed in a header name, which undici gives lower-cased', () => {
    const echoed = `x-seen-${encodeURIComponent(SECRET).toLowerCase()}`;
    const headers = har(Buffer.from('{}'), { headers: { [echoed]: '1' } })?.headers ?? [];
    expect(headers).toHaveLength(1);
    expect(headers[0]?.name).toBe('x-seen-[REDACTED]');
  });

  it('keeps no byte of a body whose content coding would not decode: no secret could be found in them', () => {
    // Found by an audit: the coded bytes went in as base64, and gunzipping them showed the secret.
    const coded = gzipSync(Buffer.from(`{"echo":"${SECRET}"}`)).subarray(0, -4);
    const answer = { status: 200, statusText: 'OK', body: coded, bodySize: coded.length, decoded: false };
    const written = toHar([exchange({ ...answer, headers: { 'content-encoding': 'gzip' } })], {
      creator: { name: 'test', version: '0' },
      secrets: [SECRET],
      userIds: [],
    });
    expect(written.log.entries[0]?.response.content).toEqual({
      size: coded.length,
      mimeType: 'application/octet-stream',
      comment: 'left out: the body would not decode from gzip',
    });
  });

  it('writes a body that is not UTF-8 as base64, the secret redacted in its bytes', () => {
    const body = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(SECRET), Buffer.from([0xc3])]);
    const response = har(body);
    expect(response?.content.encoding).toBe('base64');
    const bytes = Buffer.from(response?.content.text ?? '', 'base64');
    expect(bytes).toEqual(
      Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('[REDACTED]'), Buffer.from([0xc3])]),
    );
  });
});
