// npm run bench:archive (issue 26), on PostgreSQL and on PGlite (ARCHIVE_DB=postgres,pglite),
// 10,000 published articles (ARCHIVE_ARTICLES): site search, median and p99 of 1,000 searches
// through the service the /search page calls; then (ARCHIVE_PARTS=search,server,memory) one production
// process over the same archive: start, memory, /blog bytes, every article served once, publish
// live on a second process; and the memory with no settings after every article page is served
// once, at 6, 2,006 and 10,006 articles (scripts/bench/archive-server.ts; needs npm run build).
import { sql } from "drizzle-orm";
import { importSeedArticles } from "~/services/content/import.server";
import { seedArticleFiles } from "~/content/seed/seed-articles.server";
import { searchArticles } from "~/services/content/search.server";
import { openTestDatabase } from "../../tests/support/test-db";
import { addArchive } from "./archive-seed";
import { benchMemory, benchServer } from "./archive-server";

const ARTICLES = Number(process.env.ARCHIVE_ARTICLES ?? 10_000);
const QUERIES = 1_000;
const WORDS = ["gold", "bond yields", "retirement", "inflation", "\"federal reserve\"", "silver coins", "401k", "treasury", "dividend", "retir*", "esg", "wealth", "interest rates", "annuity", "market crash", "portfolio", "nonexistentword", "the", "&|!", "gold -silver"];

async function bench(kind: "postgres" | "pglite") {
  const database = await openTestDatabase(kind);
  try {
    const { db } = database;
    const existing = await db.execute<{ n: number | string }>(sql`SELECT count(*) AS n FROM articles`);
    if (Number(existing.rows[0]!.n) === 0) await importSeedArticles(db, seedArticleFiles());
    const seeded = performance.now();
    await addArchive(db, ARTICLES);
    const loadMs = performance.now() - seeded;
    for (let i = 0; i < 20; i++) await searchArticles(db, WORDS[i % WORDS.length]!);
    const times: number[] = [];
    for (let i = 0; i < QUERIES; i++) {
      // Every tenth a rare word (one article), the rest common words and operators; a page past 1 now and then.
      const query = i % 10 === 0 ? `archiveword${(i * 7919) % ARTICLES}` : WORDS[i % WORDS.length]!;
      const started = performance.now();
      await searchArticles(db, query, i % 7 === 0 ? 3 : 1);
      times.push(performance.now() - started);
    }
    times.sort((a, b) => a - b);
    const at = (q: number) => times[Math.min(times.length - 1, Math.floor(q * times.length))]!.toFixed(1);
    console.log(JSON.stringify({ kind, articles: ARTICLES + 6, loadSeconds: +(loadMs / 1000).toFixed(1), queries: QUERIES, medianMs: +at(0.5), p95Ms: +at(0.95), p99Ms: +at(0.99), maxMs: +times.at(-1)!.toFixed(1) }));
  } finally {
    await database.drop();
  }
}

const parts = (process.env.ARCHIVE_PARTS ?? "search,server,memory").split(",");
for (const kind of (process.env.ARCHIVE_DB ?? "postgres,pglite").split(",") as ("postgres" | "pglite")[]) {
  if (parts.includes("search")) await bench(kind);
  if (parts.includes("server")) await benchServer(kind);
  if (parts.includes("memory")) await benchMemory(kind);
}
process.exit(0);
