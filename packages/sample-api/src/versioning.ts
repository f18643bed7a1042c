import {
  API_VERSIONS,
  type ApiVersion,
  DEFAULT_VERSION_HEADER,
  VERSION_WITHOUT_HEADER,
  versionHeaderValue,
} from '@print-contracts/client';
import { ApiAnswerError } from './errors/api-answer-error.js';

/** The header that carries the version, as node:http names it. */
export const VERSION_HEADER = DEFAULT_VERSION_HEADER.name.toLowerCase();

const [prefix = '', suffix = ''] = DEFAULT_VERSION_HEADER.template.split('{version}');
const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** Any media type of the vendor's family, e.g. `application/vnd.printdeal-api.v7`. */
const VENDOR_MEDIA_TYPE = new RegExp(
  `(?:^|,)\\s*${escapeRegExp(prefix)}([^\\s,;]*)${escapeRegExp(suffix)}\\s*(?:;[^,]*)?(?=,|$)`,
  'gi',
);

const KNOWN = new Map<string, ApiVersion>(
  API_VERSIONS.map((version) => [versionHeaderValue(version).toLowerCase(), version]),
);
const ACCEPTED = API_VERSIONS.map((version) => versionHeaderValue(version)).join(' or ');

/**
 * The API version a request asks for. No header, or a generic one such as `*\/*` or
 * `application/json`, means v1 (as at the vendor); one of the vendor's media types picks
 * that version; a vendor media type with an unknown version is refused with 406.
 */
export function resolveVersion(header: string | string[] | undefined): ApiVersion {
  if (header === undefined) return VERSION_WITHOUT_HEADER;
  const value = Array.isArray(header) ? header.join(',') : header;
  if (!value.toLowerCase().includes(prefix.toLowerCase())) return VERSION_WITHOUT_HEADER;
  let chosen: ApiVersion | undefined;
  let unknown: string | undefined;
  for (const match of value.matchAll(VENDOR_MEDIA_TYPE)) {
    const version = KNOWN.get(`${prefix}${match[1] ?? ''}${suffix}`.toLowerCase());
    if (version === undefined) unknown ??= match[1] ?? '';
    else if (chosen !== undefined && chosen !== version) {
      throw new ApiAnswerError(
        406,
        `The ${DEFAULT_VERSION_HEADER.name} header asks for more than one API version; send exactly one of ${ACCEPTED}`,
      );
    } else chosen = version;
  }
  if (chosen !== undefined) return chosen;
  const asked =
    unknown === undefined ? 'An unreadable API version' : `Unknown API version "${unknown.slice(0, 40)}"`;
  throw new ApiAnswerError(
    406,
    `${asked} in the ${DEFAULT_VERSION_HEADER.name} header; send ${ACCEPTED}, or no version header for v1`,
  );
}
