/**
 * A return path we may redirect to: a path on this site only. Anything else (another host,
 * "//host", "/\host", encoded slashes, a scheme) becomes "/".
 */
export function safeReturnPath(value: string | null | undefined, fallback = "/") {
  if (!value || typeof value !== "string") return fallback;
  let decoded: string;
  try {
    decoded = decodeURIComponent(value);
  } catch {
    return fallback;
  }
  for (const candidate of [value, decoded]) {
    if (!candidate.startsWith("/") || candidate.startsWith("//") || candidate.startsWith("/\\")) return fallback;
    // eslint-disable-next-line no-control-regex
    if (/[\u0000-\u001f\\]/.test(candidate)) return fallback;
  }
  try {
    const url = new URL(value, "http://same.invalid");
    if (url.host !== "same.invalid") return fallback;
    return url.pathname + url.search + url.hash;
  } catch {
    return fallback;
  }
}

/**
 * The address of a page's Sign In link: the sign-in page with the way back to this page, under
 * the same rule as a forced sign-in. Only the path travels (a page served from memory is the same
 * document whatever its query string); the home page and the sign-in pages themselves need no way
 * back (a sign-in without one lands on the person's home).
 */
export function signInHref(pathname: string) {
  const path = safeReturnPath(pathname, "/");
  if (path === "/" || path === "/auth" || path.startsWith("/auth/") || path === "/setup") return "/auth";
  return `/auth?redirectTo=${encodeURIComponent(path)}`;
}
