import { createHash } from "node:crypto";
import { and, eq, sql } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { articleRevisions, articles, auditLog, authors, importItems, redirects, user, type ArticleContent } from "~/db/schema";
import { IMPORT_LOSSES as L } from "~/lib/import-texts";
import { announceContentChanged, notifyContentChanged } from "~/services/content/changes.server";
import { slugify } from "~/services/content/slugs";
import type { ArticleFieldsFromPost, CategoryMapping, ImportedPost } from "./article-from-post";
import { parseOldPath, upsertRedirects } from "~/services/redirects/redirects.server";
import { addReportLines, stepRun, type ImportRun, type ItemOutcome, type ReportLineInput } from "./runs.server";

/**
 * Writes what an import brings in (decision 159): one transaction per post holding the article,
 * its revision, its import record, its old addresses, its report lines and the run's step, so a
 * crash leaves each post written once or not at all. An article edited in the desk since the
 * import wrote it (its version moved) is left as it is unless the run says to overwrite edits.
 */

export type ImportJobContext = {
  db: Db;
  run: ImportRun;
  /** "wordpress:<old site>" or "ghost:<old site>". */
  source: string;
  mapping: CategoryMapping;
  /** Old post paths (normalized) to their new pages, for the links in bodies. */
  postTargets: Map<string, string>;
  actor: string;
  changes: ReturnType<typeof createChangeBatcher>;
};

type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];

/** Every article slug in use here. */
export async function takenSlugs(db: Db) {
  const rows = await db.select({ slug: articles.slug }).from(articles);
  return new Set(rows.map((row) => row.slug));
}

/** The slugs of the articles an earlier run of this source created, by the post's id there. */
export async function importedSlugs(db: Db, source: string) {
  const rows = await db
    .select({ sourceId: importItems.sourceId, slug: articles.slug })
    .from(importItems)
    .innerJoin(articles, eq(articles.id, importItems.targetId))
    .where(and(eq(importItems.source, source), eq(importItems.kind, "article")));
  return new Map(rows.map((row) => [row.sourceId, row.slug]));
}

/** The months ("YYYY-MM", New York) that have published articles here: the only month pages that exist. */
export async function publishedMonths(db: Db) {
  const rows = await db.execute<{ month: string }>(sql`
    SELECT DISTINCT to_char(publish_at AT TIME ZONE 'America/New_York', 'YYYY-MM') AS month FROM articles WHERE status = 'published' AND publish_at IS NOT NULL`);
  return rows.rows.map((row) => String(row.month));
}

const hashOf = (value: unknown) => createHash("sha256").update(JSON.stringify(value)).digest("hex");

/**
 * The author of imported posts: the one an earlier run made, else the staff member with the same
 * e-mail (their author profile, made if they have none), else a new profile. Never an account,
 * never a password or a role.
 */
export async function ensureAuthor(db: Db, source: string, person: { sourceId: string; name: string; email: string }, runId: number): Promise<{ id: string; slug: string }> {
  return db.transaction(async (tx) => {
    const [known] = await tx
      .select({ id: authors.id, slug: authors.slug })
      .from(importItems)
      .innerJoin(authors, eq(authors.id, importItems.targetId))
      .where(and(eq(importItems.source, source), eq(importItems.kind, "author"), eq(importItems.sourceId, person.sourceId)));
    if (known) return known;
    const email = person.email.trim().toLowerCase();
    const [staff] = email ? await tx.select({ id: user.id }).from(user).where(sql`lower(${user.email}) = ${email}`) : [];
    let author = staff ? (await tx.select({ id: authors.id, slug: authors.slug }).from(authors).where(eq(authors.userId, staff.id)).limit(1))[0] : undefined;
    if (!author) {
      const base = slugify(person.name) || slugify(person.sourceId) || "author";
      let slug = base;
      for (let n = 2; (await tx.select({ id: authors.id }).from(authors).where(eq(authors.slug, slug))).length > 0; n++) slug = `${base}-${n}`;
      [author] = await tx.insert(authors).values({ slug, name: person.name, userId: staff?.id ?? null }).returning({ id: authors.id, slug: authors.slug });
      await tx.insert(auditLog).values({ actor: "import", action: "author.imported", entity: `author:${author!.id}`, after: JSON.stringify({ slug, source, sourceId: person.sourceId }) });
    }
    await tx
      .insert(importItems)
      .values({ source, kind: "author", sourceId: person.sourceId, targetId: author!.id, contentHash: hashOf(person), runId })
      .onConflictDoNothing();
    return author!;
  });
}

