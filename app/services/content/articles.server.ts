import { and, count, desc, eq, ilike, sql, type SQL } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { refuseUniqueViolation } from "~/db/unique-violation";
import { articleRevisions, articles, auditLog, authors, type ArticleContent } from "~/db/schema";
import { ARTICLE_FIELD_MESSAGES as M } from "~/lib/article-texts";
import { parseCompleteFields, parseDraftFields, type ArticleFieldErrors, type ArticleFields } from "./article-fields";
import { announceContentChanged, notifyContentChanged, type ContentChange } from "./changes.server";
import { ensureFeatured, FEATURED_LOCK_KEY, moveFeaturedTo } from "./featured.server";

export type ArticleRow = typeof articles.$inferSelect;
type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];

export type ArticleFailure =
  | { ok: false; code: "invalid"; errors: ArticleFieldErrors }
  | { ok: false; code: "stale"; version: number }
  | { ok: false; code: "not_found" }
  | { ok: false; code: "wrong_state"; status: ArticleRow["status"] };

export type ArticleResult = { ok: true; article: ArticleRow } | ArticleFailure;

/** A change of an existing article: the fields as the form sent them and the version the editor saw. */
export type ArticleEdit = { id: string; input: unknown; expectedVersion: number; actor: string; now?: Date };

const NOT_FOUND = { ok: false, code: "not_found" } as const;

/** The content a revision keeps (the featured flag and the slug belong to the article). */
export function contentOf(fields: ArticleFields | ArticleRow): ArticleContent {
  return {
    title: fields.title,
    excerpt: fields.excerpt,
    body: fields.body,
    category: fields.category,
    image: fields.image,
    imageAlt: fields.imageAlt,
    authorId: fields.authorId,
    seoTitle: fields.seoTitle,
    seoDescription: fields.seoDescription,
    sponsored: fields.sponsored,
    sponsorName: fields.sponsored ? fields.sponsorName : null,
  };
}

function audit(tx: Pick<Db, "insert">, actor: string, action: string, id: string, before: unknown, after: unknown) {
  return tx.insert(auditLog).values({
    actor,
    action: `article.${action}`,
    entity: `article:${id}`,
    before: before === undefined ? null : JSON.stringify(before),
    after: after === undefined ? null : JSON.stringify(after),
  });
}

async function addRevision(tx: Tx, articleId: string, content: ArticleContent, reason: string, actor: string) {
  const [revision] = await tx.insert(articleRevisions).values({ articleId, content, reason, createdBy: actor }).returning({ id: articleRevisions.id });
  return revision!.id;
}

const SLUG_CONSTRAINT = "articles_slug_unique";

/**
 * The slug check below reads before it writes; on PostgreSQL another process can take the same
 * slug between the two, and its unique constraint then refuses the write. Either way the editor
 * reads the same field message.
 */
function refusingTakenSlug<T>(work: () => Promise<T>) {
  return refuseUniqueViolation(work, SLUG_CONSTRAINT, () => ({ ok: false as const, code: "invalid" as const, errors: { slug: M.slugTaken } as ArticleFieldErrors }));
}

async function slugProblem(tx: Tx, row: ArticleRow | undefined, slug: string): Promise<ArticleFieldErrors | null> {
  if (row && row.slug === slug) return null;
  // Decision 050: a slug that was public stays; links to it would break (and 410 would lie).
  if (row && row.firstPublishedAt) return { slug: M.slugLocked };
  const [taken] = await tx.select({ id: articles.id }).from(articles).where(eq(articles.slug, slug));
  return taken ? { slug: M.slugTaken } : null;
}

async function authorExists(tx: Tx, authorId: string) {
  const [author] = await tx.select({ id: authors.id }).from(authors).where(eq(authors.id, authorId));
  return Boolean(author);
}

function workingCopy(fields: ArticleFields, actor: string, now: Date) {
  return { slug: fields.slug, ...contentOf(fields), category: fields.category || "Market Analysis", updatedAt: now, updatedBy: actor };
}

/** Loads and locks the row, checks the version the editor saw and the fields' slug and author. */
async function lockForEdit(tx: Tx, edit: ArticleEdit, fields: ArticleFields): Promise<{ ok: true; row: ArticleRow } | ArticleFailure> {
  const [row] = await tx.select().from(articles).where(eq(articles.id, edit.id)).for("update");
  if (!row) return NOT_FOUND;
  if (row.version !== edit.expectedVersion) return { ok: false, code: "stale", version: row.version };
  const slug = await slugProblem(tx, row, fields.slug);
  if (slug) return { ok: false, code: "invalid", errors: slug };
  if (!(await authorExists(tx, fields.authorId))) return { ok: false, code: "invalid", errors: { authorId: M.authorRequired } };
  return { ok: true, row };
}

