/** better-auth's session cookie, with the `__Secure-` prefix it adds on https. */
const SESSION_COOKIE = /(?:^|;\s*)(?:__Secure-)?better-auth\.session_token=[^;\s]/;

/**
 * Whether a request may belong to a signed-in person: it carries a (non-empty) session cookie.
 * Such a request gets its page rendered for it; every other request may get the shared one.
 */
export function hasSessionCookie(cookieHeader: string | null | undefined) {
  return typeof cookieHeader === "string" && SESSION_COOKIE.test(cookieHeader);
}
