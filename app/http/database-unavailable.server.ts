import { databaseErrorReason, isDatabaseUnavailable } from "~/db/unavailable";
import { getEnv } from "./env.server";
import { logger, requestContext } from "./logger.server";
import { DATABASE_RETRY_AFTER_SECONDS, REFUSALS } from "./refusals";

/**
 * Remembers, for the request being handled, that it failed because the database is unreachable.
 * React Router and better-auth turn every thrown error into a 500; the server (server/app.ts)
 * swaps such an answer for a 503 with a clear message when this was noted.
 */
export function noteIfDatabaseUnavailable(error: unknown): boolean {
  if (!isDatabaseUnavailable(error)) return false;
  const store = requestContext.getStore();
  if (store) store.databaseUnavailable = true;
  // One short line per request: during an outage every request fails the same way.
  logger.warn({ reason: databaseErrorReason(error) }, "database unavailable");
  return true;
}

export function databaseWasUnavailable() {
  return requestContext.getStore()?.databaseUnavailable === true;
}

function wantsJson(request: Request) {
  const { pathname } = new URL(request.url);
  if (pathname.startsWith("/api/") || pathname.endsWith(".data")) return true;
  const accept = request.headers.get("accept") ?? "";
  return accept.includes("application/json") && !accept.includes("text/html");
}

const escapeHtml = (text: string) => text.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);

/** The 503 answer: JSON for API and data requests, a small self-contained page for browsers. */
export function databaseUnavailableResponse(request: Request): Response {
  const headers = { "Retry-After": String(DATABASE_RETRY_AFTER_SECONDS), "Cache-Control": "no-store" };
  if (wantsJson(request)) {
    return Response.json({ success: false, error: REFUSALS.databaseUnavailable }, { status: 503, headers });
  }
  const siteName = escapeHtml(getEnv().SITE_NAME);
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="robots" content="noindex"><title>Temporarily unavailable | ${siteName}</title></head><body><main><h1>We’ll be right back</h1><p>${escapeHtml(REFUSALS.databaseUnavailable)}</p><p><a href="/">${siteName} home</a></p></main></body></html>`;
  return new Response(html, {
    status: 503,
    headers: { ...headers, "Content-Type": "text/html; charset=utf-8", "Content-Security-Policy": "default-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'" },
  });
}