async function afterCommit<T extends { ok: boolean }>(result: T, change: ContentChange | null) {
  if (result.ok && change) announceContentChanged(change);
  return result;
}

/** A new draft: title, slug and author are enough. */
export async function createDraft(db: Db, input: { input: unknown; actor: string; now?: Date }): Promise<ArticleResult> {
  const parsed = parseDraftFields(input.input);
  if (!parsed.ok) return parsed;
  const { fields } = parsed;
  const now = input.now ?? new Date();
  return refusingTakenSlug(() =>
    db.transaction(async (tx) => {
      const slug = await slugProblem(tx, undefined, fields.slug);
      if (slug) return { ok: false as const, code: "invalid" as const, errors: slug };
      if (!(await authorExists(tx, fields.authorId))) return { ok: false as const, code: "invalid" as const, errors: { authorId: M.authorRequired } };
      const [row] = await tx.insert(articles).values({ ...workingCopy(fields, input.actor, now), createdAt: now }).returning();
      await addRevision(tx, row!.id, contentOf(row!), "save", input.actor);
      await audit(tx, input.actor, "created", row!.id, undefined, { slug: row!.slug, title: row!.title });
      return { ok: true as const, article: row! };
    }),
  );
}

/**
 * Autosave: the working copy only. No revision, nothing readers see changes. A tab holding an
 * older version is refused with the current one. Not audited: it runs every few seconds while
 * someone types, and the row keeps who saved last (updatedBy); saves and publishes are audited.
 */
export async function autosaveArticle(db: Db, edit: ArticleEdit): Promise<{ ok: true; version: number; savedAt: Date } | ArticleFailure> {
  const now = edit.now ?? new Date();
  const written = await writeWorkingCopy(db, edit, now, async () => {});
  return written.ok ? { ok: true as const, version: written.row.version, savedAt: now } : written;
}

/** Save draft: the working copy plus a revision; a published article's live version is unchanged. */
export async function saveArticle(db: Db, edit: ArticleEdit): Promise<ArticleResult> {
  const written = await writeWorkingCopy(db, edit, edit.now ?? new Date(), async (tx, before, row) => {
    await addRevision(tx, edit.id, contentOf(row), "save", edit.actor);
    await audit(tx, edit.actor, "saved", edit.id, contentOf(before), contentOf(row));
  });
  return written.ok ? { ok: true as const, article: written.row } : written;
}

/** Autosave and save: the draft fields over the working copy (stale versions refused), then `after` in the same transaction. */
async function writeWorkingCopy(
  db: Db,
  edit: ArticleEdit,
  now: Date,
  after: (tx: Tx, before: ArticleRow, row: ArticleRow) => Promise<void>,
): Promise<{ ok: true; row: ArticleRow } | ArticleFailure> {
  const parsed = parseDraftFields(edit.input);
  if (!parsed.ok) return parsed;
  return refusingTakenSlug(() =>
    db.transaction(async (tx) => {
      const locked = await lockForEdit(tx, edit, parsed.fields);
      if (!locked.ok) return locked;
      const [row] = await tx
        .update(articles)
        .set({ ...workingCopy(parsed.fields, edit.actor, now), version: locked.row.version + 1 })
        .where(eq(articles.id, edit.id))
        .returning();
      await after(tx, locked.row, row!);
      return { ok: true as const, row: row! };
    }),
  );
}

/**
 * Publish now, or update a live article: the fields become a revision that readers see at once.
 * A first publication takes the current time; an update keeps the publication time and moves
 * contentUpdatedAt (dateModified).
 */
export async function publishArticle(db: Db, edit: ArticleEdit): Promise<ArticleResult> {
  const parsed = parseCompleteFields(edit.input);
  if (!parsed.ok) return parsed;
  const { fields } = parsed;
  const now = edit.now ?? new Date();
  const result = await refusingTakenSlug(() =>
    db.transaction(async (tx) => {
      await tx.execute(sql`SELECT pg_advisory_xact_lock(${FEATURED_LOCK_KEY})`);
      const locked = await lockForEdit(tx, edit, fields);
      if (!locked.ok) return locked;
      const before = locked.row;
      const isUpdate = before.status === "published";
      const revisionId = await addRevision(tx, edit.id, contentOf(fields), isUpdate ? "update" : "publish", edit.actor);
      const publishAt = before.firstPublishedAt && before.publishAt ? before.publishAt : now;
      await tx
        .update(articles)
        .set({
          ...workingCopy(fields, edit.actor, now),
          version: before.version + 1,
          status: "published",
          liveRevisionId: revisionId,
          publishAt,
          firstPublishedAt: before.firstPublishedAt ?? now,
          contentUpdatedAt: now,
        })
        .where(eq(articles.id, edit.id));
      if (fields.featured) await moveFeaturedTo(tx, edit.id);
      else if (before.featured) await tx.update(articles).set({ featured: false }).where(eq(articles.id, edit.id));
      await ensureFeatured(tx);
      await audit(tx, edit.actor, isUpdate ? "updated" : "published", edit.id, isUpdate ? { liveRevisionId: before.liveRevisionId } : { status: before.status }, { status: "published", liveRevisionId: revisionId });
      await notifyContentChanged(tx, "live");
      const [row] = await tx.select().from(articles).where(eq(articles.id, edit.id));
      return { ok: true as const, article: row! };
    }),
  );
  return afterCommit(result, "live");
}

