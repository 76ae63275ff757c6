// npm run build: the React Router build (with prerendering), then the .br/.gz twins the server
// sends, then a note of what the build baked in (npm start compares it).
import { spawnSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { BUILD_INFO_FILE, bakedSiteUrl, loadDotEnv, settingsFingerprint } from "./build-info.mjs";
import { compressDirectory } from "./compress.mjs";
import { renderSocialImages } from "./social-images.mjs";

loadDotEnv();
const startedAt = Date.now();
const result = spawnSync("npx", ["react-router", "build"], {
  stdio: "inherit",
  env: { ...process.env, NODE_ENV: "production" },
});
if (result.status !== 0) process.exit(result.status ?? 1);
// `/` per Host and the blog's category views, which React Router's prerender cannot key by path.
// MAIN_DOMAINS is a runtime setting: the build renders each variant with a host of its own.
const views = spawnSync(process.execPath, ["scripts/prerender-views.mjs"], {
  stdio: "inherit",
  env: { ...process.env, NODE_ENV: "production", MAIN_DOMAINS: "localhost", LOG_LEVEL: "warn" },
});
if (views.status !== 0) process.exit(views.status ?? 1);

const images = await renderSocialImages("build/client/images/social");
console.log(`rendered ${images} social preview images`);
const client = compressDirectory("build/client");
const viewFiles = compressDirectory("build/views");
const files = client.files + viewFiles.files;
const seconds = client.seconds + viewFiles.seconds;
console.log(`compressed ${files} files (brotli + gzip) in ${seconds.toFixed(1)} s`);
// The address baked in is kept in the open too: the server compares it with its own at start.
writeFileSync(BUILD_INFO_FILE, JSON.stringify({ builtAt: startedAt, settings: settingsFingerprint(), siteUrl: bakedSiteUrl() }, null, 2));
