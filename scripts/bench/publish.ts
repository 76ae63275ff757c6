// npm run bench:publish — publishing without a deploy, measured: two production server processes
// on one PostgreSQL database (a fresh database on 127.0.0.1:5432, dropped afterwards). An article
// is published through A's admin (HTTP, signed in) and B is polled until it serves the page from
// memory; then the full re-render time of the live pages (from the servers' logs) and what each
// brotli quality would cost for the same pages. Needs a production build (npm run build).
import zlib from "node:zlib";
import { createPostgresDatabase } from "../../tests/support/test-db";
import { createAdmin, signIn } from "../../tests/system/support/admin-session";
import { startSite, type SiteProcess } from "../../tests/system/support/site";
import { openSiteDatabase, rows } from "../../tests/system/support/inspect";

const RUNS = Number(process.env.BENCH_RUNS ?? 9);
const ADMIN = { email: "bench-publish@patriotinvestor.example", password: "Saratoga-Victory-1777!" };

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const round = (value: number) => Math.round(value);

async function fromMemory(site: SiteProcess, path: string) {
  const response = await fetch(`${site.url}${path}`);
  await response.arrayBuffer();
  return response.status === 200 && !response.headers.has("x-request-id");
}

const database = await createPostgresDatabase();
const env = { DATABASE_URL: database.url, LOG_LEVEL: "info" };
const [a, b] = await Promise.all([startSite(env), startSite(env)]);
try {
  createAdmin({ DATABASE_URL: database.url }, ADMIN);
  const cookie = await signIn(a.url, ADMIN);
  const handle = await openSiteDatabase({ url: database.url });
  const authorId = (await rows<{ id: string }>(handle, "SELECT id FROM authors ORDER BY name LIMIT 1"))[0]!.id;
  await handle.close();

  const actionMs: number[] = [];
  const visibleOnB: number[] = [];
  for (let run = 0; run < RUNS; run++) {
    const slug = `bench-publish-${Date.now().toString(36)}-${run}`;
    const form = new URLSearchParams({
      intent: "publish",
      title: `Benchmark article number ${run + 1}`,
      slug,
      excerpt: "An article published by the benchmark to time how fast every process serves it.",
      body: "First paragraph.\n\nSecond paragraph with a [link](https://example.com/).",
      category: "Market Analysis",
      image: "/images/articles/bonds-guide.svg",
      imageAlt: "A chart of Treasury yields over ten years",
      authorId,
    });
    const started = performance.now();
    const response = await fetch(`${a.url}/admin/articles/new`, {
      method: "POST",
      headers: { Cookie: cookie, Origin: a.url, "Content-Type": "application/x-www-form-urlencoded" },
      body: form,
      redirect: "manual",
    });
    if (response.status !== 302) throw new Error(`publishing answered ${response.status}: ${await response.text()}`);
    actionMs.push(performance.now() - started);
    while (!(await fromMemory(b, `/articles/${slug}`))) {
      if (performance.now() - started > 10_000) throw new Error("B did not serve the article within 10 s");
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    visibleOnB.push(performance.now() - started);
    await new Promise((resolve) => setTimeout(resolve, 300));
  }

  // The servers log every render of the live set.
  const rendersBySite = [a, b].map((site) =>
    site
      .output()
      .split("\n")
      .filter((line) => line.includes('"live pages rendered"'))
      .map((line) => JSON.parse(line) as { pages: number; ms: number; renderMs: number; compressMs: number }),
  );
  const renders = rendersBySite.flat();
  const starts = [a, b].flatMap((site) =>
    site
      .output()
      .split("\n")
      .filter((line) => line.includes('"liveRenderMs"'))
      .map((line) => (JSON.parse(line) as { liveRenderMs: number }).liveRenderMs),
  );
  // Skip each process's first render (at start, before the JIT warmed up).
  const later = rendersBySite.flatMap((list) => list.slice(1));

  // What each brotli quality costs on the pages B serves now.
  const paths = ["/blog", "/home", "/rss.xml", "/sitemap.xml"];
  const sitemap = await (await fetch(`${b.url}/sitemap.xml`)).text();
  for (const match of sitemap.matchAll(/<loc>[^<]*?(\/(?:articles|authors)\/[^<]+)<\/loc>/g)) paths.push(match[1]!);
  const bodies = await Promise.all(paths.map(async (path) => Buffer.from(await (await fetch(`${b.url}${path}`, { headers: { "Accept-Encoding": "identity" } })).arrayBuffer())));
  const qualities = [4, 5, 6, 9, 11].map((quality) => {
    const started = performance.now();
    let bytes = 0;
    for (const body of bodies) bytes += zlib.brotliCompressSync(body, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: quality, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: body.length } }).length;
    return { quality, ms: round(performance.now() - started), kb: round(bytes / 1024) };
  });
  const raw = round(bodies.reduce((sum, body) => sum + body.length, 0) / 1024);

  console.log(`\n| Runs | Publish action on A (incl. A's re-render), median / max | Served by B from memory after the request, median / max |`);
  console.log(`|---|---|---|`);
  console.log(`| ${RUNS} | ${round(median(actionMs))} / ${round(Math.max(...actionMs))} ms | ${round(median(visibleOnB))} / ${round(Math.max(...visibleOnB))} ms |`);
  console.log(`\n| Full re-render of the live set | pages | median total | max total | median render | median compress |`);
  console.log(`|---|---|---|---|---|---|`);
  console.log(`| after a change (${later.length} renders, both processes) | ${later.at(-1)?.pages} | ${median(later.map((r) => r.ms))} ms | ${Math.max(...later.map((r) => r.ms))} ms | ${median(later.map((r) => r.renderMs))} ms | ${median(later.map((r) => r.compressMs))} ms |`);
  console.log(`| at start, before listening (per process) | ${renders[0]?.pages} | ${starts.join(" / ")} ms | | | |`);
  console.log(`\n| Brotli quality on the ${bodies.length} live pages (${raw} KB raw) | time | bytes |`);
  console.log(`|---|---|---|`);
  for (const row of qualities) console.log(`| ${row.quality} | ${row.ms} ms | ${row.kb} KB |`);
} finally {
  await Promise.all([a.stop(), b.stop()]);
  await database.drop();
}
