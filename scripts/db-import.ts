// npm run db:import -- <file> [--to postgres://…] [--data-dir <DATA_DIR>]
// Loads a db:export file into a new, empty database (DATABASE_URL unless --to or --data-dir says
// otherwise), all in one transaction, and checks every table against the file. --data-dir takes
// the DATA_DIR the site runs with: the file goes where that site reads it (decision 129).
import { existsSync } from "node:fs";
import path from "node:path";
import {
  describeTransferError,
  describeUrl,
  formatCounts,
  importDatabase,
  readTransferHeader,
} from "~/db/transfer.server";
import { commandActor } from "./command-actor";
import { embeddedDirOrExit, envOrExit, openOrExit, parseTransferArgs, runTransfer } from "./transfer-cli";

const args = parseTransferArgs("db:import", "to");
const { file } = args;
if (!existsSync(file)) {
  console.error(`No such file: ${file}`);
  process.exit(1);
}

const env = envOrExit();
const url = args.url ?? (args.dataDir ? undefined : env.DATABASE_URL);
if (!url && !args.dataDir) {
  console.error("Set DATABASE_URL or pass --to postgres://… (a PostgreSQL database), or pass --data-dir <DATA_DIR> (the data folder the site runs with) to load the file into.");
  process.exit(1);
}
const dataDir = url ? undefined : embeddedDirOrExit(args.dataDir!);
if (dataDir === "memory") {
  console.error("DATA_DIR=memory is a throw-away database: give the data folder the site runs with.");
  process.exit(2);
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
console.error(`Importing into ${url ? `PostgreSQL at ${where}` : `the embedded database of DATA_DIR ${path.dirname(where)}, in ${where}`}`);

const database = await openOrExit({ url, dataDir, siteName: env.SITE_NAME }, where);
await runTransfer(
  database,
  { label: "Import failed", where, note: "No data was written to the target database." },
  async (onProgress) => {
    const result = await importDatabase(database, file, { onProgress, actor: commandActor("db:import") });
    console.log(formatCounts(result.tables));
    for (const sequence of result.sequences) console.log(`  sequence ${sequence.name} at ${sequence.value}`);
    console.log(
      `Done in ${(result.elapsedMs / 1000).toFixed(1)} s: ${result.rows.toLocaleString("en-US")} rows imported; every table's count and checksum match the file.`,
    );
    if (!url) console.log(`Start the site with DATA_DIR=${path.dirname(where)} to serve this data.`);
  },
);
