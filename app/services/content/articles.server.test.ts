import { eq, like } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { articleRevisions, articles, auditLog, authors } from "~/db/schema";
import { seedArticleFiles } from "~/content/seed/seed-articles.server";
import { ARTICLE_FIELD_MESSAGES as M } from "~/lib/article-texts";
import { DB_KINDS, useTestDatabase } from "../../../tests/support/test-db";
import { parseCompleteFields } from "./article-fields";
import {
  autosaveArticle,
  createDraft,
  getArticleById,
  ARTICLES_PAGE_SIZE,
  listArticles,
  listRevisions,
  nextScheduledAt,
  publishArticle,
  publishDueArticles,
  restoreRevision,
  saveArticle,
  scheduleArticle,
  unpublishArticle,
} from "./articles.server";
import { markFeatured } from "./featured.server";
import { importSeedArticles } from "./import.server";
import { loadPublishedSnapshot, newYorkDay } from "./published.server";

const ACTOR = "editor@example.com";

function fields(authorId: string, overrides: Record<string, unknown> = {}) {
  return {
    title: "Treasury yields and what they mean for savers",
    slug: `yields-${Math.random().toString(36).slice(2, 8)}`,
    excerpt: "Why the ten-year yield moved this month and what a retiree can do about it.",
    body: "First paragraph.\n\nSecond paragraph with a [link](https://example.com/a).",
    category: "Bonds & Fixed Income",
    image: "/images/articles/bonds-guide.svg",
    imageAlt: "A chart of Treasury yields over ten years",
    authorId,
    seoTitle: "",
    seoDescription: "",
    sponsored: false,
    sponsorName: "",
    featured: false,
    ...overrides,
  };
}

describe("article field rules", () => {
  it("lets a draft be incomplete and answers each missing field when publishing", () => {
    const draft = { title: "A title long enough", slug: "a-title", authorId: "00000000-0000-4000-8000-000000000000" };
    const result = parseCompleteFields({ ...draft, sponsored: true });
    expect(result).toMatchObject({
      ok: false,
      code: "invalid",
      errors: { excerpt: M.excerptLength, body: M.bodyRequired, image: M.imageFormat, imageAlt: M.imageAltLength, sponsorName: M.sponsorNameRequired },
    });
    expect(parseCompleteFields({ ...draft, slug: "Not A Slug" })).toMatchObject({ ok: false, errors: { slug: M.slugFormat } });
    expect(parseCompleteFields({ ...fields(draft.authorId), seoTitle: "x".repeat(71) })).toMatchObject({ ok: false, errors: { seoTitle: M.seoTitleLength } });
    expect(parseCompleteFields(fields(draft.authorId, { image: "/media/0b6f6a57-8c0e-4c55-9a8f-3c9a1f5e2b10/1600x900" })).ok).toBe(true);
    expect(parseCompleteFields(fields(draft.authorId, { image: "https://elsewhere.example/x.png" }))).toMatchObject({ ok: false, errors: { image: M.imageFormat } });
  });
});

