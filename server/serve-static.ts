import type { IncomingMessage, ServerResponse } from "node:http";
import type { StaticFile } from "./static-files";
import { hasSessionCookie } from "~/auth/session-cookie";

function pickEncoding(req: IncomingMessage, file: StaticFile) {
  const accept = String(req.headers["accept-encoding"] ?? "");
  if (file.brotli && /\bbr\b/.test(accept)) return { body: file.brotli, encoding: "br" };
  if (file.gzip && /\bgzip\b/.test(accept)) return { body: file.gzip, encoding: "gzip" };
  return { body: file.body, encoding: undefined };
}

/**
 * Answers a GET/HEAD for a file held in memory. Returns false when the request is not for one
 * (a query string always goes to the app: /blog?category=... is rendered per request).
 */
export function serveStatic(
  req: IncomingMessage,
  res: ServerResponse,
  files: Map<string, StaticFile>,
) {
  if (req.method !== "GET" && req.method !== "HEAD") return false;
  const url = req.url ?? "/";
  if (url.includes("?")) return false;
  let pathname: string;
  try {
    pathname = decodeURIComponent(url);
  } catch {
    return false;
  }
  const file = files.get(pathname);
  if (!file) return false;
  // Prerendered pages and their .data are the anonymous visitor's: a signed-in person's (their
  // header) is rendered per request. Decision 036.
  const page = file.contentType.startsWith("text/html") || pathname.endsWith(".data");
  if (page && hasSessionCookie(req.headers.cookie)) return false;

  const headers: Record<string, string | number> = {
    "Content-Type": file.contentType,
    "Cache-Control": file.cacheControl,
    ETag: file.etag,
    Vary: "Accept-Encoding",
  };
  if (file.contentSecurityPolicy) headers["Content-Security-Policy"] = file.contentSecurityPolicy;
  if (req.headers["if-none-match"] === file.etag) {
    res.writeHead(304, headers);
    res.end();
    return true;
  }
  const { body, encoding } = pickEncoding(req, file);
  if (encoding) headers["Content-Encoding"] = encoding;
  headers["Content-Length"] = body.length;
  res.writeHead(200, headers);
  res.end(req.method === "HEAD" ? undefined : body);
  return true;
}
