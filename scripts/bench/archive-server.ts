// The server half of bench:archive (issue 26): one production process (`node server.mjs`) over
// ARCHIVE_ARTICLES published articles, on PostgreSQL or on a PGlite folder. Measures the time from
// spawn to "listening" and from listening to /readyz 200, the RSS at ready, after serving every
// article page once and at its peak, /blog page 1's bytes, and on PostgreSQL a second process:
// an article published through the first one's admin until the second serves it from memory.
// Optional (ARCHIVE_WRK=1): /about, /blog and an archive article from memory against nginx
// gzip_static, as bench:pages measures them. Needs a production build (npm run build).
// benchMemory (ARCHIVE_PARTS=memory): the memory bound of issue 32 (decision 137): the RSS of the
// server after every article page is served once, with no settings at all, for the six-article
// site and for ARCHIVE_MEMORY_SIZES (2,000 and 10,000) more articles, and the heap limit `npm start`
// gives against `node server.mjs`'s.
import { execFileSync, spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { createPostgresDatabase } from "../../tests/support/test-db";
import { createAdmin, signIn } from "../../tests/system/support/admin-session";
import { openSiteDatabase, rows } from "../../tests/system/support/inspect";
import { BUILD_SITE_URL, startSite, TEST_AUTH_SECRET, type SiteProcess } from "../../tests/system/support/site";
import { addArchive } from "./archive-seed";
import { publishForm } from "./publish-form";

const ARTICLES = Number(process.env.ARCHIVE_ARTICLES ?? 10_000);
const PUBLISH_RUNS = Number(process.env.ARCHIVE_PUBLISH_RUNS ?? 7);
const CONCURRENCY = 4;
const ADMIN = { email: "bench-archive@patriotinvestor.example", password: "Saratoga-Victory-1777!" };

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/** The server's "listening" line: its own process id (server.mjs may have started it as a child) and its memory bounds. */
function listening(output: string) {
  const line = output.split("\n").find((text) => text.includes('"msg":"listening on'));
  if (!line) throw new Error(`no "listening" line (LOG_LEVEL info?):\n${output}`);
  return JSON.parse(line) as { pid: number; heapLimitMb: number; pageCacheMb: number };
}

/** VmRSS and VmHWM (peak) of the server process, in MB; `of`: another process (the one that started it). */
function memory(site: SiteProcess, of = listening(site.output()).pid) {
  const status = readFileSync(`/proc/${of}/status`, "utf8");
  const kb = (name: string) => Number(new RegExp(`${name}:\\s+(\\d+)`).exec(status)?.[1] ?? 0);
  return { rssMb: Math.round(kb("VmRSS") / 1024), peakMb: Math.round(kb("VmHWM") / 1024) };
}

async function timedStart(env: Record<string, string>) {
  const spawned = performance.now();
  const site = await startSite(env, { readyTimeoutMs: 120_000, waitUntilReady: false });
  let listeningAt = 0;
  for (;;) {
    if (!listeningAt && site.output().includes("listening on")) listeningAt = performance.now();
    if (listeningAt && (await fetch(`${site.url}/readyz`).then((response) => response.ok, () => false))) break;
    if (performance.now() - spawned > 120_000) throw new Error(`not ready:\n${site.output()}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  const readyAt = performance.now();
  return { site, listeningMs: Math.round(listeningAt - spawned), readyAfterListeningMs: Math.round(readyAt - listeningAt) };
}

async function publishLive(a: SiteProcess, b: SiteProcess, databaseUrl: string) {
  createAdmin({ DATABASE_URL: databaseUrl }, ADMIN);
  const cookie = await signIn(a.url, ADMIN);
  const handle = await openSiteDatabase({ url: databaseUrl });
  const authorId = (await rows<{ id: string }>(handle, "SELECT id FROM authors ORDER BY name LIMIT 1"))[0]!.id;
  await handle.close();
  const action: number[] = [];
  const startedAt: number[] = [];
  const article: number[] = [];
  const live: number[] = [];
  for (let run = 0; run < PUBLISH_RUNS; run++) {
    const slug = `bench-archive-${Date.now().toString(36)}-${run}`;
    const form = publishForm(slug, run, authorId);
    const started = performance.now();
    startedAt.push(Date.now());
    // B is watched while A's action runs (the action returns once A itself serves the change).
    const posted = fetch(`${a.url}/admin/articles/new`, { method: "POST", headers: { Cookie: cookie, Origin: a.url, "Content-Type": "application/x-www-form-urlencoded" }, body: form, redirect: "manual" }).then((response) => {
      action.push(performance.now() - started);
      if (response.status !== 302) throw new Error(`publishing answered ${response.status}`);
    });
    // Live on B: its article page answers 200, then its /blog (from memory) lists the article.
    let articleAt = 0;
    for (;;) {
      if (!articleAt) {
        const page = await fetch(`${b.url}/articles/${slug}`);
        await page.arrayBuffer();
        if (page.status === 200) articleAt = performance.now();
      }
      const blog = await fetch(`${b.url}/blog`);
      const html = await blog.text();
      if (articleAt && html.includes(`/articles/${slug}"`) && !blog.headers.has("x-request-id")) break;
      if (performance.now() - started > 20_000) throw new Error("B did not list the article within 20 s");
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    await posted;
    article.push(articleAt - started);
    live.push(performance.now() - started);
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  // The live set's renders after each change, from B's log (the first one is the start's).
  const renders = b
    .output()
    .split("\n")
    .filter((line) => line.includes('"live pages rendered"'))
    .slice(1)
    .map((line) => JSON.parse(line) as { ms: number; renderMs: number; compressMs: number; rendered: number });
  // When B had the change, from its log's times (ms since the publish request started).
  const bLog = b
    .output()
    .split("\n")
    .filter((line) => line.startsWith("{"))
    .map((line) => JSON.parse(line) as { msg?: string; time?: number | string; ms?: number });
  const timeOf = (entry: { time?: number | string }) => (typeof entry.time === "number" ? entry.time : Date.parse(String(entry.time)));
  const after = (message: string) =>
    startedAt.map((at) => {
      const entry = bLog.find((line) => line.msg === message && timeOf(line) >= at);
      return entry ? timeOf(entry) - at : NaN;
    });
  const reloadedOnB = after("published articles reloaded");
  const reloadMs = bLog.filter((line) => line.msg === "published articles reloaded").slice(1).map((line) => line.ms ?? 0);
  const figures = (values: number[]) => ({ medianMs: Math.round(median(values)), maxMs: Math.round(Math.max(...values)) });
  return {
    action: figures(action),
    articleOnB: figures(article),
    blogOnB: figures(live),
    reloadedOnB: { ...figures(reloadedOnB), reloadMs: median(reloadMs) },
    liveSetOnB: { pages: renders[0]?.rendered, ...figures(renders.map((render) => render.ms)), renderMs: median(renders.map((render) => render.renderMs)), compressMs: median(renders.map((render) => render.compressMs)) },
  };
}

function throughput(site: SiteProcess, articlePath: string) {
  const shared = path.resolve("../shared/bench");
  execFileSync(`${shared}/run-nginx.sh`, ["start", "build/client", "build/client"], { stdio: "ignore" });
  try {
    return execFileSync("node", [`${shared}/wrk.mjs`, "--reps", process.env.WRK_REPS ?? "1", "nginx-gzip_static=http://127.0.0.1:8083/about/", `about=${site.url}/about`, `blog=${site.url}/blog`, `article=${site.url}${articlePath}`], { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] });
  } finally {
    execFileSync(`${shared}/run-nginx.sh`, ["stop"], { stdio: "ignore" });
  }
}

/** Every article page once, CONCURRENCY at a time, as a browser asks (brotli or gzip). */
async function serveEveryArticle(site: SiteProcess, slugs: string[]) {
  const served = performance.now();
  let next = 0;
  let failures = 0;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < slugs.length) {
        const slug = slugs[next++]!;
        const response = await fetch(`${site.url}/articles/${slug}`);
        await response.arrayBuffer();
        if (response.status !== 200) failures++;
      }
    }),
  );
  return { failures, serveSeconds: (performance.now() - served) / 1000 };
}

