// Site search at 10,000 published articles (issue 26), on PostgreSQL and on PGlite: median and p99
// of 1,000 searches through the service the /search page calls. The articles are copies of the six
// seed articles (bodies of real length, each with its own number word), inserted in SQL.
// Part of issue 26's bench:archive: start, memory and publish figures are not measured here yet.
import { sql } from "drizzle-orm";
import { importSeedArticles } from "~/services/content/import.server";
import { seedArticleFiles } from "~/content/seed/seed-articles.server";
import { searchArticles } from "~/services/content/search.server";
import { openTestDatabase } from "../../tests/support/test-db";

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
    await db.execute(sql.raw(`
      INSERT INTO articles (slug, status, title, excerpt, body, category, image, image_alt, author_id, publish_at, first_published_at, content_updated_at)
      SELECT 'archive-' || n, 'published', 'Archive ' || n || ': ' || s.title, s.excerpt, s.body || E'\\n\\nArchive number archiveword' || n || '.', s.category, s.image, s.image_alt, s.author_id,
        now() - (n || ' hours')::interval, now() - (n || ' hours')::interval, now() - (n || ' hours')::interval
      FROM generate_series(1, ${ARTICLES}) AS n
      JOIN LATERAL (SELECT * FROM articles WHERE slug NOT LIKE 'archive-%' ORDER BY slug OFFSET (n % 6) LIMIT 1) s ON true`));
    await db.execute(sql.raw(`
      INSERT INTO article_revisions (article_id, content, reason, created_by)
      SELECT a.id, jsonb_build_object('title', a.title, 'excerpt', a.excerpt, 'body', a.body, 'category', a.category, 'image', a.image, 'imageAlt', a.image_alt,
        'authorId', a.author_id, 'seoTitle', null, 'seoDescription', null, 'sponsored', false, 'sponsorName', null), 'import', 'bench'
      FROM articles a WHERE a.slug LIKE 'archive-%'`));
    await db.execute(sql.raw(`UPDATE articles a SET live_revision_id = r.id FROM article_revisions r WHERE r.article_id = a.id AND a.slug LIKE 'archive-%'`));
    await db.execute(sql.raw(`ANALYZE articles`));
    await db.execute(sql.raw(`ANALYZE article_revisions`));
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

for (const kind of (process.env.ARCHIVE_DB ?? "postgres,pglite").split(",")) await bench(kind as "postgres" | "pglite");
process.exit(0);