/**
 * Schedule: the fields become the revision that goes live at `at` (in the future), with no
 * request needed then (the scheduler flips it). A live article is updated with Publish instead.
 */
export async function scheduleArticle(db: Db, edit: ArticleEdit & { at: Date }): Promise<ArticleResult> {
  const now = edit.now ?? new Date();
  const parsed = parseCompleteFields(edit.input);
  const timeError = edit.at.getTime() <= now.getTime() ? M.scheduleInPast : null;
  if (!parsed.ok) return timeError ? { ...parsed, errors: { ...parsed.errors, publishAt: timeError } } : parsed;
  if (timeError) return { ok: false, code: "invalid", errors: { publishAt: timeError } };
  const { fields } = parsed;
  const result = await refusingTakenSlug(() =>
    db.transaction(async (tx) => {
      const locked = await lockForEdit(tx, edit, fields);
      if (!locked.ok) return locked;
      const before = locked.row;
      if (before.status === "published") return { ok: false as const, code: "wrong_state" as const, status: before.status };
      const revisionId = await addRevision(tx, edit.id, contentOf(fields), "schedule", edit.actor);
      const [row] = await tx
        .update(articles)
        .set({ ...workingCopy(fields, edit.actor, now), version: before.version + 1, status: "scheduled", liveRevisionId: revisionId, publishAt: edit.at, featured: fields.featured })
        .where(eq(articles.id, edit.id))
        .returning();
      await audit(tx, edit.actor, "scheduled", edit.id, { status: before.status, publishAt: before.publishAt }, { status: "scheduled", publishAt: edit.at.toISOString(), liveRevisionId: revisionId });
      await notifyContentChanged(tx, "schedule");
      return { ok: true as const, article: row! };
    }),
  );
  return afterCommit(result, "schedule");
}

/**
 * Every scheduled article whose time has come goes live. One UPDATE … RETURNING, so when several
 * processes run it at once each article is flipped by exactly one of them.
 */
export async function publishDueArticles(db: Db, now: Date = new Date()) {
  const flipped = await db.transaction(async (tx) => {
    await tx.execute(sql`SELECT pg_advisory_xact_lock(${FEATURED_LOCK_KEY})`);
    const due = await tx
      .update(articles)
      .set({ status: "published", firstPublishedAt: sql`coalesce(${articles.firstPublishedAt}, ${articles.publishAt})`, contentUpdatedAt: sql`${articles.publishAt}`, updatedAt: now })
      .where(and(eq(articles.status, "scheduled"), sql`${articles.publishAt} <= ${now.toISOString()}::timestamptz`))
      .returning({ id: articles.id, slug: articles.slug, featured: articles.featured, publishAt: articles.publishAt });
    if (due.length === 0) return due;
    const wantsFeature = due.filter((row) => row.featured).sort((a, b) => b.publishAt!.getTime() - a.publishAt!.getTime())[0];
    if (wantsFeature) await moveFeaturedTo(tx, wantsFeature.id);
    await ensureFeatured(tx);
    for (const row of due) await audit(tx, "system", "published_on_schedule", row.id, { status: "scheduled" }, { status: "published", publishAt: row.publishAt });
    await notifyContentChanged(tx, "live");
    return due;
  });
  if (flipped.length > 0) announceContentChanged("live");
  return flipped;
}

/** The next time a scheduled article goes live, if any (the scheduler's timer). */
export async function nextScheduledAt(db: Db): Promise<Date | null> {
  const [row] = await db
    .select({ at: sql<Date | string | null>`min(${articles.publishAt})` })
    .from(articles)
    .where(eq(articles.status, "scheduled"));
  return row?.at ? new Date(row.at) : null;
}

/**
 * Back to draft. Readers lose the page at once: its slug answers 410 if it was public, 404 if it
 * never was (a scheduled article taken back). The featured flag passes to the newest article.
 */
