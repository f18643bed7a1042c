import {
  type ApiVersion,
  DEFAULT_VERSION_HEADER,
  VERSION_WITHOUT_HEADER,
  versionHeaderValue,
} from '@print-contracts/client';
import { redact } from '@print-contracts/client/kit';
import type { RecordedExchange } from '../record/recorder.js';
import type { DocumentOperation, OpenApiDocument } from './openapi-documents.js';
import { type DriftKind, isObject, type JsonObject, SchemaWalker } from './schema-walk.js';

/** Every kind of drift: the schema's five, and a status the operation does not list. */
type DriftFindingKind = DriftKind | 'unlisted-status';

/** One way the target's answers part from the OpenAPI description, said once however often seen. */
export interface DriftFinding {
  readonly kind: DriftFindingKind;
  /** The document's `operationId`, e.g. `getOrder`. */
  readonly operation: string;
  readonly version: ApiVersion;
  /** The answer's status. */
  readonly status: number;
  /** `$.lines[*].status`; `$` for the status itself. */
  readonly path: string;
  /** One value seen there, as JSON (shortened, redacted); absent for a missing property. */
  readonly example?: string;
  /** What the document allows there, when it says. */
  readonly allowed?: string;
  /** How many answers showed it. */
  readonly answers: number;
  readonly text: string;
}

/** The drift section of the reports. */
export interface DriftReport {
  /** The folder of the documents compared with; undefined when there was none. */
  readonly documents: string | undefined;
  /** Answers compared with a document (those of an operation the documents describe). */
  readonly compared: number;
  readonly findings: readonly (DriftFinding & { readonly change?: 'new' | 'known' })[];
  /** With `--baseline`: the earlier run's findings this run no longer showed. */
  readonly disappeared?: readonly DriftFinding[];
}

const KIND_TEXT: Readonly<Record<DriftFindingKind, string>> = {
  'undescribed-property': 'a property the document does not describe',
  'unlisted-enum-value': 'a value the enumeration does not list',
  'unexpected-type': 'a type the document does not allow',
  'missing-required': 'a required property is missing',
  'unlisted-status': 'a status the operation does not list',
};

const EXAMPLE_CHARS = 80;

/** The version a request asked for: its version header, or the version answered without one. */
function versionOf(headers: RecordedExchange['requestHeaders']): ApiVersion | undefined {
  const name = Object.keys(headers).find(
    (key) => key.toLowerCase() === DEFAULT_VERSION_HEADER.name.toLowerCase(),
  );
  if (name === undefined) return VERSION_WITHOUT_HEADER;
  const raw = headers[name];
  const value = Array.isArray(raw) ? raw.join(',') : String(raw);
  return (['v1', 'v2'] as const).find((version) => value.includes(versionHeaderValue(version)));
}

/** `404`, else its class `4XX`, else `default`: the response an answer's status falls under. */
function responseFor(operation: DocumentOperation, status: number): JsonObject | undefined {
  const { responses } = operation;
  const found = responses[String(status)] ?? responses[`${String(status)[0]}XX`] ?? responses.default;
  return isObject(found) ? found : undefined;
}

/** The schema of a response's JSON, or undefined when it declares no content. */
function jsonSchemaOf(response: JsonObject): unknown {
  const content = isObject(response.content) ? response.content : {};
  const media = content['application/json'] ?? Object.values(content)[0];
  return isObject(media) ? (media.schema ?? {}) : undefined;
}

function parseJson(body: Buffer): { ok: true; value: unknown } | { ok: false } {
  if (body.length === 0) return { ok: false };
  try {
    return { ok: true, value: JSON.parse(body.toString('utf8')) };
  } catch {
    return { ok: false };
  }
}

/**
 * The observe stage of drift: compares every answer the run recorded with the OpenAPI
 * description of its operation, version and status. It informs; a verdict stays the
 * contract's. Answers to requests outside the documents' paths (the control surface) are not
 * compared. `basePath` is the target's path the documents' paths are relative to (`/api`).
 */
