// Prepares a database for the opt-in benchmark: migrated, with N Do-Not-Call numbers imported.
// Usage: tsx scripts/bench/prepare-db.ts pglite <DATA_DIR> | postgres ; prints the DATABASE_URL for postgres.
import path from "node:path";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { openDatabase } from "~/db/client.server";
import { importDncFile } from "~/services/dnc/import.server";
import { createPostgresDatabase } from "../../tests/support/test-db";
import { makeDncFile } from "./make-dnc-file";

const [kind, dataDir] = process.argv.slice(2);
const file = path.join(mkdtempSync(path.join(tmpdir(), "bench-dnc-")), "dnc.txt");
await makeDncFile(file, Number(process.env.DNC_COUNT ?? 1_000_000));
const pg = kind === "postgres" ? await createPostgresDatabase() : null;
const handle = await openDatabase(pg ? { url: pg.url } : { dataDir: path.join(dataDir!, "pglite") });
await importDncFile(handle.db, file, { mode: "add", dataDate: new Date().toISOString().slice(0, 10), actor: "bench" });
await handle.close();
if (pg) console.log(pg.url);
