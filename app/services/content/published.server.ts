import { and, desc, eq, inArray, isNotNull, ne } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { articleRevisions, articles, authors, type ArticleContent } from "~/db/schema";
import { countWords, WORDS_PER_MINUTE } from "~/content/registry";
import type { ArticleMeta } from "~/content/article-schema";
import type { PublicAuthor, PublishedArticle, PublishedSnapshot } from "~/content/published";

const DAY_IN_NEW_YORK = new Intl.DateTimeFormat("en-CA", { timeZone: "America/New_York", year: "numeric", month: "2-digit", day: "2-digit" });

/** "2025-11-18": the day an instant falls on in New York (the site's dates are Eastern). */
export function newYorkDay(instant: Date) {
  return DAY_IN_NEW_YORK.format(instant);
}

type ArticleFacts = { id: string; slug: string; featured: boolean; publishAt: Date; contentUpdatedAt: Date; author: PublicAuthor };

/** One article as readers see it, from a revision's content (the live one, or the working copy for a preview). */
export function toPublishedArticle(content: ArticleContent, facts: ArticleFacts): PublishedArticle {
  const wordCount = countWords(content.body);
  return {
    id: facts.id,
    slug: facts.slug,
    title: content.title,
    excerpt: content.excerpt,
    author: facts.author.name,
    authorSlug: facts.author.slug,
    date: newYorkDay(facts.publishAt),
    updated: newYorkDay(facts.contentUpdatedAt),
    publishedAt: facts.publishAt.toISOString(),
    modifiedAt: facts.contentUpdatedAt.toISOString(),
    category: content.category as ArticleMeta["category"],
    image: content.image,
    imageAlt: content.imageAlt,
    featured: facts.featured,
    body: content.body.trim(),
    wordCount,
    readingMinutes: Math.max(1, Math.round(wordCount / WORDS_PER_MINUTE)),
    seoTitle: content.seoTitle,
    seoDescription: content.seoDescription,
    sponsored: content.sponsored,
    sponsorName: content.sponsored ? content.sponsorName : null,
  };
}

export function toPublicAuthor(row: typeof authors.$inferSelect): PublicAuthor {
  return { id: row.id, slug: row.slug, name: row.name, bio: row.bio, photo: row.photo, credentials: row.credentials, links: row.links };
}

/**
 * What readers see: every published article from its live revision, newest first, the authors
 * of those articles, and the slugs that were public and are not now. Two queries.
 */
export async function loadPublishedSnapshot(db: Db): Promise<PublishedSnapshot> {
  const rows = await db
    .select({
      id: articles.id,
      slug: articles.slug,
      featured: articles.featured,
      publishAt: articles.publishAt,
      contentUpdatedAt: articles.contentUpdatedAt,
      content: articleRevisions.content,
    })
    .from(articles)
    .innerJoin(articleRevisions, eq(articleRevisions.id, articles.liveRevisionId))
    .where(eq(articles.status, "published"))
    .orderBy(desc(articles.publishAt), articles.slug);
  const removed = await db
    .select({ slug: articles.slug })
    .from(articles)
    .where(and(ne(articles.status, "published"), isNotNull(articles.firstPublishedAt)));
  const authorIds = [...new Set(rows.map((row) => row.content.authorId))];
  const authorRows = authorIds.length > 0 ? await db.select().from(authors).where(inArray(authors.id, authorIds)).orderBy(authors.name) : [];
  const byId = new Map(authorRows.map((row) => [row.id, toPublicAuthor(row)]));
  const published = rows.flatMap((row) => {
    const author = byId.get(row.content.authorId);
    if (!author || !row.publishAt) return [];
    return [toPublishedArticle(row.content, { ...row, publishAt: row.publishAt, contentUpdatedAt: row.contentUpdatedAt ?? row.publishAt, author })];
  });
  return { articles: published, authors: [...byId.values()], removedSlugs: new Set(removed.map((row) => row.slug)), loadedAt: Date.now() };
}

/** For the preview: the working copy as it would look published now. */
export async function loadWorkingCopy(db: Db, id: string, now = new Date()): Promise<PublishedArticle | null> {
  const [row] = await db.select().from(articles).where(eq(articles.id, id));
  if (!row) return null;
  const [author] = await db.select().from(authors).where(eq(authors.id, row.authorId));
  if (!author) return null;
  const publishAt = row.publishAt ?? now;
  return toPublishedArticle(
    { title: row.title, excerpt: row.excerpt, body: row.body, category: row.category, image: row.image, imageAlt: row.imageAlt, authorId: row.authorId, seoTitle: row.seoTitle, seoDescription: row.seoDescription, sponsored: row.sponsored, sponsorName: row.sponsorName },
    { id: row.id, slug: row.slug, featured: row.featured, publishAt, contentUpdatedAt: row.contentUpdatedAt && row.status === "published" ? now : publishAt, author: toPublicAuthor(author) },
  );
}