describe.each(DB_KINDS)("the editorial desk on %s", (kind) => {
  const database = useTestDatabase(kind);
  const authorId = async () => (await database.db.select().from(authors).where(eq(authors.slug, "sarah-whitfield")))[0]!.id;

  it("imported the six seed articles at first start, published, with their dates, authors and featured flag", async () => {
    const { db } = database;
    const rows = await db.select().from(articles);
    expect(rows).toHaveLength(6);
    expect(rows.every((row) => row.status === "published" && row.liveRevisionId !== null)).toBe(true);
    const metals = rows.find((row) => row.slug === "precious-metals-guide")!;
    expect(metals.featured).toBe(true);
    expect(rows.filter((row) => row.featured)).toHaveLength(1);
    // 2025-11-18 at 08:00 in New York: the shown date is the file's.
    expect(metals.publishAt!.toISOString()).toBe("2025-11-18T13:00:00.000Z");
    expect(newYorkDay(metals.publishAt!)).toBe("2025-11-18");
    expect(await db.select().from(authors)).toHaveLength(6);
    expect(await db.select().from(articleRevisions).where(eq(articleRevisions.reason, "import"))).toHaveLength(6);
    // Idempotent: a second start (or a second process) imports nothing.
    expect(await importSeedArticles(db, seedArticleFiles())).toEqual({ imported: 0 });
    expect(await db.select().from(articles)).toHaveLength(6);
    const snapshot = await loadPublishedSnapshot(db);
    expect(snapshot.articles.map((article) => article.slug)[0]).toBe("generational-wealth");
    expect(snapshot.articles.find((article) => article.slug === "precious-metals-guide")).toMatchObject({ date: "2025-11-18", author: "Michael Harrington", authorSlug: "michael-harrington", featured: true });
  });

  it("creates a draft readers do not see, then publishes it: live at once, with revision and audit entries", async () => {
    const { db } = database;
    const input = fields(await authorId());
    const created = await createDraft(db, { input, actor: ACTOR });
    expect(created).toMatchObject({ ok: true, article: { status: "draft", version: 1 } });
    if (!created.ok) return;
    expect((await loadPublishedSnapshot(db)).articles.some((article) => article.slug === input.slug)).toBe(false);
    const now = new Date("2026-03-02T15:00:00Z");
    const published = await publishArticle(db, { id: created.article.id, input, expectedVersion: 1, actor: ACTOR, now });
    expect(published).toMatchObject({ ok: true, article: { status: "published", publishAt: now, firstPublishedAt: now, contentUpdatedAt: now } });
    const live = (await loadPublishedSnapshot(db)).articles.find((article) => article.slug === input.slug);
    expect(live).toMatchObject({ title: input.title, publishedAt: now.toISOString(), modifiedAt: now.toISOString(), author: "Sarah Whitfield" });
    expect((await listRevisions(db, created.article.id)).map((revision) => revision.reason)).toEqual(["publish", "save"]);
    const entries = await db.select().from(auditLog).where(eq(auditLog.entity, `article:${created.article.id}`));
    expect(entries.map((entry) => entry.action)).toEqual(expect.arrayContaining(["article.created", "article.published"]));
    expect((await listArticles(db, { status: "published", q: "treasury YIELDS" })).rows).toHaveLength(1);
    expect((await listArticles(db, { status: "draft", q: "treasury" })).rows).toHaveLength(0);
  });

  it("refuses to publish an incomplete draft, with a message per field, and changes nothing", async () => {
    const { db } = database;
    const created = await createDraft(db, { input: { title: "Only a title for now", slug: "only-a-title", authorId: await authorId() }, actor: ACTOR });
    if (!created.ok) throw new Error("draft not created");
    const result = await publishArticle(db, { id: created.article.id, input: { title: "Only a title for now", slug: "only-a-title", authorId: await authorId() }, expectedVersion: 1, actor: ACTOR });
    expect(result).toMatchObject({ ok: false, code: "invalid", errors: { excerpt: M.excerptLength, body: M.bodyRequired } });
    expect(await getArticleById(db, created.article.id)).toMatchObject({ status: "draft", version: 1 });
    expect(await createDraft(db, { input: { title: "Another title here", slug: "only-a-title", authorId: await authorId() }, actor: ACTOR })).toMatchObject({ ok: false, errors: { slug: M.slugTaken } });
  });

  it("autosaves the working copy without a revision or a change readers see, and refuses a stale version", async () => {
    const { db } = database;
    const [row] = await db.select().from(articles).where(eq(articles.slug, "bonds-guide"));
    const liveBefore = (await loadPublishedSnapshot(db)).articles.find((article) => article.slug === "bonds-guide")!;
    const revisionsBefore = (await listRevisions(db, row!.id)).length;
    const input = { ...fields(row!.authorId), slug: "bonds-guide", title: "A working title nobody sees yet" };
    const saved = await autosaveArticle(db, { id: row!.id, input, expectedVersion: row!.version, actor: ACTOR });
    expect(saved).toMatchObject({ ok: true, version: row!.version + 1 });
    expect(await listRevisions(db, row!.id)).toHaveLength(revisionsBefore);
    expect((await loadPublishedSnapshot(db)).articles.find((article) => article.slug === "bonds-guide")!.title).toBe(liveBefore.title);
    // A second tab still holding the old version.
    expect(await autosaveArticle(db, { id: row!.id, input, expectedVersion: row!.version, actor: ACTOR })).toEqual({ ok: false, code: "stale", version: row!.version + 1 });
  });

  it("updates a live article: the new revision is live, contentUpdatedAt moves, the publication time stays; its slug cannot change", async () => {
    const { db } = database;
    const [row] = await db.select().from(articles).where(eq(articles.slug, "esg-investing"));
    const now = new Date("2026-04-01T12:00:00Z");
    const input = { ...fields(row!.authorId), slug: "esg-investing", title: "ESG investing, revisited for 2026" };
    expect(await publishArticle(db, { id: row!.id, input: { ...input, slug: "esg-renamed" }, expectedVersion: row!.version, actor: ACTOR, now })).toMatchObject({ ok: false, errors: { slug: M.slugLocked } });
    const updated = await publishArticle(db, { id: row!.id, input, expectedVersion: row!.version, actor: ACTOR, now });
    expect(updated).toMatchObject({ ok: true, article: { publishAt: row!.publishAt, contentUpdatedAt: now } });
    const live = (await loadPublishedSnapshot(db)).articles.find((article) => article.slug === "esg-investing")!;
    expect(live).toMatchObject({ title: "ESG investing, revisited for 2026", publishedAt: row!.publishAt!.toISOString(), modifiedAt: now.toISOString(), updated: "2026-04-01" });
    expect((await listRevisions(db, row!.id))[0]!.reason).toBe("update");
  });

  it("schedules an article that goes live at its time, flipped once (fixed clock), and refuses a time in the past", async () => {
    const { db } = database;
    const input = fields(await authorId());
    const created = await createDraft(db, { input, actor: ACTOR });
    if (!created.ok) throw new Error("draft not created");
    const now = new Date("2030-01-01T12:00:00Z");
    const at = new Date("2030-01-01T14:30:00Z");
    expect(await scheduleArticle(db, { id: created.article.id, input, expectedVersion: 1, actor: ACTOR, now, at: new Date("2030-01-01T11:00:00Z") })).toMatchObject({ ok: false, errors: { publishAt: M.scheduleInPast } });
    expect(await scheduleArticle(db, { id: created.article.id, input, expectedVersion: 1, actor: ACTOR, now, at })).toMatchObject({ ok: true, article: { status: "scheduled", publishAt: at } });
    expect(await nextScheduledAt(db)).toEqual(at);
    expect(await publishDueArticles(db, new Date(at.getTime() - 1000))).toEqual([]);
    expect((await loadPublishedSnapshot(db)).articles.some((article) => article.slug === input.slug)).toBe(false);
    // Two processes' timers fire together: exactly one flips it.
    const [first, second] = await Promise.all([publishDueArticles(db, at), publishDueArticles(db, at)]);
    expect([...first, ...second].map((row) => row.slug)).toEqual([input.slug]);
    const live = (await loadPublishedSnapshot(db)).articles.find((article) => article.slug === input.slug);
    expect(live).toMatchObject({ publishedAt: at.toISOString(), modifiedAt: at.toISOString() });
    expect(await getArticleById(db, created.article.id)).toMatchObject({ status: "published", firstPublishedAt: at });
    expect(await nextScheduledAt(db)).toBeNull();
    expect(await db.select().from(auditLog).where(eq(auditLog.action, "article.published_on_schedule"))).toHaveLength(1);
  });

  it("unpublishes: a slug that was public is listed as removed (410), a never-public one is not (404)", async () => {
    const { db } = database;
    const [row] = await db.select().from(articles).where(eq(articles.slug, "retirement-protection"));
    expect(await unpublishArticle(db, { id: row!.id, actor: ACTOR })).toMatchObject({ ok: true, article: { status: "draft" } });
    let snapshot = await loadPublishedSnapshot(db);
    expect(snapshot.articles.some((article) => article.slug === "retirement-protection")).toBe(false);
    expect(snapshot.removedSlugs.has("retirement-protection")).toBe(true);

    const input = fields(await authorId());
    const created = await createDraft(db, { input, actor: ACTOR });
    if (!created.ok) throw new Error("draft not created");
    await scheduleArticle(db, { id: created.article.id, input, expectedVersion: 1, actor: ACTOR, at: new Date(Date.now() + 86_400_000) });
    expect(await unpublishArticle(db, { id: created.article.id, actor: ACTOR })).toMatchObject({ ok: true, article: { status: "draft", publishAt: null } });
    snapshot = await loadPublishedSnapshot(db);
    expect(snapshot.removedSlugs.has(input.slug)).toBe(false);
    expect(await unpublishArticle(db, { id: created.article.id, actor: ACTOR })).toMatchObject({ ok: false, code: "wrong_state" });
  });

  it("restores a revision into the working copy as a new revision, without changing what readers see", async () => {
    const { db } = database;
    const input = fields(await authorId(), { title: "The first version of this title" });
    const created = await createDraft(db, { input, actor: ACTOR });
    if (!created.ok) throw new Error("draft not created");
    const firstRevision = (await listRevisions(db, created.article.id))[0]!;
    const saved = await saveArticle(db, { id: created.article.id, input: { ...input, title: "The second version of this title" }, expectedVersion: 1, actor: ACTOR });
    expect(saved).toMatchObject({ ok: true, article: { title: "The second version of this title", version: 2 } });
    expect(await restoreRevision(db, { id: created.article.id, revisionId: firstRevision.id, expectedVersion: 1, actor: ACTOR })).toMatchObject({ ok: false, code: "stale", version: 2 });
    const restored = await restoreRevision(db, { id: created.article.id, revisionId: firstRevision.id, expectedVersion: 2, actor: ACTOR });
    expect(restored).toMatchObject({ ok: true, article: { title: "The first version of this title", version: 3, status: "draft" } });
    expect((await listRevisions(db, created.article.id)).map((revision) => revision.reason)).toEqual(["restore", "save", "save"]);
  });

  it("pages the admin list: 50 a page, newest change first, every match once, with the total", async () => {
    const { db } = database;
    const author = await authorId();
    for (let i = 1; i <= ARTICLES_PAGE_SIZE + 2; i++) {
      const created = await createDraft(db, { input: { title: `Paging check number ${i}`, slug: `paging-check-${i}`, authorId: author }, actor: ACTOR });
      if (!created.ok) throw new Error("draft not created");
    }
    const first = await listArticles(db, { q: "paging check" }, 1);
    const second = await listArticles(db, { q: "paging check" }, 2);
    expect(first.total).toBe(ARTICLES_PAGE_SIZE + 2);
    expect(second.total).toBe(ARTICLES_PAGE_SIZE + 2);
    expect(first.rows).toHaveLength(ARTICLES_PAGE_SIZE);
    expect(second.rows).toHaveLength(2);
    const slugs = [...first.rows, ...second.rows].map((row) => row.slug);
    expect(new Set(slugs).size).toBe(ARTICLES_PAGE_SIZE + 2);
    const times = [...first.rows, ...second.rows].map((row) => row.updatedAt.getTime());
    expect(times).toEqual([...times].sort((a, b) => b - a));
    expect((await listArticles(db, { q: "paging check" }, 3)).rows).toHaveLength(0);
  });

  it("keeps exactly one published article featured: marking moves the flag, unpublishing passes it to the newest", async () => {
    const { db } = database;
    const featuredSlugs = async () => (await db.select().from(articles).where(eq(articles.featured, true))).filter((row) => row.status === "published").map((row) => row.slug);
    const [bonds] = await db.select().from(articles).where(eq(articles.slug, "bonds-guide"));
    expect(await markFeatured(db, { id: bonds!.id, actor: ACTOR })).toEqual({ ok: true, changed: true });
    expect(await featuredSlugs()).toEqual(["bonds-guide"]);
    await unpublishArticle(db, { id: bonds!.id, actor: ACTOR });
    const newest = (await loadPublishedSnapshot(db)).articles[0]!;
    expect(await featuredSlugs()).toEqual([newest.slug]);
    const [draft] = await db.select().from(articles).where(like(articles.slug, "only-a-title"));
    expect(await markFeatured(db, { id: draft!.id, actor: ACTOR })).toMatchObject({ ok: false, code: "wrong_state" });
  });
});
