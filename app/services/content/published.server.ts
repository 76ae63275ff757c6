import { and, desc, eq, inArray, isNotNull, ne, sql } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { articleRevisions, articles, authors, publishedArticles, type ArticleContent } from "~/db/schema";
import { countWords, WORDS_PER_MINUTE } from "~/content/registry";
import type { ArticleMeta } from "~/content/article-schema";
import type { PublicAuthor, PublishedArticle, PublishedSnapshot } from "~/content/published";

const DAY_IN_NEW_YORK = new Intl.DateTimeFormat("en-CA", { timeZone: "America/New_York", year: "numeric", month: "2-digit", day: "2-digit" });

/** "2025-11-18": the day an instant falls on in New York (the site's dates are Eastern). */
export function newYorkDay(instant: Date) {
  return DAY_IN_NEW_YORK.format(instant);
}

type ArticleFacts = { id: string; slug: string; featured: boolean; publishAt: Date; contentUpdatedAt: Date; author: PublicAuthor; revisionId: number };

/** An article's fields as readers see them, without its body (a row of published_articles, or a revision's content counted). */
type ArticleFields = Omit<ArticleContent, "body" | "authorId"> & { wordCount: number };

/** One article as readers see it, from its fields (the live ones, or the working copy for a preview). */
export function toPublishedArticle(content: ArticleFields, facts: ArticleFacts): PublishedArticle {
  return {
    id: facts.id,
    revisionId: facts.revisionId,
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
    wordCount: content.wordCount,
    readingMinutes: Math.max(1, Math.round(content.wordCount / WORDS_PER_MINUTE)),
    seoTitle: content.seoTitle,
    seoDescription: content.seoDescription,
    sponsored: content.sponsored,
    sponsorName: content.sponsored ? content.sponsorName : null,
  };
}

export function toPublicAuthor(row: typeof authors.$inferSelect): PublicAuthor {
  return { id: row.id, slug: row.slug, name: row.name, bio: row.bio, photo: row.photo, credentials: row.credentials, links: row.links };
}

/** The columns of a published row the snapshot shows (everything but the search vectors). */
const SNAPSHOT_COLUMNS = {
  id: publishedArticles.articleId,
  revisionId: publishedArticles.revisionId,
  slug: publishedArticles.slug,
  featured: publishedArticles.featured,
  publishAt: publishedArticles.publishAt,
  contentUpdatedAt: publishedArticles.contentUpdatedAt,
  title: publishedArticles.title,
  excerpt: publishedArticles.excerpt,
  category: publishedArticles.category,
  image: publishedArticles.image,
  imageAlt: publishedArticles.imageAlt,
  authorId: publishedArticles.authorId,
  seoTitle: publishedArticles.seoTitle,
  seoDescription: publishedArticles.seoDescription,
  sponsored: publishedArticles.sponsored,
  sponsorName: publishedArticles.sponsorName,
  wordCount: publishedArticles.wordCount,
};

/** What tells a kept article object from a changed one: any column the trigger writes changes its revision, flag, times, slug or author. */
const ROW_KEY = sql<string>`${publishedArticles.articleId}::text || ' ' || ${publishedArticles.revisionId} || ' ' || ${publishedArticles.featured}::text || ' ' || ${publishedArticles.slug} || ' ' || ${publishedArticles.authorId}::text
  || ' ' || (extract(epoch from ${publishedArticles.publishAt}) * 1000)::bigint || ' ' || (extract(epoch from ${publishedArticles.contentUpdatedAt}) * 1000)::bigint`;

/** A snapshot's articles by the key of the row they were made from (kept beside the snapshot, never shown). */
const rowKeys = new WeakMap<PublishedSnapshot, Map<string, PublishedArticle>>();

/**
 * What readers see: every published article's row of `published_articles` (no bodies: a few
 * hundred bytes each, decision 078), newest first, the authors of those articles, and the slugs
 * that were public and are not now. Given the snapshot it replaces, only the rows that changed
 * are read whole: one narrow query lists every row's key in order (about 60 bytes each), and the
 * articles whose key is unchanged are the previous objects, so a publication costs one row, not
 * the archive. The order is always the database's, and an author's edit reads everything again.
 */
