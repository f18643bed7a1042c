import {
  type ApiVersion,
  DEFAULT_VERSION_HEADER,
  VERSION_WITHOUT_HEADER,
  versionHeaderValue,
  withoutVendorAnswer,
} from '@print-contracts/client';
import { isJsonObject, redact } from '@print-contracts/client/kit';
import type { RecordedExchange } from '../record/recorder.js';
import type { DocumentOperation, OpenApiDocument } from './openapi-documents.js';
import { type DriftKind, schemaIssues } from './schema-walk.js';

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
  /** What those answers were, once each: `getOrder|v2|200`. A finding of one not among them was not looked for. */
  readonly answered: readonly string[];
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

/** The kind of answer a finding is about: its operation, version and status. */
export const answerKey = (finding: Pick<DriftFinding, 'operation' | 'version' | 'status'>) =>
  [finding.operation, finding.version, finding.status].join('|');

/** What makes two drift findings the same, in one run and across runs: not the example, not how many answers. */
export const driftIdentity = (
  finding: Pick<DriftFinding, 'kind' | 'operation' | 'version' | 'status' | 'path'>,
) => [finding.kind, finding.operation, finding.version, finding.status, finding.path].join('|');

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
  const found = new Map<string, Omit<DriftFinding, 'text'>>();
  // Examples and paths are JSON text: a control character in them is escaped already.
  const clean = (text: string) => redact(text, context.secrets);
  let compared = 0;
  const answered = new Set<string>();
  for (const { url, method, requestHeaders, response, error } of exchanges) {
    const { pathname } = new URL(url);
    // An answer cut short says nothing of its shape; a busy target's or a gateway's is none of the vendor's.
    if (!response || error !== undefined || !pathname.startsWith(context.basePath)) continue;
    if (withoutVendorAnswer(response.status)) continue;
    const path = pathname.slice(context.basePath.length) || '/';
    const version = versionOf(requestHeaders);
    const document = documents.find((candidate) => candidate.version === version);
    const operation = document?.operations.find(
      (candidate) => candidate.method === method.toUpperCase() && candidate.pattern.test(path),
    );
    if (!version || !document || !operation) continue;
    compared++;
    const base = { operation: operation.operationId, version, status: response.status };
    answered.add(answerKey(base));
    const seen = new Map<string, Omit<DriftFinding, 'answers' | 'text'>>();
    for (const issue of answerIssues(document, operation, response)) {
      // Redacted whole, then shortened: a cut first could leave the start of a secret.
      const example =
        issue.example !== undefined
          ? shorten(clean(issue.example))
          : issue.value === undefined
            ? undefined
            : exampleOf(issue.value, clean);
      const finding = {
        ...base,
        kind: issue.kind,
        path: clean(issue.path),
        ...(example === undefined ? {} : { example }),
        ...(issue.allowed === undefined ? {} : { allowed: shorten(clean(issue.allowed)) }),
      };
      if (!seen.has(driftIdentity(finding))) seen.set(driftIdentity(finding), finding);
    }
    for (const [key, finding] of seen) {
      const earlier = found.get(key);
      found.set(key, earlier ? { ...earlier, answers: earlier.answers + 1 } : { ...finding, answers: 1 });
    }
  }
  const findings = [...found.values()].map((finding) => ({ ...finding, text: driftText(finding) }));
  return { documents: context.dir, compared, answered: [...answered], findings };
}

/** The schema's issues with one answer, or a status no response of the operation lists, or a body that is not JSON. */
function answerIssues(
  document: OpenApiDocument,
  operation: DocumentOperation,
  { status, body }: NonNullable<RecordedExchange['response']>,
): { kind: DriftFindingKind; path: string; value?: unknown; example?: string; allowed?: string }[] {
  const { responses } = operation;
  const listed = responses[String(status)] ?? responses[`${String(status)[0]}XX`] ?? responses.default;
  if (!isJsonObject(listed)) return [{ kind: 'unlisted-status', path: '$', example: String(status) }];
  const content = isJsonObject(listed.content) ? listed.content : {};
  const media = content['application/json'] ?? Object.values(content)[0];
  if (!isJsonObject(media) || body.length === 0) return [];
  // A schema that asks nothing (`{}`) takes any body, JSON or not.
  if (!isJsonObject(media.schema) || Object.keys(media.schema).length === 0) return [];
  const text = body.toString('utf8');
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    // Far more than an example shows, so no secret the example could show is cut.
    return [
      { kind: 'unexpected-type', path: '$', value: text.slice(0, 64 * EXAMPLE_CHARS), allowed: 'JSON' },
    ];
  }
  return schemaIssues(document.document, value, media.schema ?? {});
}

const shorten = (text: string) =>
  text.length > EXAMPLE_CHARS ? `${text.slice(0, EXAMPLE_CHARS - 1)}…` : text;

/** A value as JSON, redacted, then shortened; one nested deeper than `JSON.stringify` can go (a hostile answer) says so. */
function exampleOf(value: unknown, clean: (text: string) => string): string {
  try {
    return shorten(clean(JSON.stringify(value)));
  } catch {
    return '(nested too deeply to show)';
  }
}

/** `getOrder v2 200 $.lines[*].carbonOffset: a property the document does not describe (example: 12)`. */
function driftText(finding: Omit<DriftFinding, 'text'>): string {
  const example = finding.example === undefined ? '' : ` (example: ${finding.example})`;
  const allowed = finding.allowed === undefined ? '' : `; the document allows ${finding.allowed}`;
  const answers = finding.answers > 1 ? `, in ${finding.answers} answers` : '';
  return `${finding.operation} ${finding.version} ${finding.status} ${finding.path}: ${KIND_TEXT[finding.kind]}${example}${allowed}${answers}`;
}