/**
 * A post's old addresses in the post's own transaction (a resumed run passes over written posts,
 * so they must commit together), in the stored form of decision 160; one this site answers itself
 * (an old `/about/`) is named in the report instead. An address an editor set by hand stays theirs.
 * The targets are `/articles/…`, which no old address can be, so no chain can form.
 */
async function writeRedirects(tx: Tx, paths: readonly string[], target: string, origin: string, lines: ReportLineInput[], item: { title: string; oldUrl: string }) {
  const rows = new Map<string, { path: string; target: string; origin: string; updatedBy: string }>();
  for (const path of paths) {
    const parsed = parseOldPath(path);
    if (parsed.ok) rows.set(parsed.path, { path: parsed.path, target, origin, updatedBy: "import" });
    else lines.push({ item: item.title, oldUrl: item.oldUrl, outcome: "converted with loss", reason: L.oldAddressNotKept(path, parsed.reason) });
  }
  if (rows.size === 0) return;
  await tx
    .insert(redirects)
    .values([...rows.values()])
    .onConflictDoUpdate({ target: redirects.path, set: { target: sql`excluded.target`, origin: sql`excluded.origin`, updatedAt: sql`now()` }, setWhere: sql`${redirects.origin} <> 'admin'` });
}

type Written = { post: ImportedPost; fields: ArticleFieldsFromPost; authorId: string; lines: ReportLineInput[]; redirectPaths: readonly string[] };

/** The post at `index` of the run, written (or found unchanged, or kept as edited) with the run's step. */
export async function writeImportedArticle(context: ImportJobContext, index: number, item: Written): Promise<ItemOutcome> {
  const { db, run, source } = context;
  const { fields, post } = item;
  const content: ArticleContent = {
    title: fields.title,
    excerpt: fields.excerpt,
    body: fields.body,
    category: fields.category,
    image: fields.image,
    imageAlt: fields.imageAlt,
    authorId: item.authorId,
    seoTitle: fields.seoTitle,
    seoDescription: fields.seoDescription,
    sponsored: false,
    sponsorName: null,
  };
  const written = { content, slug: fields.slug, status: fields.status, publishAt: fields.publishAt?.toISOString() ?? null, updated: fields.contentUpdatedAt?.toISOString() ?? null };
  const contentHash = hashOf(written);
  const origin = `import:${run.id}`;
  const lines = [...item.lines, ...fields.losses.map((reason) => ({ item: post.title || post.sourceId, oldUrl: post.oldUrl, outcome: "converted with loss", reason }))];
  let live = false;

  const outcome = await db.transaction(async (tx): Promise<ItemOutcome> => {
    const [known] = await tx
      .select({ id: importItems.id, targetId: importItems.targetId, contentHash: importItems.contentHash, writtenVersion: importItems.writtenVersion })
      .from(importItems)
      .where(and(eq(importItems.source, source), eq(importItems.kind, "article"), eq(importItems.sourceId, post.sourceId)))
      .for("update");
    const now = new Date();
    let result: ItemOutcome;
    if (known) {
      const [article] = await tx.select().from(articles).where(eq(articles.id, known.targetId)).for("update");
      if (!article) {
        lines.push({ item: post.title, oldUrl: post.oldUrl, outcome: "skipped", reason: L.deletedHere });
        result = "skipped";
      } else if (article.version !== known.writtenVersion && !run.options.overwriteEdited) {
        lines.push({ item: post.title, oldUrl: post.oldUrl, outcome: "skipped", reason: L.editedHere });
        result = "keptEdited";
      } else if (known.contentHash === contentHash) {
        result = "unchanged";
      } else {
        const [revision] = await tx.insert(articleRevisions).values({ articleId: article.id, content, reason: "import", createdBy: context.actor }).returning({ id: articleRevisions.id });
        const published = fields.status !== "draft";
        const version = article.version + 1;
        await tx
          .update(articles)
          .set({
            ...content,
            status: fields.status,
            liveRevisionId: published ? revision!.id : article.liveRevisionId,
            publishAt: fields.publishAt ?? article.publishAt,
            firstPublishedAt: fields.status === "published" ? (article.firstPublishedAt ?? fields.publishAt) : article.firstPublishedAt,
            contentUpdatedAt: fields.contentUpdatedAt ?? now,
            version,
            updatedAt: now,
            updatedBy: context.actor,
          })
          .where(eq(articles.id, article.id));
        await tx.update(importItems).set({ contentHash, writtenVersion: version, runId: run.id, oldUrl: post.oldUrl, updatedAt: now }).where(eq(importItems.id, known.id));
        await tx.insert(auditLog).values({ actor: context.actor, action: "article.import_updated", entity: `article:${article.id}`, after: JSON.stringify({ run: run.id, source, sourceId: post.sourceId }) });
        live = published || article.status === "published";
        result = "updated";
      }
    } else {
      const published = fields.status !== "draft";
      const [row] = await tx
        .insert(articles)
        .values({
          slug: fields.slug,
          ...content,
          status: fields.status,
          publishAt: fields.publishAt,
          firstPublishedAt: fields.status === "published" ? fields.publishAt : null,
          contentUpdatedAt: fields.contentUpdatedAt,
          createdAt: fields.publishAt ?? now,
          updatedAt: now,
          updatedBy: context.actor,
        })
        .returning({ id: articles.id, version: articles.version });
      const [revision] = await tx.insert(articleRevisions).values({ articleId: row!.id, content, reason: "import", createdBy: context.actor }).returning({ id: articleRevisions.id });
      if (published) await tx.update(articles).set({ liveRevisionId: revision!.id }).where(eq(articles.id, row!.id));
      await tx.insert(importItems).values({ source, kind: "article", sourceId: post.sourceId, targetId: row!.id, oldUrl: post.oldUrl, contentHash, writtenVersion: row!.version, runId: run.id });
      await tx.insert(auditLog).values({ actor: context.actor, action: "article.imported", entity: `article:${row!.id}`, after: JSON.stringify({ slug: fields.slug, run: run.id, source, sourceId: post.sourceId }) });
      live = published;
      result = "created";
    }
    if (result !== "skipped") await writeRedirects(tx, item.redirectPaths, `/articles/${fields.slug}`, origin, lines, { title: post.title, oldUrl: post.oldUrl });
    await addReportLines(tx, run.id, lines);
    await stepRun(tx, run.id, index, result, now);
    return result;
  });
  context.changes.wrote(live);
  return outcome;
}

