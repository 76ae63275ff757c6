// npm run bench:dnc — import 1,000,000 registry numbers and time Do-Not-Call lookups, on the
// embedded database and on PostgreSQL (a fresh database on 127.0.0.1:5432).
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import { openDatabase } from "~/db/client.server";
import { importDncFile } from "~/services/dnc/import.server";
import { lookupDnc } from "~/services/dnc/dnc.server";
import { createPostgresDatabase } from "../../tests/support/test-db";
import { makeDncFile } from "./make-dnc-file";

const COUNT = Number(process.env.DNC_COUNT ?? 1_000_000);
const LOOKUPS = 5000;
const dir = mkdtempSync(path.join(tmpdir(), "bench-dnc-"));
const file = path.join(dir, "dnc.txt");
await makeDncFile(file, COUNT);

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))]!;
const rows: string[] = [];

for (const kind of ["pglite", "postgres"] as const) {
  const pg = kind === "postgres" ? await createPostgresDatabase() : null;
  const handle = await openDatabase(pg ? { url: pg.url } : { dataDir: path.join(dir, "pglite") });
  const started = performance.now();
  const result = await importDncFile(handle.db, file, { mode: "add", dataDate: "2026-11-21", actor: "bench" });
  const seconds = (performance.now() - started) / 1000;
  const count = await handle.db.execute<{ n: number }>(sql`SELECT count(*)::int AS n FROM dnc_numbers`);

  const times: number[] = [];
  for (let i = 0; i < LOOKUPS; i++) {
    // Half registered numbers, half not.
    const national = i % 2 === 0 ? `212${200 + (i % 700)}${String(i % 10_000).padStart(4, "0")}` : `3105${String(100000 + i).slice(-6)}`;
    const t = performance.now();
    await lookupDnc(handle.db, national);
    times.push(performance.now() - t);
  }
  times.sort((a, b) => a - b);
  rows.push(
    `| ${kind} | ${COUNT.toLocaleString()} | ${seconds.toFixed(1)} s | ${Math.round(COUNT / seconds).toLocaleString()} | ${Number(count.rows[0]!.n).toLocaleString()} | ${result.badLines} | ${percentile(times, 0.5).toFixed(2)} ms | ${percentile(times, 0.99).toFixed(2)} ms |`,
  );
  await handle.close();
  await pg?.drop();
}

console.log(`# Do-Not-Call benchmark ${new Date().toISOString()} (lookup = lookupDnc: the number and the data date, ${LOOKUPS} lookups)\n`);
console.log("| database | numbers | import time | rows/s | rows stored | bad lines | lookup p50 | lookup p99 |");
console.log("|---|---|---|---|---|---|---|---|");
for (const row of rows) console.log(row);
