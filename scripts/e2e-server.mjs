// The server the browser tests run against: the production build on a fresh embedded database
// in a temporary folder, with the Do-Not-Call test number imported before the server starts
// (PGlite allows one process per folder, so the import cannot run beside the server).
import { spawnSync } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

process.env.DATA_DIR ??= mkdtempSync(path.join(tmpdir(), "e2e-data-"));
const imported = spawnSync(
  process.execPath,
  ["--import", "tsx", "scripts/dnc-import.ts", "tests/fixtures/dnc-e2e.txt", "--date", new Date().toISOString().slice(0, 10)],
  { stdio: ["ignore", "ignore", "inherit"], env: { ...process.env, NODE_ENV: "development" } },
);
if (imported.status !== 0) process.exit(imported.status ?? 1);
await import("./start.mjs");
