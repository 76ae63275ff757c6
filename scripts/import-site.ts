// npm run import:wordpress -- <export.xml> --dry-run [--report report.csv]
// npm run import:wordpress -- <export.xml> [--category old-slug="Our Category"]... [--default-category "Our Category"]
//                            [--uploads path/to/wp-content/uploads | uploads.zip] [--overwrite-edits] [--report report.csv]
// npm run import:ghost -- <export.json> [--dry-run] [--site https://old-site.example] [--uploads path/to/content/images | images.zip] …
// Reads a WordPress export (Tools → Export) or a Ghost export (Settings → Labs → Export) as a
// stream. The dry run says what an import would do and writes nothing (decision 158); the import
// runs as the server's import job does, beside a running server or without one (decision 159).
// --uploads takes the old site's uploads as a folder or as a .zip of it (read in place, whatever
// folder the archive starts at); the images found there are not fetched from the old site.
import { createReadStream, existsSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { CATEGORY_NAMES } from "~/config/categories";
import { closeDatabase, getDatabase, setDatabaseRole } from "~/db/database.server";
import { IMPORT_RUN_TEXTS as T } from "~/lib/import-texts";
import { dryRunSummary, reportCsv } from "~/services/import/import-report";
import { dryRunGhost } from "~/services/import/ghost-dry-run.server";
import { GhostError } from "~/services/import/ghost-reader.server";
import { runImport } from "~/services/import/import-worker.server";
import { createRun, finishRun, getRun, ImportFailure, reportLinesOf } from "~/services/import/runs.server";
import { dryRunWordPress } from "~/services/import/wordpress-dry-run.server";
import { openUploads, UploadsError } from "~/services/import/uploads-source.server";
import { WxrError } from "~/services/import/wxr-reader.server";
import { commandActor } from "./command-actor";

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    "dry-run": { type: "boolean", default: false },
    report: { type: "string" },
    category: { type: "string", multiple: true, default: [] },
    "default-category": { type: "string" },
    uploads: { type: "string" },
    "overwrite-edits": { type: "boolean", default: false },
    site: { type: "string" },
  },
});
const [source, file] = positionals;
if (source !== "wordpress" && source !== "ghost") throw new Error("scripts/import-site.ts is run as npm run import:wordpress or import:ghost");
const usage = `usage: npm run import:${source} -- <export.${source === "ghost" ? "json" : "xml"}> [--dry-run] [--category old-slug="Our Category"]... [--default-category "Our Category"] [--uploads folder-or.zip] [--overwrite-edits] [--report report.csv]${source === "ghost" ? " [--site https://old-site.example]" : ""}`;
if (!file) {
  console.error(usage);
  process.exit(2);
}
if (!existsSync(file) || !statSync(file).isFile()) {
  console.error(`No file at ${file}.`);
  process.exit(2);
}
if (values.site && !/^https?:\/\/[^/]+/.test(values.site)) {
  console.error(`--site takes the old site's address, as https://old-site.example (${values.site} is not one).`);
  process.exit(2);
}
if (values.uploads) {
  const given = values.uploads;
  const isFolder = existsSync(given) && statSync(given).isDirectory();
  if (!isFolder && !/\.zip$/i.test(given)) fail(`--uploads takes a folder or a .zip file (the old site's ${source === "ghost" ? "content/images" : "wp-content/uploads"}); ${given} is neither.`);
  // A .zip is read through once now: a damaged one is said before the dry run, not after it.
  const uploads = await openUploads(given).catch((error: unknown) => fail(error instanceof UploadsError ? error.message : String(error)));
  uploads.close();
}

