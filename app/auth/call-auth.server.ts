import { getEnv } from "~/http/env.server";
import { getAuth } from "./instance.server";

export type AuthCall = {
  ok: boolean;
  status: number;
  body: Record<string, unknown> | null;
  setCookies: string[];
  /** With a 429: the seconds until the limit lets the client in again. */
  retryAfterSeconds?: number;
};

/**
 * The seconds a 429 of better-auth says to wait: its own lock sends Retry-After, its rate limiter
 * only X-Retry-After (the seconds left in the rule's window). At least 1.
 */
export function retryAfterOf(response: Response): number | undefined {
  if (response.status !== 429) return undefined;
  const given = response.headers.get("retry-after") ?? response.headers.get("x-retry-after");
  const seconds = given === null || given.trim() === "" ? NaN : Number(given);
  return Number.isFinite(seconds) ? Math.max(1, Math.ceil(seconds)) : undefined;
}

/** better-auth's own answer with the standard Retry-After (RFC 9110 section 10.2.3) on a 429. */
export function withRetryAfter(response: Response): Response {
  const seconds = retryAfterOf(response);
  if (seconds === undefined || response.headers.has("retry-after")) return response;
  const headers = new Headers(response.headers);
  headers.set("Retry-After", String(seconds));
  return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
}

/** The Retry-After of a form's answer to a call refused with 429, for the page's own 429. */
export function retryAfterHeaders(call: AuthCall): Record<string, string> {
  return call.status === 429 && call.retryAfterSeconds ? { "Retry-After": String(call.retryAfterSeconds) } : {};
}

/**
 * Calls one of better-auth's HTTP endpoints on behalf of a form post, through its full pipeline
 * (rate limits, origin check, hooks), which its server-side API would skip. Our forms then work
 * with JavaScript off and get exactly the protections of /api/auth.
 */
export async function callAuthEndpoint(request: Request, path: string, body?: Record<string, unknown>): Promise<AuthCall> {
  const env = getEnv();
  const auth = await getAuth();
  const headers = new Headers({ "content-type": "application/json", origin: env.SITE_URL });
  for (const name of ["cookie", "user-agent", "x-forwarded-for", "accept-language"]) {
    const value = request.headers.get(name);
    if (value) headers.set(name, value);
  }
  const response = await auth.handler(
    new Request(`${env.SITE_URL}/api/auth${path}`, { method: "POST", headers, body: JSON.stringify(body ?? {}) }),
  );
  const text = await response.text();
  let parsed: Record<string, unknown> | null;
  try {
    parsed = text ? (JSON.parse(text) as Record<string, unknown>) : null;
  } catch {
    parsed = null;
  }
  return { ok: response.ok, status: response.status, body: parsed, setCookies: response.headers.getSetCookie(), retryAfterSeconds: retryAfterOf(response) };
}

/**
 * The cookies to pass on, one per name, most important last. Only the last Set-Cookie of a
 * redirect thrown from an action reaches the browser here (found with curl: sign-out's three
 * clearing cookies arrived as one; the cause inside React Router's response handling is not yet
 * found), so the order puts what must arrive at the end: clearing cookies first, then cookies
 * being set, and the session cookie last within each group.
 */
export function cookieHeaders(call: AuthCall) {
  const lastByName = new Map<string, string>();
  for (const cookie of call.setCookies) lastByName.set(cookie.slice(0, cookie.indexOf("=")), cookie);
  const clears = (cookie: string) => /;\s*Max-Age=0/i.test(cookie) || /^[^=]+=;/.test(cookie);
  const rank = ([name, cookie]: [string, string]) => (clears(cookie) ? 0 : 2) + (name.endsWith("session_token") ? 1 : 0);
  const ordered = [...lastByName].sort((a, b) => rank(a) - rank(b));
  const headers = new Headers();
  for (const [, cookie] of ordered) headers.append("Set-Cookie", cookie);
  return headers;
}
