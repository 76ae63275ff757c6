import { readdirSync, readFileSync, existsSync } from "node:fs";
import path from "node:path";
import { createHash } from "node:crypto";
import { gunzipSync } from "node:zlib";
import { contentSecurityPolicy, inlineScriptHashes } from "~/http/csp";

export type StaticFile = {
  /** For prerendered pages: a policy allowing exactly their inline scripts (by hash). */
  contentSecurityPolicy?: string;
  body: Buffer;
  gzip?: Buffer;
  brotli?: Buffer;
  contentType: string;
  cacheControl: string;
  etag: string;
};

const CONTENT_TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".jpg": "image/jpeg",
  ".webp": "image/webp",
  ".avif": "image/avif",
  ".ico": "image/x-icon",
  ".json": "application/json; charset=utf-8",
  ".xml": "application/xml; charset=utf-8",
  ".txt": "text/plain; charset=utf-8",
  ".data": "text/x-script; charset=utf-8",
  ".webmanifest": "application/manifest+json",
  ".woff2": "font/woff2",
};

function walk(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    return entry.isDirectory() ? walk(full) : [full];
  });
}

function cacheControlFor(urlPath: string) {
  // Vite fingerprints everything under /assets/: it can be cached for good.
  if (urlPath.startsWith("/assets/")) return "public, max-age=31536000, immutable";
  if (urlPath.startsWith("/images/") || urlPath === "/favicon.svg") return "public, max-age=86400";
  if (urlPath.endsWith(".xml") || urlPath.endsWith(".txt")) return "public, max-age=3600";
  return "public, max-age=0, must-revalidate";
}

function contentTypeFor(file: string) {
  if (file.endsWith("rss.xml")) return "application/rss+xml; charset=utf-8";
  return CONTENT_TYPES[path.extname(file)] ?? "application/octet-stream";
}

/** A file made in memory (server/live-pages.ts) with its compressed twins, sent like a file of the build. */
export function staticFileFromBody(body: Buffer, urlPath: string, options: { contentType: string; gzip?: Buffer; brotli?: Buffer }): StaticFile {
  const isPage = options.contentType.startsWith("text/html");
  return {
    contentSecurityPolicy: isPage ? contentSecurityPolicy(inlineScriptHashes(body.toString("utf8"))) : undefined,
    body,
    gzip: options.gzip,
    brotli: options.brotli,
    contentType: options.contentType,
    cacheControl: cacheControlFor(urlPath.split("?")[0]!),
    etag: `"${createHash("sha1").update(body).digest("base64url").slice(0, 22)}"`,
  };
}

/**
 * The same file kept compressed only (decision 137): its brotli and gzip bytes stay, and `body` is
 * unzipped from the gzip on each read (the rare client that takes neither encoding, the consent
 * record), so a page costs its two compressed sizes in memory instead of three times its size.
 * A file without a gzip twin (under 256 bytes) is kept as it is.
 */
export function keptCompressed(file: StaticFile): StaticFile {
  const { gzip } = file;
  if (!gzip) return file;
  const kept = { ...file };
  Object.defineProperty(kept, "body", { get: () => gunzipSync(gzip), enumerable: true });
  return kept;
}

/** One file with its .br/.gz twins (made at build time) and what is sent with it. */
export function loadStaticFile(file: string, urlPath: string): StaticFile {
  const body = readFileSync(file);
  const isPage = file.endsWith(".html");
  return {
    contentSecurityPolicy: isPage ? contentSecurityPolicy(inlineScriptHashes(body.toString("utf8"))) : undefined,
    body,
    gzip: existsSync(`${file}.gz`) ? readFileSync(`${file}.gz`) : undefined,
    brotli: existsSync(`${file}.br`) ? readFileSync(`${file}.br`) : undefined,
    contentType: contentTypeFor(file),
    cacheControl: cacheControlFor(urlPath),
    etag: `"${createHash("sha1").update(body).digest("base64url").slice(0, 22)}"`,
  };
}

/**
 * Loads the client build (hashed assets, public files and prerendered pages) into memory with
 * the .br/.gz twins made at build time. Keys are URL paths: a prerendered page
 * `about/index.html` answers `/about`.
 */
export function loadStaticFiles(clientDir: string) {
  const files = new Map<string, StaticFile>();
  if (!existsSync(clientDir)) return files;
  for (const file of walk(clientDir)) {
    if (file.endsWith(".br") || file.endsWith(".gz")) continue;
    const relative = path.relative(clientDir, file).split(path.sep).join("/");
    let urlPath = `/${relative}`;
    if (urlPath.endsWith("/index.html")) urlPath = urlPath.slice(0, -"/index.html".length) || "/";
    files.set(urlPath, loadStaticFile(file, urlPath));
  }
  return files;
}

/** The views of build/views (server/prerender-views.ts), keyed like PRERENDERED_VIEWS. */
export function loadViews(viewsDir: string) {
  const views = new Map<string, StaticFile>();
  const manifestFile = path.join(viewsDir, "manifest.json");
  if (!existsSync(manifestFile)) return views;
  const manifest = JSON.parse(readFileSync(manifestFile, "utf8")) as { key: string; file: string }[];
  for (const { key, file } of manifest) views.set(key, loadStaticFile(path.join(viewsDir, file), key));
  return views;
}
