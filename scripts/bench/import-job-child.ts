// The measured half of bench:import's import part: one run of the import job (decision 159) on a
// fresh database, as a JSON line: its time, posts per second and the process's peak RSS.
import path from "node:path";
import { openDatabase } from "~/db/client.server";
import { runImport } from "~/services/import/import-worker.server";
import { createRun, getRun } from "~/services/import/runs.server";

const [file, target, uploads] = process.argv.slice(2) as [string, string, string];
// A PGlite target is a DATA_DIR, as the server takes it: its database is in DATA_DIR/pglite.
const database = await openDatabase(target.startsWith("postgres") ? { url: target } : { dataDir: path.join(target, "pglite") });
const baseRssMb = process.memoryUsage.rss() / 1024 / 1024;
let peakRssMb = baseRssMb;
const sampler = setInterval(() => (peakRssMb = Math.max(peakRssMb, process.memoryUsage.rss() / 1024 / 1024)), 20);
const run = await createRun(database.db, {
  kind: "wordpress",
  filePath: file,
  fileName: "bench.xml",
  fileBytes: 0,
  options: { categories: { gold: "Precious Metals", silver: "Precious Metals", bonds: "Bonds & Fixed Income" }, defaultCategory: "Market Analysis", overwriteEdited: false, uploadsFolder: uploads },
  actor: "bench",
  claim: true,
});
const started = performance.now();
// IMPORT_MEMORY_TRACE=1: where the memory goes, every 1,000 posts, on stderr (V8 heap, buffers, the rest).
const trace = process.env.IMPORT_MEMORY_TRACE === "1";
await runImport(database.db, run, {
  isStopped: () => false,
  onProgress: trace
    ? (done) => {
        if (done % 1000 !== 0) return;
        const m = process.memoryUsage();
        const mb = (bytes: number) => Math.round(bytes / 1024 / 1024);
        console.error(JSON.stringify({ done, rssMb: mb(m.rss), heapUsedMb: mb(m.heapUsed), heapTotalMb: mb(m.heapTotal), externalMb: mb(m.external), arrayBuffersMb: mb(m.arrayBuffers) }));
      }
    : undefined,
});
const seconds = (performance.now() - started) / 1000;
clearInterval(sampler);
peakRssMb = Math.max(peakRssMb, process.resourceUsage().maxRSS / 1024);
const done = (await getRun(database.db, run.id))!;
await database.close();
console.log(JSON.stringify({ seconds, posts: done.itemsDone, created: done.created, status: done.status, baseRssMb, peakRssMb }));
