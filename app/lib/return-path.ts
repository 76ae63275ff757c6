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
