// npm run bench:import — the WordPress dry run (decision 158) on a generated export of
// IMPORT_POSTS posts (10,000 by default, about 100 MB): posts per second and the peak RSS of
// the process, which must stay within 100 MB of the same process before reading; then the
// import job itself (decision 159) on PGlite and PostgreSQL (IMPORT_PARTS, IMPORT_DATABASES);
// IMPORT_LARGE_MB makes the export that large with the same number of posts, IMPORT_SITE=0 leaves
// out the imported site's start and its old addresses.
import { execFileSync, spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import sharp from "sharp";
import { createPostgresDatabase } from "../../tests/support/test-db";
import { startSite } from "../../tests/system/support/site";
import { IMAGE_POOL, makeWxrFile, poolImageName } from "./make-wxr-file";

const posts = Number(process.env.IMPORT_POSTS ?? 10_000);
// IMPORT_LARGE_MB=600: the same posts with bodies long enough for an export of that size (issue 35:
// "a 600 MB export, which no DOM parser in Node can even load, imports too").
const largeMb = Number(process.env.IMPORT_LARGE_MB ?? 0);
const bodyBytes = largeMb > 0 ? Math.round((largeMb * 1024 * 1024) / posts) - 1_000 : 9_000;
const dir = mkdtempSync(path.join(tmpdir(), "bench-import-"));
const file = path.join(dir, "export.xml");
await makeWxrFile(file, posts, bodyBytes);
const megabytes = statSync(file).size / 1024 / 1024;

// In a child of its own, so the RSS is the dry run's alone: before reading, and its peak.
const child = spawnSync(process.execPath, ["--import", "tsx", "scripts/bench/import-child.ts", file], { encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] });
if (child.status !== 0) throw new Error(`the dry run failed (exit ${child.status})`);
const result = JSON.parse(child.stdout.trim().split("\n").at(-1)!) as { seconds: number; articles: number; baseRssMb: number; peakRssMb: number; lines: number };
console.log(`WordPress dry run: ${posts.toLocaleString("en-US")} posts, ${megabytes.toFixed(1)} MB`);
console.log(`  ${result.articles.toLocaleString("en-US")} articles counted, ${result.lines.toLocaleString("en-US")} report lines`);
console.log(`  ${result.seconds.toFixed(1)} s, ${Math.round(posts / result.seconds).toLocaleString("en-US")} posts/s`);
console.log(`  RSS before reading ${result.baseRssMb.toFixed(0)} MB, peak ${result.peakRssMb.toFixed(0)} MB: +${(result.peakRssMb - result.baseRssMb).toFixed(0)} MB`);

// The import itself (decision 159) on each database, in a child of its own per run: every post
// with a featured image from a pool of stock pictures in an uploads folder (stored once each),
// the bodies' other images missing (each reported), as a real site's import would meet them.
if ((process.env.IMPORT_PARTS ?? "dry-run,job").includes("job")) {
  const jobFile = path.join(dir, "export-with-images.xml");
  await makeWxrFile(jobFile, posts, bodyBytes, { pooledImages: true });
  const uploads = path.join(dir, "uploads");
  mkdirSync(path.join(uploads, "pool"), { recursive: true });
  for (let k = 0; k < IMAGE_POOL; k++) {
    const picture = await sharp({ create: { width: 1600, height: 900, channels: 3, background: { r: 40 + k * 20, g: 120, b: 60 } } }).jpeg().toBuffer();
    writeFileSync(path.join(uploads, "pool", poolImageName(k)), picture);
  }
  for (const kind of (process.env.IMPORT_DATABASES ?? "pglite,postgres").split(",")) {
    const database = kind === "postgres" ? await createPostgresDatabase() : null;
    const target = database ? database.url : path.join(dir, `data-${Date.now()}`);
    // With the process settings the server and the import command run with (decision 137): the
    // heap limit (without one V8 lets garbage pile up) and two malloc arenas.
    const job = spawnSync(process.execPath, ["--max-old-space-size=256", "--import", "tsx", "scripts/bench/import-job-child.ts", jobFile, target, uploads], {
      encoding: "utf8",
      stdio: ["ignore", "pipe", "inherit"],
      env: { ...process.env, MALLOC_ARENA_MAX: process.env.MALLOC_ARENA_MAX ?? "2" },
    });
    if (job.status !== 0) throw new Error(`the import on ${kind} failed (exit ${job.status})`);
    const measured = JSON.parse(job.stdout.trim().split("\n").at(-1)!) as { seconds: number; posts: number; created: number; status: string; baseRssMb: number; peakRssMb: number };
    console.log(`Import job on ${kind}: ${measured.posts.toLocaleString("en-US")} posts (${measured.created.toLocaleString("en-US")} created, ${measured.status}), ${(statSync(jobFile).size / 1024 / 1024).toFixed(1)} MB`);
    console.log(`  ${measured.seconds.toFixed(1)} s, ${Math.round(measured.posts / measured.seconds).toLocaleString("en-US")} posts/s`);
    console.log(`  RSS before ${measured.baseRssMb.toFixed(0)} MB, peak ${measured.peakRssMb.toFixed(0)} MB: +${(measured.peakRssMb - measured.baseRssMb).toFixed(0)} MB`);
    if (kind === "pglite" && process.env.IMPORT_SITE !== "0") await siteAfterImport({ DATA_DIR: target });
    await database?.drop();
  }
}

/**
 * The imported site served (needs a production build): the start-up to ready over the imported
 * archive, and an old address answering 301 from memory against /about, with wrk as bench:pages
 * runs it (two threads, 50 connections), each for WRK_SECONDS.
 */
async function siteAfterImport(env: Record<string, string>) {
  const spawned = performance.now();
  const site = await startSite(env, { readyTimeoutMs: 300_000 });
  const readyMs = Math.round(performance.now() - spawned);
  const seconds = process.env.WRK_SECONDS ?? "10";
  const wrk = (url: string) => {
    const out = execFileSync("wrk", ["-t2", "-c50", `-d${seconds}s`, "--latency", url], { encoding: "utf8" });
    const rate = Number(/Requests\/sec:\s+([\d.]+)/.exec(out)?.[1] ?? 0);
    const p99 = /99%\s+([\d.]+\w+)/.exec(out)?.[1] ?? "?";
    return `${Math.round(rate).toLocaleString("en-US")} req/s, p99 ${p99}`;
  };
  // The first generated post's permalink (make-wxr-file.ts: 2011-02-02).
  const old = "/2011/02/02/bench-post-1";
  const answer = await fetch(`${site.url}${old}`, { redirect: "manual" });
  console.log(`The imported site (PGlite): ready ${readyMs.toLocaleString("en-US")} ms after spawn; ${old} answers ${answer.status} to ${answer.headers.get("location")}`);
  console.log(`  /about: ${wrk(`${site.url}/about`)}`);
  console.log(`  an old address (301): ${wrk(`${site.url}${old}`)}`);
  await site.stop();
}
rmSync(dir, { recursive: true, force: true });
