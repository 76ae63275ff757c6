// npm run import:wordpress -- <export.xml> --dry-run [--report report.csv]
// npm run import:ghost -- <export.json> --dry-run [--report report.csv]
// Reads a WordPress export (Tools → Export) or a Ghost export (Settings → Labs → Export) as a
// stream and says what an import would do: nothing is written to the database (decision 158).
import { createReadStream, existsSync, statSync, writeFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { dryRunSummary, reportCsv } from "~/services/import/import-report";
import { dryRunGhost } from "~/services/import/ghost-dry-run.server";
import { GhostError } from "~/services/import/ghost-reader.server";
import { dryRunWordPress } from "~/services/import/wordpress-dry-run.server";
import { WxrError } from "~/services/import/wxr-reader.server";

const { values, positionals } = parseArgs({ allowPositionals: true, options: { "dry-run": { type: "boolean", default: false }, report: { type: "string" } } });
const [source, file] = positionals;
if (source !== "wordpress" && source !== "ghost") throw new Error("scripts/import-site.ts is run as npm run import:wordpress or import:ghost");
const usage = `usage: npm run import:${source} -- <export.${source === "ghost" ? "json" : "xml"}> --dry-run [--report report.csv]`;
if (!file) {
  console.error(usage);
  process.exit(2);
}
if (!existsSync(file) || !statSync(file).isFile()) {
  console.error(`No file at ${file}.`);
  process.exit(2);
}
if (!values["dry-run"]) {
  console.error("Only the dry run is available so far: it reads the whole export and reports what an import would do, writing nothing. Add --dry-run.");
  process.exit(2);
}

const started = Date.now();
try {
  const input = createReadStream(file, { highWaterMark: 64 * 1024 });
  const run = source === "ghost" ? await dryRunGhost(input) : await dryRunWordPress(input);
  for (const line of dryRunSummary(run)) console.log(line);
  if (values.report) {
    writeFileSync(values.report, reportCsv(run.lines));
    console.log(`The report (${run.lines.length.toLocaleString("en-US")} lines) is in ${values.report}.`);
  } else {
    for (const line of run.lines) console.log(`  ${line.outcome}: ${line.item} (${line.oldUrl || "no address"}): ${line.reason}`);
  }
  console.error(`Read ${(statSync(file).size / 1024 / 1024).toFixed(1)} MB in ${((Date.now() - started) / 1000).toFixed(1)} s.`);
} catch (error) {
  if (error instanceof WxrError || error instanceof GhostError) {
    console.error(error.message);
    process.exit(1);
  }
  throw error;
}
