import { ENV, SECRET_HEADER, USER_ID_HEADER, UUID_PATTERN } from '@print-contracts/client';
import { PLACEHOLDER_CREDENTIALS, redact, WRONG_SECRET } from '@print-contracts/client/kit';

/** Something in a contract file that looks like a credential. Never holds the value itself. */
export interface CredentialFinding {
  file: string;
  /** Where in the file: a JSON path, with the interaction's description when inside one. */
  where: string;
  reason: string;
}

/** A value that must never appear in a contract, and where it came from (for the message). */
export interface KnownSecret {
  source: string;
  value: string;
}

/** Values of the credentials the kit reads from the environment, to look for in contracts. */
export function secretsFromEnv(
  env: Readonly<Record<string, string | undefined>> = process.env,
): KnownSecret[] {
  return [ENV.secret, ENV.userId]
    .map((source) => ({ source, value: env[source]?.trim() ?? '' }))
    .filter((secret) => secret.value.length >= 4);
}

/** Header values the contracts may hold, per credential header (lower-case name). */
const ALLOWED_HEADER_VALUES: Readonly<Record<string, readonly string[]>> = {
  [USER_ID_HEADER.toLowerCase()]: [PLACEHOLDER_CREDENTIALS.userId],
  [SECRET_HEADER.toLowerCase()]: [PLACEHOLDER_CREDENTIALS.secret, WRONG_SECRET],
};

/** Header or field names that only ever carry credentials. */
const CREDENTIAL_NAME = /secret|passw(or)?d|token|api[-_]?key|authori[sz]ation|cookie|credential/i;

/** `Bearer …`, `Basic …`: an HTTP credential written out. */
const AUTH_SCHEME = /^(bearer|basic|digest)\s+\S+/i;
/** A JSON Web Token. */
const JWT = /^eyJ[\w-]{8,}\.[\w-]{8,}\.[\w-]*$/;
/** A long run of token characters (no spaces, dots or colons: not a sentence, a URL, a date or a media type). */
const TOKEN = /^[A-Za-z0-9_+/=-]{24,}$/;

/** Keys whose strings are patterns or expressions, not values. */
const PATTERN_KEYS = new Set(['regex', 'expression']);

/**
 * Looks through contract files (name → content) for anything credential-like: credential
 * headers holding anything but the placeholders (or the deliberate wrong secret), other
 * credential headers or fields at all, bearer/basic values, JWTs, long token-like strings,
 * and any of `secrets` (say, PRINT_API_SECRET's value) anywhere in the text, in any of the
 * forms the client's `redact` knows (JSON-escaped, percent-encoded, base64, HTML).
 */
export function scanForCredentials(
  files: ReadonlyMap<string, string>,
  secrets: readonly KnownSecret[] = [],
): CredentialFinding[] {
  const findings: CredentialFinding[] = [];
  for (const [file, text] of files) {
    const report = (where: string, reason: string) => findings.push({ file, where, reason });
    for (const secret of secrets) {
      if (redact(text, [secret.value]) !== text) {
        report('(text)', `holds the value of ${secret.source}`);
      }
    }
    if (!file.endsWith('.json')) continue;
    try {
      visit(JSON.parse(text), '$', report);
    } catch (error) {
      if (!(error instanceof SyntaxError)) throw error;
      report('(file)', 'is not JSON, so it cannot be checked');
    }
  }
  return findings;
}

type Report = (where: string, reason: string) => void;

function visit(node: unknown, path: string, report: Report, key = '', context = ''): void {
  if (Array.isArray(node)) {
    node.forEach((item, index) => {
      visit(item, `${path}[${index}]`, report, key, context);
    });
  } else if (typeof node === 'object' && node !== null) {
    const record = node as Record<string, unknown>;
    const here = typeof record.description === 'string' ? `interaction "${record.description}"` : context;
    for (const [name, value] of Object.entries(record)) {
      const where = `${path}.${name}`;
      const reason = path.endsWith('.headers') ? headerReason(name, value) : fieldReason(name, value);
      if (reason) report(at(here, where), reason);
      visit(value, where, report, name, here);
    }
  } else if (typeof node === 'string' && !PATTERN_KEYS.has(key)) {
    const reason = tokenReason(node);
    if (reason) report(at(context, path), reason);
  }
}

function fieldReason(name: string, value: unknown): string | undefined {
  if (CREDENTIAL_NAME.test(name) && hasText(value)) return `field "${name}" carries a credential-like value`;
  return undefined;
}

function headerReason(name: string, value: unknown): string | undefined {
  const allowed = ALLOWED_HEADER_VALUES[name.toLowerCase()];
  if (allowed) {
    const values = (Array.isArray(value) ? value : [value]).map(String);
    if (values.some((text) => !allowed.includes(text))) {
      return `header ${name} holds something other than its placeholder`;
    }
  } else if (CREDENTIAL_NAME.test(name)) {
    return `header ${name} carries credentials; contracts use ${USER_ID_HEADER}/${SECRET_HEADER} placeholders only`;
  }
  return undefined;
}

/** Why `text` looks like a credential, or undefined. */
export function tokenReason(text: string): string | undefined {
  if (AUTH_SCHEME.test(text)) return 'an HTTP credential (Bearer/Basic)';
  if (JWT.test(text)) return 'a JSON Web Token';
  if (
    TOKEN.test(text) &&
    !text.startsWith('/') &&
    !UUID_PATTERN.test(text) &&
    /[0-9]/.test(text) &&
    /[A-Za-z]/.test(text)
  ) {
    return 'a long token-like string';
  }
  return undefined;
}

const hasText = (value: unknown): boolean =>
  (typeof value === 'string' && value.length > 0) || (Array.isArray(value) && value.some(hasText));

const at = (context: string, where: string) => (context ? `${context}, ${where}` : where);
