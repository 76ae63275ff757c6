import type { IncomingMessage } from "node:http";

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

function hostOf(url: string) {
  try {
    return new URL(url).host.toLowerCase();
  } catch {
    return null;
  }
}

/**
 * Refuses state-changing requests that a browser sent from another site (CSRF), in front of every
 * route: React Router checks the Origin of its page actions but exempts resource routes
 * (/api/*), and better-auth only checks requests that carry cookies. Rules:
 * - `Origin: null` (sandboxed frames, some redirects) and a foreign Origin are refused;
 * - without Origin, a browser's `Sec-Fetch-Site: cross-site` or a foreign Referer is refused;
 * - a request with cookies but neither Origin nor Referer is refused (browsers always send one);
 * - a request with none of these (a server such as Twilio's webhooks, curl) passes: it cannot
 *   ride on a visitor's session.
 * Hosts are compared like React Router does: the Origin's host against the request's own Host
 * (or X-Forwarded-Host behind trusted proxies) and the configured site's host.
 */
export function isCrossSiteWrite(req: IncomingMessage, options: { siteUrl: string; trustProxy: boolean }): boolean {
  if (SAFE_METHODS.has(req.method ?? "GET")) return false;
  const allowed = new Set<string>();
  const siteHost = hostOf(options.siteUrl);
  if (siteHost) allowed.add(siteHost);
  if (req.headers.host) allowed.add(req.headers.host.toLowerCase());
  const forwardedHost = req.headers["x-forwarded-host"];
  if (options.trustProxy && typeof forwardedHost === "string") allowed.add(forwardedHost.split(",")[0]!.trim().toLowerCase());

  const origin = req.headers.origin;
  if (origin !== undefined) {
    const host = origin === "null" ? null : hostOf(origin);
    return host === null || !allowed.has(host);
  }
  if (req.headers["sec-fetch-site"] === "cross-site") return true;
  const referer = req.headers.referer;
  if (referer !== undefined) {
    const host = hostOf(referer);
    return host === null || !allowed.has(host);
  }
  return req.headers.cookie !== undefined;
}
