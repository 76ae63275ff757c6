// npm run build: the React Router build (with prerendering), then the .br/.gz twins the server
// sends, then a note of what the build baked in (npm start compares it).
import { spawnSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { BUILD_INFO_FILE, loadDotEnv, settingsFingerprint } from "./build-info.mjs";
import { compressDirectory } from "./compress.mjs";
import { renderSocialImages } from "./social-images.mjs";

loadDotEnv();
const startedAt = Date.now();
const result = spawnSync("npx", ["react-router", "build"], {
  stdio: "inherit",
  env: { ...process.env, NODE_ENV: "production" },
});
if (result.status !== 0) process.exit(result.status ?? 1);

const images = await renderSocialImages("build/client/images/social");
console.log(`rendered ${images} social preview images`);
const { files, seconds } = compressDirectory("build/client");
console.log(`compressed ${files} files (brotli + gzip) in ${seconds.toFixed(1)} s`);
writeFileSync(BUILD_INFO_FILE, JSON.stringify({ builtAt: startedAt, settings: settingsFingerprint() }, null, 2));