export async function benchServer(kind: "postgres" | "pglite") {
  const dataDir = mkdtempSync(path.join(tmpdir(), "bench-archive-"));
  const database = kind === "postgres" ? await createPostgresDatabase() : undefined;
  // ARCHIVE_NODE_OPTIONS: flags for the server processes only (a heap limit, say).
  const env = { ...(database ? { DATABASE_URL: database.url } : {}), DATA_DIR: dataDir, LOG_LEVEL: "info", ...(process.env.ARCHIVE_NODE_OPTIONS ? { NODE_OPTIONS: process.env.ARCHIVE_NODE_OPTIONS } : {}) };
  const sites: SiteProcess[] = [];
  try {
    // The first start migrates and imports the seed; the archive is added while it is down.
    await (await startSite(env, { readyTimeoutMs: 120_000 })).stop();
    const handle = await openSiteDatabase(database ? { url: database.url } : { dataDir });
    let slugs: string[];
    try {
      await addArchive(handle.db, ARTICLES);
      // Read now: an embedded database is the server's alone once it runs.
      slugs = (await rows<{ slug: string }>(handle, "SELECT slug FROM published_articles ORDER BY publish_at DESC")).map((row) => row.slug);
    } finally {
      await handle.close();
    }
    const first = await timedStart(env);
    sites.push(first.site);
    const a = first.site;
    const atReady = memory(a);
    const blogBytes = Buffer.byteLength(await (await fetch(`${a.url}/blog`, { headers: { "Accept-Encoding": "identity" } })).text());

    const { failures, serveSeconds } = await serveEveryArticle(a, slugs);
    const afterServing = memory(a);
    // A second pass over the newest 500: from memory or disk, no render.
    const again = performance.now();
    for (const slug of slugs.slice(0, 500)) await (await fetch(`${a.url}/articles/${slug}`)).arrayBuffer();
    const againMs = (performance.now() - again) / 500;

    let publish: Awaited<ReturnType<typeof publishLive>> | undefined;
    if (database) {
      const second = await timedStart(env);
      sites.push(second.site);
      publish = await publishLive(a, second.site, database.url);
    }
    const wrk = process.env.ARCHIVE_WRK === "1" ? throughput(a, `/articles/${slugs[0]}`) : undefined;
    console.log(
      JSON.stringify({
        kind,
        articles: slugs.length,
        listeningMs: first.listeningMs,
        readyAfterListeningMs: first.readyAfterListeningMs,
        rssAtReadyMb: atReady.rssMb,
        blogPage1Bytes: blogBytes,
        servedEveryArticle: { pages: slugs.length, failures, seconds: +serveSeconds.toFixed(1), perSecond: Math.round(slugs.length / serveSeconds) },
        rssAfterServingMb: afterServing.rssMb,
        peakRssMb: afterServing.peakMb,
        secondVisitMsPerPage: +againMs.toFixed(2),
        publishLiveOnSecondProcess: publish,
      }),
    );
    if (wrk) console.log(wrk);
  } finally {
    await Promise.all(sites.map((site) => site.stop()));
    await database?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** No setting that bounds memory: NODE_OPTIONS empty (not inherited), PAGE_CACHE_MB unset. */
const DEFAULTS = { NODE_OPTIONS: "" };

/** A site with `added` archive articles besides the six, every article page served once, and the server's memory then. */
async function memoryAfterServing(kind: "postgres" | "pglite", added: number) {
  const dataDir = mkdtempSync(path.join(tmpdir(), "bench-archive-memory-"));
  const database = kind === "postgres" ? await createPostgresDatabase() : undefined;
  const env = { ...(database ? { DATABASE_URL: database.url } : {}), DATA_DIR: dataDir, LOG_LEVEL: "info", ...DEFAULTS };
  let site: SiteProcess | undefined;
  try {
    await (await startSite(env, { readyTimeoutMs: 120_000 })).stop();
    const handle = await openSiteDatabase(database ? { url: database.url } : { dataDir });
    let slugs: string[];
    try {
      if (added > 0) await addArchive(handle.db, added);
      slugs = (await rows<{ slug: string }>(handle, "SELECT slug FROM published_articles ORDER BY publish_at DESC")).map((row) => row.slug);
    } finally {
      await handle.close();
    }
    site = await startSite(env, { readyTimeoutMs: 120_000 });
    const { pid, heapLimitMb, pageCacheMb } = listening(site.output());
    const atReady = memory(site);
    const { failures, serveSeconds } = await serveEveryArticle(site, slugs);
    const after = memory(site);
    // The process `node server.mjs` is: it waits for the server and passes signals on.
    const launcher = site.child.pid === pid ? undefined : memory(site, site.child.pid).rssMb;
    return { articles: slugs.length, heapLimitMb, pageCacheMb, rssAtReadyMb: atReady.rssMb, rssAfterServingMb: after.rssMb, peakRssMb: after.peakMb, launcherRssMb: launcher, failures, perSecond: Math.round(slugs.length / serveSeconds) };
  } finally {
    await site?.stop();
    await database?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** The heap limit of the server `npm start` runs (the build being current, it does not build). */
async function heapLimitUnderNpmStart() {
  const dataDir = mkdtempSync(path.join(tmpdir(), "bench-archive-npm-start-"));
  const port = 3000 + Math.floor(Math.random() * 1000);
  const child = spawn("npm", ["start"], {
    env: { ...process.env, ...DEFAULTS, NODE_ENV: "production", HOST: "127.0.0.1", PORT: String(port), SITE_URL: BUILD_SITE_URL, DATA_DIR: dataDir, LOG_LEVEL: "info", AUTH_SECRET: TEST_AUTH_SECRET },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
  try {
    for (const deadline = Date.now() + 60_000; !output.includes('"msg":"listening on'); ) {
      if (Date.now() > deadline || child.exitCode !== null) throw new Error(`npm start did not listen:\n${output}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    return listening(output).heapLimitMb;
  } finally {
    // The server's own process stops on SIGTERM; npm and scripts/start.mjs then end with it.
    const pid = output.includes('"msg":"listening on') ? listening(output).pid : child.pid!;
    process.kill(pid, "SIGTERM");
    await new Promise((resolve) => (child.exitCode === null ? child.once("exit", resolve) : resolve(null)));
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/**
 * Issue 32: with no settings, the server's RSS after every article page is served once, at
 * six articles and at each of ARCHIVE_MEMORY_SIZES more (2,000 and 10,000 by default), and the
 * heap limit under `npm start` (it must be the one of `node server.mjs`).
 */
export async function benchMemory(kind: "postgres" | "pglite") {
  const sizes = (process.env.ARCHIVE_MEMORY_SIZES ?? "2000,10000").split(",").map(Number);
  const npmStartHeapLimitMb = await heapLimitUnderNpmStart();
  const six = await memoryAfterServing(kind, 0);
  console.log(JSON.stringify({ kind, memory: "defaults", npmStartHeapLimitMb, ...six }));
  for (const added of sizes) {
    const result = await memoryAfterServing(kind, added);
    console.log(JSON.stringify({ kind, memory: "defaults", ...result, moreThanSixMb: result.rssAfterServingMb - six.rssAfterServingMb }));
  }
}
