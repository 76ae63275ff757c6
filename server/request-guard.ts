import type { IncomingMessage } from "node:http";
import { hasSessionCookie } from "~/auth/session-cookie";
import { originText, type PublicOrigin } from "./public-url";

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

function originOf(url: string) {
  try {
    const { origin } = new URL(url);
    return origin === "null" ? null : origin.toLowerCase();
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
 * - a request with a session cookie but neither Origin nor Referer is refused (browsers always
 *   send one);
 * - a request with none of these (a server such as Twilio's webhooks, curl) passes: it cannot
 *   ride on a visitor's session. Other cookies (the consent form's `form_served`, decision 080)
 *   carry no authority: a client that kept one is not refused for it.
 * Ours are whole origins (scheme, host and port), as React Router compares them: the request's
 * public origin (server/public-url.ts, decision 058) and SITE_URL's.
 */
export function isCrossSiteWrite(req: IncomingMessage, origins: { site: PublicOrigin; request: PublicOrigin }): boolean {
  if (SAFE_METHODS.has(req.method ?? "GET")) return false;
  const ours = (origin: string | null) => origin === originText(origins.request) || origin === originText(origins.site);

  const origin = req.headers.origin;
  if (origin !== undefined) return origin === "null" || !ours(originOf(origin));
  if (req.headers["sec-fetch-site"] === "cross-site") return true;
  const referer = req.headers.referer;
  if (referer !== undefined) return !ours(originOf(referer));
  return hasSessionCookie(req.headers.cookie);
}