export async function loadPublishedSnapshot(db: Db, previous?: PublishedSnapshot): Promise<PublishedSnapshot> {
  const kept = previous ? rowKeys.get(previous) : undefined;
  // One view of the database for all the queries: the list, the rows and the authors agree.
  const read = await db.transaction(
    async (tx) => {
      const order = await tx.select({ key: ROW_KEY, authorId: publishedArticles.authorId }).from(publishedArticles).orderBy(desc(publishedArticles.publishAt), publishedArticles.slug);
      const removed = await tx
        .select({ slug: articles.slug })
        .from(articles)
        .where(and(ne(articles.status, "published"), isNotNull(articles.firstPublishedAt)));
      const authorIds = [...new Set(order.map((row) => row.authorId))];
      const authorRows = authorIds.length > 0 ? await tx.select().from(authors).where(inArray(authors.id, authorIds)).orderBy(authors.name) : [];
      const publicAuthors = authorRows.map(toPublicAuthor);
      const reuse = previous !== undefined && JSON.stringify(previous.authors) === JSON.stringify(publicAuthors) ? kept : undefined;
      const missing = order.filter((row) => !reuse?.has(row.key)).map((row) => row.key.slice(0, row.key.indexOf(" ")));
      const fetched =
        missing.length === 0
          ? []
          : await tx
              .select({ ...SNAPSHOT_COLUMNS, key: ROW_KEY })
              .from(publishedArticles)
              .where(missing.length === order.length ? undefined : inArray(publishedArticles.articleId, missing));
      return { order, removed, publicAuthors, reuse, fetched };
    },
    { isolationLevel: "repeatable read", accessMode: "read only" },
  );
  const byId = new Map(read.publicAuthors.map((author) => [author.id, author]));
  const made = new Map<string, PublishedArticle>();
  for (const row of read.fetched) {
    const author = byId.get(row.authorId);
    if (author) made.set(row.key, toPublishedArticle(row, { ...row, author }));
  }
  const keys = new Map<string, PublishedArticle>();
  const published: PublishedArticle[] = [];
  for (const { key } of read.order) {
    const article = read.reuse?.get(key) ?? made.get(key);
    if (!article) continue;
    keys.set(key, article);
    published.push(article);
  }
  const snapshot: PublishedSnapshot = { articles: published, authors: read.publicAuthors, removedSlugs: new Set(read.removed.map((row) => row.slug)), loadedAt: Date.now() };
  rowKeys.set(snapshot, keys);
  return snapshot;
}

/** The Markdown body of a revision (revisions never change: the snapshot's `revisionId` names the live one). */
export async function loadRevisionBodies(db: Db, revisionIds: readonly number[]): Promise<Map<number, string>> {
  if (revisionIds.length === 0) return new Map();
  const rows = await db
    .select({ id: articleRevisions.id, body: sql<string>`coalesce(${articleRevisions.content}->>'body', '')` })
    .from(articleRevisions)
    .where(inArray(articleRevisions.id, [...revisionIds]));
  return new Map(rows.map((row) => [row.id, row.body.trim()]));
}

/** For the preview: the working copy as it would look published now, and its body. */
export async function loadWorkingCopy(db: Db, id: string, now = new Date()): Promise<{ article: PublishedArticle; body: string } | null> {
  const [row] = await db.select().from(articles).where(eq(articles.id, id));
  if (!row) return null;
  const [author] = await db.select().from(authors).where(eq(authors.id, row.authorId));
  if (!author) return null;
  const publishAt = row.publishAt ?? now;
  const article = toPublishedArticle(
    { title: row.title, excerpt: row.excerpt, category: row.category, image: row.image, imageAlt: row.imageAlt, seoTitle: row.seoTitle, seoDescription: row.seoDescription, sponsored: row.sponsored, sponsorName: row.sponsorName, wordCount: countWords(row.body) },
    { id: row.id, revisionId: row.liveRevisionId ?? 0, slug: row.slug, featured: row.featured, publishAt, contentUpdatedAt: row.contentUpdatedAt && row.status === "published" ? now : publishAt, author: toPublicAuthor(author) },
  );
  return { article, body: row.body.trim() };
}
