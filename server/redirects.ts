import type { IncomingMessage, ServerResponse } from "node:http";
import { isMainDomain } from "~/config/site";
import type { RedirectMap } from "~/services/redirects/redirect-map.server";

/**
 * When the old addresses are looked at (decision 160): a redirect never hides a page. The map
 * holds none of this site's own paths (old-path.ts refuses them), so for every other request it
 * is asked after the memory pages missed, which keeps the hot pages free of the lookup. The one
 * address both could answer is `/` with a WordPress query (`/?p=123`): the home page shows any
 * query as the home page, so there the old post wins, and before the memory pages; on a landing
 * host `/` stays the opt-in page whatever the query.
 */
export function isHomeQuery(url: string) {
  return url.startsWith("/?");
}

/** The Location for a GET or HEAD, if its address is an old one. */
export function redirectLocation(req: IncomingMessage, map: RedirectMap, mainDomains: readonly string[]): string | undefined {
  if ((req.method !== "GET" && req.method !== "HEAD") || map.size === 0) return undefined;
  const url = req.url ?? "/";
  if (isHomeQuery(url) && !isMainDomain(req.headers.host, mainDomains)) return undefined;
  return map.locationFor(url);
}

/**
 * 301 to a path of this site: cached a day by browsers and proxies, no body, no cookie, the
 * headers every answer carries. Not a page view (server/analytics.ts): the page it leads to is.
 */
export function sendRedirect(res: ServerResponse, location: string, securityHeaders: Record<string, string>) {
  res.writeHead(301, [...Object.entries(securityHeaders).flat(), "Location", location, "Cache-Control", "public, max-age=86400", "Content-Length", "0"]);
  res.end();
}

/** Looks the request up and answers it; true when it did. */
export function answerRedirect(req: IncomingMessage, res: ServerResponse, map: RedirectMap, mainDomains: readonly string[], securityHeaders: Record<string, string>) {
  const location = redirectLocation(req, map, mainDomains);
  if (location === undefined) return false;
  sendRedirect(res, location, securityHeaders);
  return true;
}
