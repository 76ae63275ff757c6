// npm run bench:redirects (decision 160): old addresses answered 301 from memory. One production
// process (`node server.mjs`) on a fresh PostgreSQL database; REDIRECTS (100,000) old WordPress
// addresses, half as pretty paths and half as ?p= queries on /, are written through the service an
// import uses, in batches of 10,000, while the process serves. Measures:
// - the writes, and the time from the last commit until the process answers its last address 301;
// - the server's RSS before and after (its map of every address);
// - wrk, as bench:pages runs it: nginx gzip_static /about/, /about from memory, an address that is
//   neither a page nor an old address (404), before the redirects and after, plus the two kinds of
//   old address (301) after. The hot pages should pay nothing: the map is asked only after the
//   memory pages missed. Needs a production build (npm run build).
import { execFile, execFileSync } from "node:child_process";
import { promisify } from "node:util";
import { readFileSync } from "node:fs";
import path from "node:path";
import { openDatabase } from "~/db/client.server";
import { upsertRedirects, type RedirectInput } from "~/services/redirects/redirects.server";
import { createPostgresDatabase } from "../../tests/support/test-db";
import { rows } from "../../tests/system/support/inspect";
import { startSite, type SiteProcess } from "../../tests/system/support/site";

const REDIRECTS = Number(process.env.REDIRECTS ?? 100_000);
const BATCH = 10_000;
const WRK_REPS = process.env.WRK_REPS ?? "3";
const SHARED = path.resolve(import.meta.dirname, "../../../shared/bench");

/** The server's own process: `node server.mjs` runs it as a child unless NODE_OPTIONS sets a heap limit (decision 137). */
function serverPid(site: SiteProcess) {
  const children = readFileSync(`/proc/${site.child.pid}/task/${site.child.pid}/children`, "utf8").trim().split(/\s+/).filter(Boolean);
  return Number(children[0] ?? site.child.pid);
}

function rssMb(pid: number) {
  const kb = Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? 0);
  return Math.round(kb / 1024);
}

/** Old addresses as an export of a WordPress site brings them: /YYYY/MM/slug/ and /?p=ID. */
function oldAddresses(count: number, targets: string[]): RedirectInput[] {
  return Array.from({ length: count }, (_, i) => ({
    path: i % 2 === 0 ? `/${2010 + (i % 14)}/${String(1 + (i % 12)).padStart(2, "0")}/an-old-post-number-${i}/` : `/?p=${i}`,
    target: targets[i % targets.length]!,
  }));
}

/**
 * wrk through the shared runner, without blocking this process: it must go on reading the server's
 * stdout, or the server's log lines pile up behind a full pipe (decision 161).
 */
async function wrk(targets: Record<string, string>) {
  const args = [`${SHARED}/wrk.mjs`, "--reps", WRK_REPS, ...Object.entries(targets).map(([label, url]) => `${label}=${url}`)];
  return (await promisify(execFile)("node", args, { encoding: "utf8" })).stdout;
}

async function answers301(url: string) {
  const response = await fetch(url, { redirect: "manual" });
  await response.arrayBuffer();
  return response.status === 301;
}

const database = await createPostgresDatabase();
// MAIN_DOMAINS: / on this host is the home page, so a WordPress ?p= on / is looked up.
const site = await startSite({ DATABASE_URL: database.url, MAIN_DOMAINS: "127.0.0.1" }, { readyTimeoutMs: 120_000 });
execFileSync(`${SHARED}/run-nginx.sh`, ["start", "build/client", "build/client"], { stdio: "ignore" });
try {
  const handle = await openDatabase({ url: database.url, connectTimeoutMs: 60_000 });
  const targets = (await rows<{ slug: string }>(handle, "SELECT slug FROM articles WHERE status = 'published' ORDER BY slug")).map((row) => `/articles/${row.slug}`);
  const pid = serverPid(site);
  const miss = `${site.url}/no-such-page-and-no-old-address/`;
  const common = { "nginx-gzip_static": "http://127.0.0.1:8083/about/", about: `${site.url}/about`, "not-found-404": miss };

  console.log(`# Redirects benchmark ${new Date().toISOString()}, ${REDIRECTS.toLocaleString("en-US")} old addresses to ${targets.length} articles, PostgreSQL, node ${process.version}`);
  console.log(`\nRSS of the server at ready, no redirects: ${rssMb(pid)} MB`);
  console.log("\n## Before the redirects\n");
  console.log(await wrk(common));
  const rssBefore = rssMb(pid);

  const addresses = oldAddresses(REDIRECTS, targets);
  const writeStarted = performance.now();
  let written = 0;
  for (let at = 0; at < addresses.length; at += BATCH) {
    const result = await upsertRedirects(handle.db, addresses.slice(at, at + BATCH), { origin: "bench", actor: null });
    written += result.written;
    if (result.refused.length > 0) throw new Error(`refused: ${JSON.stringify(result.refused.slice(0, 3))}`);
  }
  const committed = performance.now();
  const last = addresses.at(-1)!.path;
  while (!(await answers301(`${site.url}${last}`))) {
    if (performance.now() - committed > 120_000) throw new Error(`${last} did not answer 301 within 120 s`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  const served = performance.now();
  await handle.close();
  const rssAfter = rssMb(pid);
  console.log(
    `\n${written.toLocaleString("en-US")} written in ${((committed - writeStarted) / 1000).toFixed(1)} s (batches of ${BATCH.toLocaleString("en-US")}); ` +
      `the last one answered 301 ${Math.round(served - committed)} ms after its commit`,
  );
  console.log(`RSS of the server: ${rssBefore} MB before the writes, ${rssAfter} MB with the map (${rssAfter - rssBefore >= 0 ? "+" : ""}${rssAfter - rssBefore} MB)`);

  console.log("\n## With the redirects (301 counted as non-2xx by wrk: every answer of those two rows is the 301)\n");
  console.log(await wrk({ ...common, "old-path-301": `${site.url}${addresses[REDIRECTS / 2]!.path}`, "wp-query-301": `${site.url}/?p=${REDIRECTS / 2 + 1}` }));
  console.log(`RSS of the server after the runs: ${rssMb(pid)} MB`);
} catch (error) {
  await new Promise((resolve) => setTimeout(resolve, 1000)); // what the server wrote while wrk ran
  console.error(`the server's last lines:\n${site.output().split("\n").slice(-30).join("\n")}`);
  throw error;
} finally {
  execFileSync(`${SHARED}/run-nginx.sh`, ["stop"], { stdio: "ignore" });
  await site.stop();
  await database.drop();
}
process.exit(0);