/**
 * The old site's archives and feeds answering 301 (through the redirect service, which refuses
 * chains), and the items passed over, at the run's end; then every process reloads what changed.
 */
export async function importArchiveRedirects(context: ImportJobContext, rows: readonly { path: string; target: string }[], skipped: readonly ReportLineInput[]) {
  // WordPress's archive queries of more than one key (`/?cat=5&feed=rss2`) and addresses this
  // site answers itself are not kept (decision 160): left out without a line each.
  const kept = rows.filter((row) => parseOldPath(row.path).ok);
  const { refused } = await upsertRedirects(context.db, kept, { origin: `import:${context.run.id}`, actor: context.actor });
  const lines = [...skipped, ...refused.map((row) => ({ item: row.path, oldUrl: row.path, outcome: "skipped", reason: L.oldAddressNotKept(row.path, row.reason) }))];
  await context.db.transaction((tx) => addReportLines(tx, context.run.id, lines));
  await context.changes.flush();
}

/**
 * What readers see and the old addresses change with every post; every process is told once per
 * hundred posts or two seconds, and at the end, not once per post (a reload reads the changes).
 */
export function createChangeBatcher(db: Db, every = { posts: 100, ms: 2_000 }) {
  let posts = 0;
  let live = false;
  let last = Date.now();
  const flush = async () => {
    await notifyContentChanged(db, "redirects");
    announceContentChanged("redirects");
    if (live) {
      await notifyContentChanged(db, "live");
      announceContentChanged("live");
    }
    posts = 0;
    live = false;
    last = Date.now();
  };
  return {
    wrote(changedLive: boolean) {
      posts++;
      live ||= changedLive;
      if (posts >= every.posts || Date.now() - last >= every.ms) void flush().catch(() => {});
    },
    flush,
  };
}
