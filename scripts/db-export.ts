// npm run db:export -- <file> [--from postgres://…] [--data-dir <DATA_DIR>]
// Writes every table of the app's database to one file (gzip'ed when the name ends in .gz): a
// logical backup of either database kind, and the way from the embedded database to PostgreSQL.
import { existsSync } from "node:fs";
import path from "node:path";
import { describeUrl, exportDatabase, formatCounts } from "~/db/transfer.server";
import { embeddedDirOrExit, envOrExit, openOrExit, parseTransferArgs, runTransfer } from "./transfer-cli";

const args = parseTransferArgs("db:export", "from");
const { file } = args;
if (!existsSync(path.dirname(path.resolve(file)))) {
  console.error(`The folder ${path.dirname(path.resolve(file))} does not exist.`);
  process.exit(1);
}

const env = envOrExit();
const url = args.url ?? (args.dataDir ? undefined : env.DATABASE_URL);
const dataDir = url ? undefined : embeddedDirOrExit(args.dataDir ?? env.DATA_DIR);
if (dataDir === "memory") {
  console.error("DATA_DIR=memory is a throw-away database; there is nothing to export.");
  process.exit(1);
}
if (dataDir && !existsSync(dataDir)) {
  console.error(`There is no embedded database in ${args.dataDir ?? env.DATA_DIR} (${dataDir} does not exist): give the DATA_DIR the server runs with (--data-dir or DATA_DIR), or --from.`);
  process.exit(1);
}
const where = url ? describeUrl(url) : dataDir!;
console.error(`Exporting ${url ? `PostgreSQL at ${where}` : `the embedded database in ${where}`} to ${file}`);

const database = await openOrExit({ url, dataDir, siteName: env.SITE_NAME }, where);
await runTransfer(database, { label: "Export failed", where }, async (onProgress) => {
  const result = await exportDatabase(database, file, { onProgress });
  console.log(formatCounts(result.header.tables));
  console.log(
    `Done in ${(result.elapsedMs / 1000).toFixed(1)} s: ${result.rows.toLocaleString("en-US")} rows of ${result.header.tables.length} tables (schema ${result.header.schema.migration ?? "unknown"}) written to ${file}.`,
  );
});
