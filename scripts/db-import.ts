// npm run db:import -- <file> [--to postgres://…] [--data-dir <dir>]
// Loads a db:export file into a new, empty database (DATABASE_URL unless --to or --data-dir says
// otherwise), all in one transaction, and checks every table against the file.
import { existsSync } from "node:fs";
import {
  describeTransferError,
  describeUrl,
  formatCounts,
  importDatabase,
  readTransferHeader,
} from "~/db/transfer.server";
import { envOrExit, openOrExit, parseTransferArgs, runTransfer } from "./transfer-cli";

const args = parseTransferArgs("db:import", "to");
const { file, dataDir } = args;
if (!existsSync(file)) {
  console.error(`No such file: ${file}`);
  process.exit(1);
}

const env = envOrExit();
const url = args.url ?? (dataDir ? undefined : env.DATABASE_URL);
if (!url && !dataDir) {
  console.error("Set DATABASE_URL (or pass --to postgres://…) to the PostgreSQL database to load the file into.");
  process.exit(1);
}
const where = url ? describeUrl(url) : dataDir!;

let header;
try {
  header = await readTransferHeader(file);
} catch (error) {
  console.error(describeTransferError(error));
  process.exit(1);
}
const fileRows = header.tables.reduce((sum, table) => sum + table.rows, 0);
console.error(
  `${file}: ${fileRows.toLocaleString("en-US")} rows of ${header.tables.length} tables, exported ${header.createdAt} from ${header.source.kind === "pglite" ? "the embedded database" : "PostgreSQL"} (${header.source.server}), schema ${header.schema.migration ?? "unknown"}`,
);
console.error(`Importing into ${url ? `PostgreSQL at ${where}` : `the embedded database in ${where}`}`);

const database = await openOrExit({ url, dataDir, siteName: env.SITE_NAME }, where);
await runTransfer(
  database,
  { label: "Import failed", where, note: "No data was written to the target database." },
  async (onProgress) => {
    const result = await importDatabase(database, file, { onProgress });
    console.log(formatCounts(result.tables));
    for (const sequence of result.sequences) console.log(`  sequence ${sequence.name} at ${sequence.value}`);
    console.log(
      `Done in ${(result.elapsedMs / 1000).toFixed(1)} s: ${result.rows.toLocaleString("en-US")} rows imported; every table's count and checksum match the file.`,
    );
  },
);
