// npm run db:import -- <file> [--to postgres://…] [--data-dir <dir>]
// Loads a db:export file into a new, empty database (DATABASE_URL unless --to or --data-dir says
// otherwise), all in one transaction, and checks every table against the file.
import { existsSync } from "node:fs";
import { parseArgs } from "node:util";
import { getEnv } from "~/http/env.server";
import { openDatabase } from "~/db/client.server";
import {
  describeTransferError,
  describeUrl,
  formatCounts,
  progressPrinter,
  importDatabase,
  readTransferHeader,
} from "~/db/transfer.server";

const usage = "usage: npm run db:import -- <file> [--to postgres://…] [--data-dir <dir>]";
let parsed;
try {
  parsed = parseArgs({ allowPositionals: true, options: { to: { type: "string" }, "data-dir": { type: "string" } } });
} catch (error) {
  console.error(`${(error as Error).message}\n${usage}`);
  process.exit(2);
}
const { values, positionals } = parsed;
const file = positionals[0];
if (!file || positionals.length > 1 || (values.to && values["data-dir"])) {
  console.error(usage);
  process.exit(2);
}
if (values.to && !/^postgres(ql)?:\/\//.test(values.to)) {
  console.error("--to must be a postgres:// connection URL");
  process.exit(2);
}
if (!existsSync(file)) {
  console.error(`No such file: ${file}`);
  process.exit(1);
}

let env;
try {
  env = getEnv();
} catch (error) {
  console.error((error as Error).message);
  process.exit(1);
}
const dataDir = values["data-dir"];
const url = values.to ?? (dataDir ? undefined : env.DATABASE_URL);
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

let database;
try {
  database = await openDatabase({ url, dataDir, siteName: env.SITE_NAME });
} catch (error) {
  console.error(describeTransferError(error, where));
  process.exit(1);
}

let exitCode = 0;
const progress = progressPrinter();
try {
  const result = await importDatabase(database, file, { onProgress: progress.update });
  progress.done();
  console.log(formatCounts(result.tables));
  for (const sequence of result.sequences) console.log(`  sequence ${sequence.name} at ${sequence.value}`);
  console.log(
    `Done in ${(result.elapsedMs / 1000).toFixed(1)} s: ${result.rows.toLocaleString("en-US")} rows imported; every table's count and checksum match the file.`,
  );
} catch (error) {
  progress.done();
  console.error(`Import failed: ${describeTransferError(error, where)}`);
  console.error("No data was written to the target database.");
  exitCode = 1;
} finally {
  await database.close();
}
process.exit(exitCode);
