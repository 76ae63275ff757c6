// npm run bench:import — the WordPress dry run (decision 158) on a generated export of
// IMPORT_POSTS posts (10,000 by default, about 100 MB): posts per second and the peak RSS of
// the process, which must stay within 100 MB of the same process before reading.
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { makeWxrFile } from "./make-wxr-file";

const posts = Number(process.env.IMPORT_POSTS ?? 10_000);
const dir = mkdtempSync(path.join(tmpdir(), "bench-import-"));
const file = path.join(dir, "export.xml");
await makeWxrFile(file, posts);
const megabytes = statSync(file).size / 1024 / 1024;

// In a child of its own, so the RSS is the dry run's alone: before reading, and its peak.
const child = spawnSync(process.execPath, ["--import", "tsx", "scripts/bench/import-child.ts", file], { encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] });
if (child.status !== 0) throw new Error(`the dry run failed (exit ${child.status})`);
const result = JSON.parse(child.stdout.trim().split("\n").at(-1)!) as { seconds: number; articles: number; baseRssMb: number; peakRssMb: number; lines: number };
console.log(`WordPress dry run: ${posts.toLocaleString("en-US")} posts, ${megabytes.toFixed(1)} MB`);
console.log(`  ${result.articles.toLocaleString("en-US")} articles counted, ${result.lines.toLocaleString("en-US")} report lines`);
console.log(`  ${result.seconds.toFixed(1)} s, ${Math.round(posts / result.seconds).toLocaleString("en-US")} posts/s`);
console.log(`  RSS before reading ${result.baseRssMb.toFixed(0)} MB, peak ${result.peakRssMb.toFixed(0)} MB: +${(result.peakRssMb - result.baseRssMb).toFixed(0)} MB`);
rmSync(dir, { recursive: true, force: true });