/** old-slug="Our Category" → the mapping; a wrong one ends the command with what to write. */
function parseMapping(): { categories: Record<string, string>; defaultCategory: string } {
  const categories: Record<string, string> = {};
  for (const text of values.category ?? []) {
    const match = /^([^=]+)=(.+)$/.exec(text);
    if (!match) fail(T.badMapping(text));
    const name = match![2]!.trim().replace(/^"|"$/g, "");
    if (!(CATEGORY_NAMES as readonly string[]).includes(name)) fail(T.unknownCategory(name, CATEGORY_NAMES));
    categories[match![1]!.trim()] = name;
  }
  const fallback = values["default-category"] ?? "";
  if (fallback && !(CATEGORY_NAMES as readonly string[]).includes(fallback)) fail(T.unknownCategory(fallback, CATEGORY_NAMES));
  return { categories, defaultCategory: fallback };
}

function fail(message: string): never {
  console.error(message);
  process.exit(2);
}

const started = Date.now();
const readExport = () => createReadStream(file, { highWaterMark: 64 * 1024 });
try {
  const dryRun = source === "ghost" ? await dryRunGhost(readExport()) : await dryRunWordPress(readExport());
  if (values["dry-run"]) {
    for (const line of dryRunSummary(dryRun)) console.log(line);
    if (values.report) {
      writeFileSync(values.report, reportCsv(dryRun.lines));
      console.log(`The report (${dryRun.lines.length.toLocaleString("en-US")} lines) is in ${values.report}.`);
    } else {
      for (const line of dryRun.lines) console.log(`  ${line.outcome}: ${line.item} (${line.oldUrl || "no address"}): ${line.reason}`);
    }
    console.error(`Read ${(statSync(file).size / 1024 / 1024).toFixed(1)} MB in ${((Date.now() - started) / 1000).toFixed(1)} s.`);
    process.exit(0);
  }

  // The operator confirms the mapping: every category of the old site has a place, or a default.
  const mapping = parseMapping();
  const unmapped = dryRun.categories.map((category) => category.slug).filter((slug) => !(slug in mapping.categories));
  if (unmapped.length > 0 && !mapping.defaultCategory) fail(T.unmappedCategories(unmapped));

  setDatabaseRole("command");
  const database = await getDatabase().catch((error: Error) => fail(error.message));
  const actor = commandActor(`import:${source}`);
  const run = await createRun(database.db, {
    kind: source,
    filePath: path.resolve(file),
    fileName: path.basename(file),
    fileBytes: statSync(file).size,
    options: { ...mapping, defaultCategory: mapping.defaultCategory || CATEGORY_NAMES[0], overwriteEdited: values["overwrite-edits"] ?? false, ...(values.uploads ? { uploadsPath: path.resolve(values.uploads) } : {}), ...(values.site ? { oldSiteUrl: values.site } : {}) },
    actor,
    claim: true,
  });
  let stopped = false;
  for (const signal of ["SIGINT", "SIGTERM"] as const) process.once(signal, () => (stopped = true));
  const width = 30;
  const result = await runImport(database.db, run, {
    isStopped: () => stopped,
    onProgress: (done, total) => {
      const filled = Math.round((total === 0 ? 1 : done / total) * width);
      process.stderr.write(`\r[${"#".repeat(filled)}${".".repeat(width - filled)}] ${T.progress(done, total)}   `);
    },
  }).catch(async (error: unknown) => {
    if (error instanceof WxrError || error instanceof ImportFailure) await finishRun(database.db, run.id, { error: error.message });
    throw error;
  });
  process.stderr.write("\n");
  const after = (await getRun(database.db, run.id))!;
  if (result.stopped) console.log(`Stopped at ${T.progress(after.itemsDone, after.itemsTotal)}: the running server (or the next npm start) goes on with import ${run.id}.`);
  else console.log(T.finished(after));
  const lines = await reportLinesOf(database.db, run.id);
  if (values.report) {
    writeFileSync(values.report, reportCsv(lines));
    console.log(`The report (${lines.length.toLocaleString("en-US")} lines) is in ${values.report}.`);
  } else {
    for (const line of lines) console.log(`  ${line.outcome}: ${line.item} (${line.oldUrl || "no address"}): ${line.reason}`);
  }
  await closeDatabase();
} catch (error) {
  if (error instanceof WxrError || error instanceof GhostError || error instanceof ImportFailure) {
    console.error(error.message);
    process.exit(1);
  }
  throw error;
}
