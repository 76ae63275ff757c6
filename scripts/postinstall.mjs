// After npm install: apply patches/ to the build tools (patch-package; decision 095). An install
// without the development dependencies (npm ci --omit=dev) has neither those tools nor
// patch-package, so there is nothing to patch and nothing to fail.
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";

if (existsSync("node_modules/patch-package/index.js")) {
  const result = spawnSync(process.execPath, ["node_modules/patch-package/index.js", "--error-on-fail"], { stdio: "inherit" });
  process.exit(result.status ?? 1);
}
