import { createHash, randomBytes } from "node:crypto";

/** A fresh, unguessable nonce for one response (128 bits, base64). */
export function createNonce() {
  return randomBytes(16).toString("base64");
}

// The renders the server keeps in memory and sends to everybody (server/prerender-views.ts):
// their policy lists the inline scripts' hashes (inlineScriptHashes), so they carry no nonce, and
// the same content renders to the same bytes in every process and every time: one ETag across
// the processes behind the proxy, and the consent record finds the very page a form was sent in
// (decision 080). Marked by the Request object itself, which no client can forge.
const memoryRenders = new WeakSet<Request>();

export function markMemoryRender(request: Request) {
  memoryRenders.add(request);
  return request;
}

export function isMemoryRender(request: Request) {
  return memoryRenders.has(request);
}

/**
 * The Content-Security-Policy of a page. Scripts run only with this response's nonce or one of
 * the listed hashes; 'strict-dynamic' lets those trusted scripts load the app's modules. Inline
 * style attributes are allowed (notices use them); nothing else inline is.
 */
export function contentSecurityPolicy(scriptSources: string[]) {
  return [
    "default-src 'self'",
    // A page without scripts (articles, legal texts) allows none at all.
    scriptSources.length === 0 ? "script-src 'none'" : `script-src ${[...scriptSources, "'strict-dynamic'"].join(" ")}`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",
    "font-src 'self'",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join("; ");
}

const INLINE_SCRIPT = /<script(?![^>]*\bsrc=)([^>]*)>([\s\S]*?)<\/script>/g;
const DEFERRED_MODULE = /<script type="text\/x-deferred-module" id="rr-boot">([\s\S]*?)<\/script>/;

const sha256 = (text: string) => `'sha256-${createHash("sha256").update(text, "utf8").digest("base64")}'`;

/**
 * Hashes for a prerendered page, whose bytes are fixed at build time (a nonce would need them
 * rewritten for every response): every executable inline script, and the hydration module the
 * boot script creates from the deferred one.
 */
export function inlineScriptHashes(html: string) {
  const hashes: string[] = [];
  for (const match of html.matchAll(INLINE_SCRIPT)) {
    const attributes = match[1] ?? "";
    if (/type="(application\/ld\+json|text\/x-deferred-module)"/.test(attributes)) continue;
    hashes.push(sha256(match[2] ?? ""));
  }
  const deferred = DEFERRED_MODULE.exec(html);
  if (deferred) hashes.push(sha256(deferred[1] ?? ""));
  return [...new Set(hashes)];
}
