// npm run db:export -- <file> [--from postgres://…] [--data-dir <dir>]
// Writes every table of the app's database to one file (gzip'ed when the name ends in .gz): a
// logical backup of either database kind, and the way from the embedded database to PostgreSQL.
import { existsSync } from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { getEnv } from "~/http/env.server";
import { openDatabase } from "~/db/client.server";
import {
  describeTransferError,
  describeUrl,
  exportDatabase,
  formatCounts,
  progressPrinter,
} from "~/db/transfer.server";

const usage = "usage: npm run db:export -- <file> [--from postgres://…] [--data-dir <dir>]";
let parsed;
try {
  parsed = parseArgs({ allowPositionals: true, options: { from: { type: "string" }, "data-dir": { type: "string" } } });
} catch (error) {
  console.error(`${(error as Error).message}\n${usage}`);
  process.exit(2);
}
const { values, positionals } = parsed;
const file = positionals[0];
if (!file || positionals.length > 1 || (values.from && values["data-dir"])) {
  console.error(usage);
  process.exit(2);
}
if (values.from && !/^postgres(ql)?:\/\//.test(values.from)) {
  console.error("--from must be a postgres:// connection URL");
  process.exit(2);
}
if (!existsSync(path.dirname(path.resolve(file)))) {
  console.error(`The folder ${path.dirname(path.resolve(file))} does not exist.`);
  process.exit(1);
}

let env;
try {
  env = getEnv();
} catch (error) {
  console.error((error as Error).message);
  process.exit(1);
}
const url = values.from ?? (values["data-dir"] ? undefined : env.DATABASE_URL);
const dataDir = values["data-dir"] ?? (env.DATA_DIR === "memory" ? "memory" : path.join(env.DATA_DIR, "pglite"));
if (!url && dataDir === "memory") {
  console.error("DATA_DIR=memory is a throw-away database; there is nothing to export.");
  process.exit(1);
}
if (!url && !existsSync(dataDir)) {
  console.error(`There is no embedded database in ${dataDir} (set DATA_DIR, or pass --data-dir or --from).`);
  process.exit(1);
}
const where = url ? describeUrl(url) : dataDir;
console.error(`Exporting ${url ? `PostgreSQL at ${where}` : `the embedded database in ${where}`} to ${file}`);

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
  const result = await exportDatabase(database, file, { onProgress: progress.update });
  progress.done();
  console.log(formatCounts(result.header.tables));
  console.log(
    `Done in ${(result.elapsedMs / 1000).toFixed(1)} s: ${result.rows.toLocaleString("en-US")} rows of ${result.header.tables.length} tables (schema ${result.header.schema.migration ?? "unknown"}) written to ${file}.`,
  );
} catch (error) {
  progress.done();
  console.error(`Export failed: ${describeTransferError(error, where)}`);
  exitCode = 1;
} finally {
  await database.close();
}
process.exit(exitCode);
