// First-load JavaScript of pages (how it is counted: first-load-js.mjs). Usage: node scripts/bench/jsbytes.mjs URL ...
import { analyze } from "./first-load-js.mjs";

const kb = (bytes) => (bytes / 1024).toFixed(1);
console.log("| page | JS files | JS raw KB | JS gzip KB | JS brotli KB | HTML raw KB | HTML gzip KB |");
console.log("|---|---|---|---|---|---|---|");
for (const url of process.argv.slice(2)) {
  const r = await analyze(url);
  console.log(`| ${new URL(url).pathname} | ${r.files} | ${kb(r.raw)} | ${kb(r.gz)} | ${kb(r.br)} | ${kb(r.html)} | ${kb(r.htmlGz)} |`);
  // VERBOSE=1 lists the files of each page, to see what a change added.
  if (process.env.VERBOSE) for (const [file, size] of r.list) console.log(`|   ${new URL(file).pathname} | | ${kb(size.raw)} | ${kb(size.gz)} | ${kb(size.br)} | | |`);
}
