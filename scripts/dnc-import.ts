// npm run dnc:import -- <file> [--remove] [--date YYYY-MM-DD]
// Loads a National Do-Not-Call Registry download (or, with --remove, a change file's deletions).
import { statSync } from "node:fs";
import { parseArgs } from "node:util";
import { getEnv } from "~/http/env.server";
import { closeDatabase, getDatabase, setDatabaseRole } from "~/db/database.server";
import { DNC_MAX_AGE_DAYS, dncDataAgeDays } from "~/services/dnc/dnc.server";
import { DNC_SHARED_SESSION_CHUNK_SIZE, importDncFile } from "~/services/dnc/import.server";
import { commandActor } from "./command-actor";

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { remove: { type: "boolean", default: false }, date: { type: "string" } },
});
const file = positionals[0];
if (!file) {
  console.error("usage: npm run dnc:import -- <file> [--remove] [--date YYYY-MM-DD]");
  process.exit(2);
}
const dataDate = values.date ?? new Date().toISOString().slice(0, 10);
if (!/^\d{4}-\d{2}-\d{2}$/.test(dataDate)) {
  console.error("--date must be written YYYY-MM-DD (the date the registry data was downloaded)");
  process.exit(2);
}
const totalBytes = statSync(file).size;
const env = getEnv();

setDatabaseRole("command");
const database = await getDatabase().catch((error: Error) => {
  console.error(error.message);
  process.exit(1);
});
const target = env.DATABASE_URL ? "PostgreSQL" : database.viaServer ? "the embedded database, through the running server" : "the embedded database";
console.error(`Importing ${file} into ${target} (${values.remove ? "remove" : "add"}, data date ${dataDate})`);

const bar = (fraction: number) => {
  const width = 30;
  const done = Math.round(Math.min(1, fraction) * width);
  return `[${"#".repeat(done)}${".".repeat(width - done)}]`;
};
const averageLineBytes = 12;
const result = await importDncFile(database.db, file, {
  mode: values.remove ? "remove" : "add",
  dataDate,
  actor: commandActor("dnc:import"),
  chunkSize: database.viaServer ? DNC_SHARED_SESSION_CHUNK_SIZE : undefined,
  onProgress: ({ lines, changed, badLines, elapsedMs }) => {
    const rate = Math.round(lines / Math.max(0.001, elapsedMs / 1000));
    const fraction = (lines * averageLineBytes) / Math.max(1, totalBytes);
    process.stderr.write(
      `\r${bar(fraction)} ${lines.toLocaleString()} lines, ${changed.toLocaleString()} ${values.remove ? "removed" : "added"}, ${badLines} bad, ${rate.toLocaleString()} rows/s   `,
    );
  },
});
process.stderr.write("\n");
console.log(
  `Done in ${(result.elapsedMs / 1000).toFixed(1)} s: ${result.lines.toLocaleString()} lines, ${result.changed.toLocaleString()} ${values.remove ? "removed" : "added"}, ${result.badLines} bad lines.`,
);
for (const bad of result.badLineSamples) console.log(`  line ${bad.line}: ${JSON.stringify(bad.text)}`);
if (result.badLines > result.badLineSamples.length) console.log(`  ... and ${result.badLines - result.badLineSamples.length} more bad lines`);
const age = dncDataAgeDays(dataDate);
if (age !== null && age > DNC_MAX_AGE_DAYS) console.log(`Warning: this data is ${age} days old; the registry must be no older than ${DNC_MAX_AGE_DAYS} days.`);
await closeDatabase();
