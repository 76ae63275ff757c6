/**
 * Which answers are page views. Pure functions of the request and the answer's status and type,
 * so every place a page is answered (memory, the page store, the router) asks the same question.
 */

export type Headers = Record<string, string | string[] | undefined>;

/** Paths that are never counted: staff, previews, APIs, private share links, setup. */
const NOT_COUNTED = /^\/(admin|api|preview|consent-certificates|setup|__manifest|healthz|readyz)(\/|\.|$)/;

function header(headers: Headers, name: string) {
  const value = headers[name];
  return Array.isArray(value) ? value.join(",") : value;
}

/** The request is a speculative fetch (prefetch or prerender), not someone opening the page. */
export function isPrefetch(headers: Headers) {
  const purpose = header(headers, "sec-purpose") ?? header(headers, "purpose") ?? header(headers, "x-purpose") ?? header(headers, "x-moz");
  return purpose !== undefined && /prefetch|prerender|preview/i.test(purpose);
}

export type ViewTarget = { path: string; query: string };

/**
 * The page a GET answered 200 (or 304: the same document revalidated from the browser's cache, a
 * person opening it again) counts as a view of, or undefined:
 * - an HTML document, at a path not excluded above;
 * - a client-side navigation of a hydrated page (React Router's `/path.data`, `/_root.data` for
 *   `/`), unless it is a revalidation: fetched from the very page (path and query) it names, which
 *   is what React Router does after a form on that page was sent. Its `_routes` parameter says
 *   nothing either way (navigations carry it too, when a parent route's data is kept).
 * HEAD and every other method never count.
 */
export function viewTarget(method: string | undefined, status: number, contentType: string, url: string, headers: Headers): ViewTarget | undefined {
  if (method !== "GET" || (status !== 200 && status !== 304)) return undefined;
  const queryAt = url.indexOf("?");
  let path = queryAt < 0 ? url : url.slice(0, queryAt);
  const query = queryAt < 0 ? "" : url.slice(queryAt + 1);
  let pageQuery = query;
  if (path.endsWith(".data")) {
    if (status !== 200) return undefined;
    path = path === "/_root.data" ? "/" : path.slice(0, -5);
    pageQuery = query.replace(/(^|&)_routes=[^&]*/g, "").replace(/^&/, "");
    const referer = header(headers, "referer");
    if (referer && addressOfUrl(referer) === (pageQuery ? `${path}?${pageQuery}` : path)) return undefined;
  } else if (!contentType.startsWith("text/html")) {
    return undefined;
  }
  if (NOT_COUNTED.test(path) || path.length > 300) return undefined;
  return { path, query: pageQuery };
}

/** The path and query of an absolute URL (no fragment). */
function addressOfUrl(url: string) {
  const match = /^[a-z]+:\/\/[^/?#]*([^#]*)/i.exec(url);
  if (!match) return undefined;
  const address = match[1] || "/";
  return address.startsWith("?") ? `/${address}` : address;
}
