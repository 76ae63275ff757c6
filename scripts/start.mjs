// npm start: build when there is no current build, then serve in production mode.
import { spawnSync } from "node:child_process";
import { loadDotEnv, staleReason } from "./build-info.mjs";

loadDotEnv();
const reason = staleReason();
if (reason) {
  console.log(`Building first (${reason})...`);
  const result = spawnSync(process.execPath, ["scripts/build.mjs"], { stdio: "inherit" });
  if (result.status !== 0) process.exit(result.status ?? 1);
}
process.env.NODE_ENV ??= "production";
await import("../server.mjs");
