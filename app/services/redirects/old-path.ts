import { REDIRECT_REFUSALS as R } from "~/lib/redirect-texts";

/**
 * One form for every old address (decision 160), so that what an import or an editor stores and
 * what a request asks for meet in one map lookup: the path percent-decoded (`/caf%C3%A9/` and
 * `/café` are one), without trailing slashes (`/` itself excepted), with the query kept only when
 * it is one WordPress single-key query (`/?p=123`), case as given. Pure: the server imports it.
 */

/** WordPress's plain permalinks and archive queries: the only queries an old address keeps. */
export const KEPT_QUERY_KEYS: ReadonlySet<string> = new Set(["p", "page_id", "cat", "tag", "author", "feed", "m", "attachment_id"]);

const MAX_LENGTH = 2_000;

/**
 * Addresses this site answers itself: a redirect there would hide a page, an asset, a feed or a
 * form, so none can be stored. Compared lower-cased, as the router matches paths without regard
 * to case. A namespace covers the path itself and everything under it; a page only itself.
 */
const OWN_NAMESPACES = [
  "admin",
  "api",
  "articles",
  "authors",
  "assets",
  "auth",
  "account",
  "preview",
  "newsletter",
  "consent-certificates",
  "l",
  "media",
  "images",
  "rss",
  "sitemaps",
  "setup",
  "__manifest",
];
const OWN_PAGES = new Set(
  ["opt-in", "gold", "home", "about", "blog", "search", "contact", "privacy", "terms", "disclaimer", "sitemap.xml", "robots.txt", "rss.xml", "favicon.svg", "healthz", "readyz", "form-seen.gif"].map(
    (name) => `/${name}`,
  ),
);
/** /blog/:year/:month (routes/blog-month.tsx). */
const BLOG_MONTH = /^\/blog\/\d{4}\/\d{1,2}$/;

/** True for a decoded path (no query) this site answers itself. */
export function isOwnPath(path: string): boolean {
  const lower = path.toLowerCase();
  if (lower === "/" || OWN_PAGES.has(lower) || BLOG_MONTH.test(lower) || lower.endsWith(".data")) return true;
  const first = lower.slice(1).split("/", 1)[0]!;
  return OWN_NAMESPACES.includes(first);
}

export type OldPathResult = { ok: true; path: string } | { ok: false; reason: string };

/** A control character (U+0000 to U+001F, U+007F): never part of an address as typed. */
function hasControl(text: string) {
  for (let at = 0; at < text.length; at++) {
    const code = text.charCodeAt(at);
    if (code < 0x20 || code === 0x7f) return true;
  }
  return false;
}

function decodePath(raw: string): string | null {
  if (!raw.includes("%")) return raw;
  try {
    return decodeURIComponent(raw);
  } catch {
    return null;
  }
}

function trimSlashes(path: string) {
  const trimmed = path.replace(/\/+$/, "");
  return trimmed === "" ? "/" : trimmed;
}

/** `?key=value` when `rawQuery` is exactly one kept WordPress query with a value, else "". */
function keptQuery(rawQuery: string): string {
  if (!rawQuery) return "";
  const params = [...new URLSearchParams(rawQuery)];
  if (params.length !== 1) return "";
  const [key, value] = params[0]!;
  return KEPT_QUERY_KEYS.has(key) && value !== "" ? `?${key}=${value}` : "";
}

/** The path and raw query of an old address typed or imported: a path, or an http(s) URL. */
function splitInput(input: string): { rawPath: string; rawQuery: string } | null {
  let text = input;
  if (/^https?:\/\//i.test(text) || text.startsWith("//")) {
    try {
      const url = new URL(text.startsWith("//") ? `https:${text}` : text);
      return { rawPath: url.pathname, rawQuery: url.search.slice(1) };
    } catch {
      return null;
    }
  }
  if (!text.startsWith("/")) return null;
  const hash = text.indexOf("#");
  if (hash >= 0) text = text.slice(0, hash);
  const queryAt = text.indexOf("?");
  return queryAt < 0 ? { rawPath: text, rawQuery: "" } : { rawPath: text.slice(0, queryAt), rawQuery: text.slice(queryAt + 1) };
}