export function observeDrift(
  exchanges: readonly RecordedExchange[],
  documents: readonly OpenApiDocument[],
  context: {
    readonly basePath: string;
    readonly secrets: readonly string[];
    readonly dir: string | undefined;
  },
): DriftReport {
  const byVersion = new Map(documents.map((document) => [document.version, document]));
  const walkers = new Map(
    documents.map((document) => [document.version, new SchemaWalker(document.document)]),
  );
  const found = new Map<string, Omit<DriftFinding, 'text'>>();
  // Examples and paths are JSON text: a control character in them is escaped already.
  const clean = (text: string) => redact(text, context.secrets);
  const note = (finding: Omit<DriftFinding, 'answers' | 'text'>, seen: Set<string>) => {
    const key = [finding.kind, finding.operation, finding.version, finding.status, finding.path].join('|');
    if (seen.has(key)) return;
    seen.add(key);
    const earlier = found.get(key);
    found.set(key, earlier ? { ...earlier, answers: earlier.answers + 1 } : { ...finding, answers: 1 });
  };
  let compared = 0;
  exchanges.forEach((exchange) => {
    if (!exchange.response) return;
    const url = new URL(exchange.url);
    if (!url.pathname.startsWith(context.basePath)) return;
    const path = url.pathname.slice(context.basePath.length) || '/';
    const version = versionOf(exchange.requestHeaders);
    const document = version ? byVersion.get(version) : undefined;
    const operation = document?.operations.find(
      (candidate) => candidate.method === exchange.method.toUpperCase() && candidate.pattern.test(path),
    );
    const walker = version ? walkers.get(version) : undefined;
    if (!version || !operation || !walker) return;
    compared++;
    const seen = new Set<string>();
    const { status, body } = exchange.response;
    const base = { operation: operation.operationId, version, status };
    const response = responseFor(operation, status);
    if (!response) {
      note({ ...base, kind: 'unlisted-status', path: '$', example: String(status) }, seen);
      return;
    }
    const schema = jsonSchemaOf(response);
    if (schema === undefined || body.length === 0) return;
    const parsed = parseJson(body);
    if (!parsed.ok) {
      const example = clean(JSON.stringify(body.toString('utf8').slice(0, EXAMPLE_CHARS)));
      note({ ...base, kind: 'unexpected-type', path: '$', example, allowed: 'JSON' }, seen);
      return;
    }
    for (const issue of walker.walk(parsed.value, schema)) {
      const example = issue.value === undefined ? undefined : clean(shorten(JSON.stringify(issue.value)));
      note(
        {
          ...base,
          kind: issue.kind,
          path: clean(issue.path),
          ...(example === undefined ? {} : { example }),
          ...(issue.allowed === undefined ? {} : { allowed: clean(shorten(issue.allowed)) }),
        },
        seen,
      );
    }
  });
  const findings = [...found.values()].map((finding) => ({ ...finding, text: driftText(finding) }));
  return { documents: context.dir, compared, findings };
}

const shorten = (text: string) =>
  text.length > EXAMPLE_CHARS ? `${text.slice(0, EXAMPLE_CHARS - 1)}…` : text;

/** `getOrder v2 200 $.lines[*].carbonOffset: a property the document does not describe (example: 12)`. */
function driftText(finding: Omit<DriftFinding, 'text'>): string {
  const example = finding.example === undefined ? '' : ` (example: ${finding.example})`;
  const allowed = finding.allowed === undefined ? '' : `; the document allows ${finding.allowed}`;
  const answers = finding.answers > 1 ? `, in ${finding.answers} answers` : '';
  return `${finding.operation} ${finding.version} ${finding.status} ${finding.path}: ${KIND_TEXT[finding.kind]}${example}${allowed}${answers}`;
}
