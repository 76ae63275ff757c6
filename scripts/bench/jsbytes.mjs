// First-load JavaScript of pages, counted like ../shared/bench/jsbytes.mjs (every <script src>,
// modulepreload and the static imports of inline module scripts, transitively; gzip -9 and
// brotli q11 per file), and also reading the hydration boot script that our server defers until
// the load event (<script type="text/x-deferred-module">), which the shared script does not see.
// Dynamic import() (lazy chunks) is not counted. Usage: node scripts/bench/jsbytes.mjs URL ...
import zlib from "node:zlib";

const STATIC_IMPORT = /(?:\bfrom\s*|\bimport\s*)["']([^"']+\.m?js)["']/g;

async function analyze(pageUrl) {
  const html = await (await fetch(pageUrl)).text();
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

const kb = (bytes) => (bytes / 1024).toFixed(1);
console.log("| page | JS files | JS raw KB | JS gzip KB | JS brotli KB | HTML raw KB | HTML gzip KB |");
console.log("|---|---|---|---|---|---|---|");
for (const url of process.argv.slice(2)) {
  const r = await analyze(url);
  console.log(`| ${new URL(url).pathname} | ${r.files} | ${kb(r.raw)} | ${kb(r.gz)} | ${kb(r.br)} | ${kb(r.html)} | ${kb(r.htmlGz)} |`);
  // VERBOSE=1 lists the files of each page, to see what a change added.
  if (process.env.VERBOSE) for (const [file, size] of r.list) console.log(`|   ${new URL(file).pathname} | | ${kb(size.raw)} | ${kb(size.gz)} | ${kb(size.br)} | | |`);
}