/** An old address in its stored form, or why it cannot be one. */
export function parseOldPath(input: string): OldPathResult {
  const text = input.trim();
  if (!text) return { ok: false, reason: R.empty };
  if (text.length > MAX_LENGTH) return { ok: false, reason: R.tooLong };
  const parts = splitInput(text);
  if (!parts) return { ok: false, reason: R.notAPath };
  const decoded = decodePath(parts.rawPath);
  if (decoded === null) return { ok: false, reason: R.badEncoding };
  // Control characters and a second leading slash are no path a browser sends as typed.
  if (hasControl(decoded) || decoded.startsWith("//") || decoded.includes("\\")) return { ok: false, reason: R.notAPath };
  const path = trimSlashes(decoded);
  const query = keptQuery(parts.rawQuery);
  if (path === "/" && !query) return { ok: false, reason: R.home };
  if (path !== "/" && isOwnPath(path)) return { ok: false, reason: R.ownPage(path) };
  return { ok: true, path: path + query };
}

/** The stored form of an old address, or null (parseOldPath says why). */
export function normalizeOldPath(input: string): string | null {
  const result = parseOldPath(input);
  return result.ok ? result.path : null;
}

/**
 * The keys a request may be stored under, most specific first: with its WordPress query when it
 * has one, then the path alone. Null when the path cannot be decoded (no old address matches).
 */
export function requestKeys(url: string): { withQuery: string | null; path: string } | null {
  if (!url.startsWith("/")) return null;
  const queryAt = url.indexOf("?");
  const decoded = decodePath(queryAt < 0 ? url : url.slice(0, queryAt));
  if (decoded === null) return null;
  const path = trimSlashes(decoded);
  const query = queryAt < 0 ? "" : keptQuery(url.slice(queryAt + 1));
  return { withQuery: query ? path + query : null, path };
}

export type TargetResult = { ok: true; target: string } | { ok: false; reason: string };

const BASE = "http://target.invalid";

/**
 * Where an old address sends readers: a path of this site only (one leading slash, no scheme, no
 * host), so a redirect can never send readers to another site. Stored as the browser gets it in
 * Location: percent-encoded ASCII, escapes upper-cased, trailing slashes dropped.
 */
export function parseTarget(input: string): TargetResult {
  const text = input.trim();
  if (!text) return { ok: false, reason: R.targetEmpty };
  if (text.length > MAX_LENGTH) return { ok: false, reason: R.targetTooLong };
  if (!text.startsWith("/") || text.startsWith("//") || /[\\\s]/.test(text) || hasControl(text)) return { ok: false, reason: R.targetNotHere };
  let url: URL;
  try {
    url = new URL(text, BASE);
  } catch {
    return { ok: false, reason: R.targetNotHere };
  }
  if (url.origin !== BASE) return { ok: false, reason: R.targetNotHere };
  const upper = (value: string) => value.replace(/%[0-9a-f]{2}/gi, (escape) => escape.toUpperCase());
  return { ok: true, target: upper(trimSlashes(url.pathname)) + upper(url.search) + url.hash };
}

/** The old-address keys a request for a target is looked up under: a redirect at one would chain. */
export function targetKeys(target: string): string[] {
  const hash = target.indexOf("#");
  const keys = requestKeys(hash < 0 ? target : target.slice(0, hash));
  if (!keys) return [];
  return keys.withQuery ? [keys.withQuery, keys.path] : [keys.path];
}

/** The path part of a source as a target names it (encoded), to find targets that point at it. */
export function sourceAsTargetPath(source: string): string {
  const queryAt = source.indexOf("?");
  const path = queryAt < 0 ? source : source.slice(0, queryAt);
  return new URL(path, BASE).pathname.replace(/%[0-9a-f]{2}/gi, (escape) => escape.toUpperCase());
}
