import { sql } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { articleRevisions, articles, auditLog, authors } from "~/db/schema";
import { buildArticleIndex } from "~/content/registry";
import { zonedTimeToUtc } from "~/lib/zoned-time";
import { contentOf } from "./articles.server";
import { slugify } from "./slugs";

/** The seed articles' dates are days; each is published at this time of that day in New York, so the shown date is unchanged. */
export const IMPORT_TIME_OF_DAY = "08:00";
export const IMPORT_ZONE = "America/New_York";

function dayInNewYork(day: string) {
  const instant = zonedTimeToUtc(`${day}T${IMPORT_TIME_OF_DAY}`, IMPORT_ZONE);
  if (!instant) throw new Error(`Cannot place ${day} in ${IMPORT_ZONE}`);
  return instant;
}

/**
 * First start: the seed Markdown articles go into an empty articles table, published, with their
 * slugs, dates, images and featured flag, one author profile per distinct name and one "import"
 * revision each. Idempotent: it does nothing once any article exists. On PostgreSQL it runs under
 * the migration lock (client.server.ts), and every insert is ON CONFLICT DO NOTHING besides, so
 * two processes starting together import once.
 */
export async function importSeedArticles(db: Db, files: Record<string, string>) {
  const [existing] = await db.select({ id: articles.id }).from(articles).limit(1);
  if (existing) return { imported: 0 };
  const seed = buildArticleIndex(files);
  return db.transaction(async (tx) => {
    const authorIds = new Map<string, string>();
    for (const name of new Set(seed.map((article) => article.author))) {
      const slug = slugify(name);
      await tx.insert(authors).values({ slug, name }).onConflictDoNothing({ target: authors.slug });
      const [row] = await tx.select({ id: authors.id }).from(authors).where(sql`${authors.slug} = ${slug}`);
      authorIds.set(name, row!.id);
    }
    let imported = 0;
    for (const article of seed) {
      const publishAt = dayInNewYork(article.date);
      const fields = {
        title: article.title,
        excerpt: article.excerpt,
        body: article.body,
        category: article.category,
        image: article.image,
        imageAlt: article.imageAlt,
        authorId: authorIds.get(article.author)!,
        seoTitle: null,
        seoDescription: null,
        sponsored: false,
        sponsorName: null,
      };
      const [row] = await tx
        .insert(articles)
        .values({
          slug: article.slug,
          status: "published",
          ...fields,
          featured: article.featured,
          publishAt,
          firstPublishedAt: publishAt,
          contentUpdatedAt: article.updated ? dayInNewYork(article.updated) : publishAt,
          createdAt: publishAt,
          updatedBy: "import",
        })
        .onConflictDoNothing({ target: articles.slug })
        .returning({ id: articles.id });
      if (!row) continue;
      const [revision] = await tx.insert(articleRevisions).values({ articleId: row.id, content: contentOf({ ...fields, featured: article.featured, slug: article.slug }), reason: "import", createdBy: "import" }).returning({ id: articleRevisions.id });
      await tx.update(articles).set({ liveRevisionId: revision!.id }).where(sql`${articles.id} = ${row.id}`);
      await tx.insert(auditLog).values({ actor: "system", action: "article.imported", entity: `article:${row.id}`, after: JSON.stringify({ slug: article.slug }) });
      imported++;
    }
    return { imported };
  });
}