export async function unpublishArticle(db: Db, input: { id: string; actor: string; now?: Date }): Promise<ArticleResult> {
  const now = input.now ?? new Date();
  let change: ContentChange = "live";
  const result = await db.transaction(async (tx) => {
    await tx.execute(sql`SELECT pg_advisory_xact_lock(${FEATURED_LOCK_KEY})`);
    const [before] = await tx.select().from(articles).where(eq(articles.id, input.id)).for("update");
    if (!before) return NOT_FOUND;
    if (before.status === "draft") return { ok: false as const, code: "wrong_state" as const, status: before.status };
    change = before.status === "published" ? "live" : "schedule";
    const [row] = await tx
      .update(articles)
      .set({ status: "draft", featured: false, liveRevisionId: null, publishAt: before.firstPublishedAt ? before.publishAt : null, updatedAt: now, updatedBy: input.actor })
      .where(eq(articles.id, input.id))
      .returning();
    await ensureFeatured(tx);
    await audit(tx, input.actor, "unpublished", input.id, { status: before.status }, { status: "draft" });
    await notifyContentChanged(tx, change);
    return { ok: true as const, article: row! };
  });
  return afterCommit(result, change);
}

/** Copies a revision back into the working copy (a new "restore" revision); readers see no change until it is published. */
export async function restoreRevision(db: Db, input: { id: string; revisionId: number; expectedVersion: number; actor: string; now?: Date }): Promise<ArticleResult> {
  const now = input.now ?? new Date();
  return db.transaction(async (tx) => {
    const [before] = await tx.select().from(articles).where(eq(articles.id, input.id)).for("update");
    if (!before) return NOT_FOUND;
    if (before.version !== input.expectedVersion) return { ok: false as const, code: "stale" as const, version: before.version };
    const [revision] = await tx
      .select()
      .from(articleRevisions)
      .where(and(eq(articleRevisions.id, input.revisionId), eq(articleRevisions.articleId, input.id)));
    if (!revision) return NOT_FOUND;
    const [row] = await tx
      .update(articles)
      .set({ ...revision.content, version: before.version + 1, updatedAt: now, updatedBy: input.actor })
      .where(eq(articles.id, input.id))
      .returning();
    await addRevision(tx, input.id, revision.content, "restore", input.actor);
    await audit(tx, input.actor, "restored", input.id, { version: before.version }, { fromRevision: revision.id, version: row!.version });
    return { ok: true as const, article: row! };
  });
}

export type ArticleFilters = { status?: ArticleRow["status"]; category?: string; authorId?: string; q?: string };

/** Rows on one page of the admin list. */
export const ARTICLES_PAGE_SIZE = 50;

/** One page of the admin list, newest change first, and how many articles match in all. */
export async function listArticles(db: Db, filters: ArticleFilters = {}, page = 1) {
  const where: SQL[] = [];
  if (filters.status) where.push(eq(articles.status, filters.status));
  if (filters.category) where.push(eq(articles.category, filters.category));
  if (filters.authorId) where.push(eq(articles.authorId, filters.authorId));
  const q = filters.q?.trim();
  if (q) where.push(ilike(articles.title, `%${q.replace(/[\\%_]/g, (char) => `\\${char}`)}%`));
  const condition = where.length > 0 ? and(...where) : undefined;
  const [rows, [total]] = await Promise.all([
    db
      .select({
        id: articles.id,
        slug: articles.slug,
        title: articles.title,
        status: articles.status,
        category: articles.category,
        featured: articles.featured,
        publishAt: articles.publishAt,
        updatedAt: articles.updatedAt,
        authorName: authors.name,
      })
      .from(articles)
      .innerJoin(authors, eq(authors.id, articles.authorId))
      .where(condition)
      .orderBy(desc(articles.updatedAt), articles.slug)
      .limit(ARTICLES_PAGE_SIZE)
      .offset((page - 1) * ARTICLES_PAGE_SIZE),
    db.select({ n: count() }).from(articles).where(condition),
  ]);
  return { rows, total: Number(total?.n ?? 0) };
}

export async function getArticleById(db: Db, id: string) {
  const [row] = await db.select().from(articles).where(eq(articles.id, id));
  return row ?? null;
}

export async function listRevisions(db: Db, articleId: string) {
  return db
    .select({ id: articleRevisions.id, reason: articleRevisions.reason, createdBy: articleRevisions.createdBy, createdAt: articleRevisions.createdAt, title: sql<string>`${articleRevisions.content}->>'title'` })
    .from(articleRevisions)
    .where(eq(articleRevisions.articleId, articleId))
    .orderBy(desc(articleRevisions.id))
    .limit(200);
}
