import { sql } from "drizzle-orm";
import type { Db } from "~/db/client.server";

/**
 * `count` published articles in three statements (articles, their live revisions, the link), copies
 * of the six seed articles (bodies of real length, every category) each with its own number word
 * (`archiveword<n>`), one an hour back in time. The seed articles must be in the database already.
 */
export async function addArchive(db: Pick<Db, "execute">, count: number) {
  await db.execute(sql.raw(`
    INSERT INTO articles (slug, status, title, excerpt, body, category, image, image_alt, author_id, publish_at, first_published_at, content_updated_at)
    SELECT 'archive-' || n, 'published', 'Archive ' || n || ': ' || s.title, s.excerpt, s.body || E'\\n\\nArchive number archiveword' || n || '.', s.category, s.image, s.image_alt, s.author_id,
      now() - (n || ' hours')::interval, now() - (n || ' hours')::interval, now() - (n || ' hours')::interval
    FROM generate_series(1, ${count}) AS n
    JOIN LATERAL (SELECT * FROM articles WHERE slug NOT LIKE 'archive-%' ORDER BY slug OFFSET (n % 6) LIMIT 1) s ON true`));
  await db.execute(sql.raw(`
    INSERT INTO article_revisions (article_id, content, reason, created_by)
    SELECT a.id, jsonb_build_object('title', a.title, 'excerpt', a.excerpt, 'body', a.body, 'category', a.category, 'image', a.image, 'imageAlt', a.image_alt,
      'authorId', a.author_id, 'seoTitle', null, 'seoDescription', null, 'sponsored', false, 'sponsorName', null), 'import', 'bench'
    FROM articles a WHERE a.slug LIKE 'archive-%'`));
  await db.execute(sql.raw(`UPDATE articles a SET live_revision_id = r.id FROM article_revisions r WHERE r.article_id = a.id AND a.slug LIKE 'archive-%'`));
  await db.execute(sql.raw(`ANALYZE`));
}
