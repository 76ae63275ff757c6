// First-load JavaScript of a page, counted like ../shared/bench/jsbytes.mjs (every <script src>,
// modulepreload and the static imports of inline module scripts, transitively; gzip -9 and
// brotli q11 per file), and also reading the hydration boot script that our server defers until
// the load event (<script type="text/x-deferred-module">), which the shared script does not see.
// Dynamic import() (lazy chunks) is not counted. Used by scripts/bench/jsbytes.mjs and by the
// budget's test (tests/system/first-load-js.test.ts).
import zlib from "node:zlib";

/** The budget of every public page that hydrates (gzip -9); content pages ship none (docs/benchmarks.md). */
export const FIRST_LOAD_BUDGET_BYTES = 120 * 1024;

const STATIC_IMPORT = /(?:\bfrom\s*|\bimport\s*)["']([^"']+\.m?js)["']/g;

/** `html`: the page as already fetched (a request fetch cannot make, such as one with its own Host). */
export async function analyze(pageUrl, html) {
  html ??= await (await fetch(pageUrl)).text();
  const queue = [];
  for (const m of html.matchAll(/<script\b[^>]*\bsrc=["']([^"']+)["'][^>]*>/gi)) queue.push(new URL(m[1], pageUrl).href);
  for (const m of html.matchAll(/<link\b[^>]*rel=["']modulepreload["'][^>]*>/gi)) {
    const href = /href=["']([^"']+)["']/i.exec(m[0]);
    if (href) queue.push(new URL(href[1], pageUrl).href);
  }
  for (const m of html.matchAll(/<script\b[^>]*type=["'](?:module|text\/x-deferred-module)["'][^>]*>([\s\S]*?)<\/script>/gi)) {
    for (const i of m[1].matchAll(STATIC_IMPORT)) queue.push(new URL(i[1], pageUrl).href);
  }
  const seen = new Map();
  while (queue.length) {
    const url = queue.shift();
    if (seen.has(url)) continue;
    const body = Buffer.from(await (await fetch(url)).arrayBuffer());
    seen.set(url, {
      raw: body.length,
      gz: zlib.gzipSync(body, { level: 9 }).length,
      br: zlib.brotliCompressSync(body, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11 } }).length,
    });
    for (const i of body.toString("utf8").matchAll(STATIC_IMPORT)) queue.push(new URL(i[1], url).href);
  }
  const total = (key) => [...seen.values()].reduce((sum, file) => sum + file[key], 0);
  return { list: seen, files: seen.size, raw: total("raw"), gz: total("gz"), br: total("br"), html: Buffer.byteLength(html), htmlGz: zlib.gzipSync(html, { level: 9 }).length };
}
