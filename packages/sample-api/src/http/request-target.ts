/** The path and the raw query of a request target such as `/api/orders?limit=5`. */
export interface RequestTarget {
  readonly path: string;
  readonly query: string | undefined;
}

/** Splits without building a URL object: this runs for every request. */
export function splitTarget(url: string | undefined): RequestTarget {
  const target = url ?? '/';
  if (target.startsWith('/')) {
    const mark = target.indexOf('?');
    return mark === -1
      ? { path: target, query: undefined }
      : { path: target.slice(0, mark), query: target.slice(mark + 1) };
  }
  // Absolute form (`GET http://host/api/orders`), as proxies send it.
  try {
    const parsed = new URL(target);
    return { path: parsed.pathname, query: parsed.search ? parsed.search.slice(1) : undefined };
  } catch {
    return { path: target, query: undefined };
  }
}

/** A percent-decoded path segment; a malformed escape is kept as sent (it then names nothing). */
export function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}
