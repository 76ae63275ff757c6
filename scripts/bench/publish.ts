// npm run bench:publish — publishing without a deploy, measured: two production server processes
// on one PostgreSQL database (a fresh database on 127.0.0.1:5432, dropped afterwards). An article
// is published through A's admin (HTTP, signed in) and B is polled until it serves the page from
// memory; then the re-render time of the live pages (from the servers' logs) and what each
// brotli quality would cost for the same pages. BENCH_ARTICLES (default 300) more published
// articles, with a seed article's body, are in the database before the servers start, to show how
// the time grows with the size of the site. Needs a production build (npm run build).
import zlib from "node:zlib";
import { openDatabase } from "~/db/client.server";
import { ARTICLE_CATEGORIES } from "~/config/categories";
import { createDraft, publishArticle } from "~/services/content/articles.server";
import { importSeedArticles } from "~/services/content/import.server";
import { seedArticleFiles } from "~/content/seed/seed-articles.server";
import { createPostgresDatabase } from "../../tests/support/test-db";
import { createAdmin, signIn } from "../../tests/system/support/admin-session";
import { startSite, type SiteProcess } from "../../tests/system/support/site";
import { openSiteDatabase, rows } from "../../tests/system/support/inspect";
import { publishForm } from "./publish-form";

const RUNS = Number(process.env.BENCH_RUNS ?? 9);
const EXTRA_ARTICLES = Number(process.env.BENCH_ARTICLES ?? 300);
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

/** What the first start does (the six seed articles), then EXTRA_ARTICLES more, one every 2 days back in time. */
async function seedSite() {
  const seeding = await openDatabase({ url: database.url });
  try {
    await importSeedArticles(seeding.db, seedArticleFiles());
    const [source] = (await seeding.db.execute<{ body: string; author_id: string }>(`SELECT body, author_id FROM articles WHERE slug = 'bonds-guide'`)).rows;
    const started = Date.now();
    for (let i = 0; i < EXTRA_ARTICLES; i++) {
      const input = {
        title: `Archive article number ${i + 1} on the markets`,
        slug: `archive-${i + 1}`,
        excerpt: "An article of the archive, for the benchmark: as long as a real one and in one of the six categories.",
        body: source!.body,
        category: ARTICLE_CATEGORIES[i % ARTICLE_CATEGORIES.length]!.name,
        image: "/images/articles/bonds-guide.svg",
        imageAlt: "A chart of Treasury yields over ten years",
        authorId: source!.author_id,
      };
      const created = await createDraft(seeding.db, { input, actor: "bench" });
      if (!created.ok) throw new Error(`seeding: ${JSON.stringify(created)}`);
      const published = await publishArticle(seeding.db, { id: created.article.id, input, expectedVersion: created.article.version, actor: "bench", now: new Date(started - (i + 1) * 2 * 86_400_000) });
      if (!published.ok) throw new Error(`seeding: ${JSON.stringify(published)}`);
    }
  } finally {
    await seeding.close();
  }
}
await seedSite();
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
    const form = publishForm(slug, run, authorId);
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
      .map((line) => JSON.parse(line) as { pages: number; rendered: number; reused: number; ms: number; renderMs: number; compressMs: number }),
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
  // The first 25 article and author pages of the sitemap, as before the archive was seeded.
  for (const match of [...sitemap.matchAll(/<loc>[^<]*?(\/(?:articles|authors)\/[^<]+)<\/loc>/g)].slice(0, 25)) paths.push(match[1]!);
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
  console.log(`\nLive set: ${6 + EXTRA_ARTICLES} published articles before the runs.`);
  console.log(`\n| Render of the live set | files | rendered (median) | reused (median) | median total | max total | median render | median compress |`);
  console.log(`|---|---|---|---|---|---|---|---|`);
  console.log(`| after a change (${later.length} renders, both processes) | ${later.at(-1)?.pages} | ${median(later.map((r) => r.rendered))} | ${median(later.map((r) => r.reused))} | ${median(later.map((r) => r.ms))} ms | ${Math.max(...later.map((r) => r.ms))} ms | ${median(later.map((r) => r.renderMs))} ms | ${median(later.map((r) => r.compressMs))} ms |`);
  console.log(`| at start, after listening (per process) | ${renders[0]?.pages} | ${renders[0]?.rendered} | 0 | ${starts.join(" / ")} ms | | | |`);
  console.log(`\n| Brotli quality on the ${bodies.length} live pages (${raw} KB raw) | time | bytes |`);
  console.log(`|---|---|---|`);
  for (const row of qualities) console.log(`| ${row.quality} | ${row.ms} ms | ${row.kb} KB |`);
} finally {
  await Promise.all([a.stop(), b.stop()]);
  await database.drop();
}
