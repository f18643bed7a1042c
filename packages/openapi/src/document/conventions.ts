import {
  type ApiVersion,
  DEFAULT_BASE_URL,
  DEFAULT_VERSION_HEADER,
  SECRET_HEADER,
  USER_ID_HEADER,
  VERSION_WITHOUT_HEADER,
  versionHeaderValue,
} from '@print-contracts/client';
import type { JsonObject } from '../schemas/json-schema.js';

/** The media type the vendor labels its JSON answers with. */
export const JSON_MEDIA_TYPE = 'application/json';

/**
 * The media range every response also lists, beside `application/json`. A pact's request
 * sends the version as `Accept: application/vnd.printdeal-api.vN`, and the vendor answers it
 * with JSON labelled `application/json`: so an answer is declared for any `application/…`
 * type a request accepts. Listing the vendor type itself would match too, but tools
 * (PactFlow's comparator among them) then treat the body as an unknown format and stop
 * validating it; the range keeps the JSON schema in force for the version's `Accept`.
 */
export const ACCEPTED_MEDIA_RANGE = 'application/*';

/** The root extension that names the version header a request must carry. */
export const VERSION_HEADER_EXTENSION = 'x-version-header';

/** What `x-version-header` holds: the header, its value, and whether a request may leave it out. */
export interface VersionHeader {
  readonly name: string;
  readonly value: string;
  /** False only for the version the vendor answers when the header is missing. */
  readonly required: boolean;
}

/**
 * The version header, machine-readable. OpenAPI has no place for it: it ignores an `Accept`
 * parameter, and the responses' media range (`ACCEPTED_MEDIA_RANGE`) accepts every version
 * alike. So the document names it in an extension, and the kit's comparison checks each
 * pact's header against it.
 */
export function versionHeader(version: ApiVersion): VersionHeader {
  return {
    name: DEFAULT_VERSION_HEADER.name,
    value: versionHeaderValue(version),
    required: version !== VERSION_WITHOUT_HEADER,
  };
}

/** Names of the two security schemes, one per credential header; both are required together. */
export const SECURITY_SCHEME_NAMES = { userId: 'UserId', secret: 'ApiSecret' } as const;

/** The credential headers as apiKey security schemes. */
export function securitySchemes(): JsonObject {
  return {
    [SECURITY_SCHEME_NAMES.userId]: {
      type: 'apiKey',
      in: 'header',
      name: USER_ID_HEADER,
      description: `The credential set's User ID. Sent with every request, together with \`${SECRET_HEADER}\`; an unlinked set answers sample data, a linked one live data.`,
    },
    [SECURITY_SCHEME_NAMES.secret]: {
      type: 'apiKey',
      in: 'header',
      name: SECRET_HEADER,
      description: `The credential set's secret, shown once when the set is created. Sent with every request, together with \`${USER_ID_HEADER}\`.`,
    },
  };
}

/** One security requirement holding both schemes: the vendor wants both headers on every request. */
export const SECURITY = [{ [SECURITY_SCHEME_NAMES.userId]: [], [SECURITY_SCHEME_NAMES.secret]: [] }];

/** The vendor's base URL; every path of the document is relative to it. */
export function servers(): JsonObject[] {
  return [
    {
      url: DEFAULT_BASE_URL,
      description: 'The vendor. A credential set decides whether it answers sample data or live data.',
    },
  ];
}

/** The paragraph every document carries about the version header. */
export function versionHeaderText(version: ApiVersion): string {
  const header = `\`${DEFAULT_VERSION_HEADER.name}: ${versionHeaderValue(version)}\``;
  const fallback =
    version === VERSION_WITHOUT_HEADER
      ? `A request without it was answered as ${VERSION_WITHOUT_HEADER} too.`
      : `Without it the vendor answers as ${VERSION_WITHOUT_HEADER}, so send it with every request.`;
  return `The version is chosen by a header: send ${header} (named in \`${VERSION_HEADER_EXTENSION}\`). ${fallback} An application must not mix versions. Answers are labelled \`${JSON_MEDIA_TYPE}\` whatever the version, so each response is also listed under \`${ACCEPTED_MEDIA_RANGE}\`: the answer to a request that accepts the version's media type.`;
}
