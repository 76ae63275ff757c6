import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import type { Db } from "~/db/client.server";
import { articles, authors } from "~/db/schema";
import { ARTICLE_FIELD_MESSAGES as M, AUTHOR_FIELD_MESSAGES as A } from "~/lib/article-texts";
import { DB_KINDS, useTestDatabase } from "../../../tests/support/test-db";
import { raceAgainstUncommitted, useSecondHandle } from "../../../tests/support/races";
import { createDraft, publishArticle, saveArticle, scheduleArticle } from "./articles.server";
import { createAuthor, updateAuthor } from "./authors.server";

const ACTOR = "editor@example.com";
const ARTICLE_SLUG_TAKEN = { ok: false, code: "invalid", errors: { slug: M.slugTaken } };
const AUTHOR_SLUG_TAKEN = { ok: false, code: "invalid", errors: { slug: A.slugTaken } };

function articleInput(authorId: string, slug: string) {
  return {
    title: "Treasury yields and what they mean for savers",
    slug,
    excerpt: "Why the ten-year yield moved this month and what a retiree can do about it.",
    body: "First paragraph.\n\nSecond paragraph.",
    category: "Bonds & Fixed Income",
    image: "/images/articles/bonds-guide.svg",
    imageAlt: "A chart of Treasury yields over ten years",
    authorId,
  };
}

async function anAuthorId(db: Db) {
  return (await db.select().from(authors).where(eq(authors.slug, "sarah-whitfield")))[0]!.id;
}

/** Six creates of one slug at once, spread over the handles: one wins, five read the checked path's message. */
async function sixAtOnce<T>(handles: Db[], create: (db: Db, i: number) => Promise<T>) {
  return Promise.all(Array.from({ length: 6 }, (_, i) => create(handles[i % handles.length]!, i)));
}

describe.each(DB_KINDS)("simultaneous creates of one slug on %s", (kind) => {
  const database = useTestDatabase(kind);
  const second = kind === "postgres" ? useSecondHandle(database) : null;
  const handles = () => (second ? [database.db, second.db] : [database.db]);

  it("articles: one draft is created, the other five are refused with the slug message (five rounds)", async () => {
    const authorId = await anAuthorId(database.db);
    for (let round = 0; round < 5; round++) {
      const slug = `six-at-once-${round}`;
      const results = await sixAtOnce(handles(), (db) => createDraft(db, { input: articleInput(authorId, slug), actor: ACTOR }));
      expect(results.filter((result) => result.ok)).toHaveLength(1);
      expect(results.filter((result) => !result.ok)).toEqual(Array.from({ length: 5 }, () => ARTICLE_SLUG_TAKEN));
      expect(await database.db.select().from(articles).where(eq(articles.slug, slug))).toHaveLength(1);
    }
  });

  it("authors: one profile is created, the other five are refused with the slug message (five rounds)", async () => {
    for (let round = 0; round < 5; round++) {
      const slug = `six-at-once-${round}`;
      const results = await sixAtOnce(handles(), (db, i) => createAuthor(db, { input: { name: `Writer ${i}`, slug }, actor: ACTOR }));
      expect(results.filter((result) => result.ok)).toHaveLength(1);
      expect(results.filter((result) => !result.ok)).toEqual(Array.from({ length: 5 }, () => AUTHOR_SLUG_TAKEN));
    }
  });
});

/**
 * The race made certain on PostgreSQL: another process's transaction has written the slug but not
 * committed when the check runs, so the check passes and the constraint decides. (The embedded
 * database runs one transaction at a time: its check always sees the committed row.)
 */
describe("a slug taken between the check and the write, on postgres", () => {
  const database = useTestDatabase("postgres");
  const other = useSecondHandle(database);
  const holdArticleSlug = (authorId: string, slug: string) => (tx: Parameters<Parameters<Db["transaction"]>[0]>[0]) =>
    tx.insert(articles).values({ ...articleInput(authorId, slug), updatedBy: "other@example.com" });
  const holdAuthorSlug = (slug: string) => (tx: Parameters<Parameters<Db["transaction"]>[0]>[0]) => tx.insert(authors).values({ slug, name: "Other Process" });

  it("creating, saving, publishing and scheduling an article answer the slug message", async () => {
    const { db } = database;
    const authorId = await anAuthorId(db);
    expect(await raceAgainstUncommitted(db, other.db, holdArticleSlug(authorId, "raced-create"), () => createDraft(db, { input: articleInput(authorId, "raced-create"), actor: ACTOR }))).toEqual(ARTICLE_SLUG_TAKEN);

    const draft = await createDraft(db, { input: articleInput(authorId, "raced-draft"), actor: ACTOR });
    if (!draft.ok) throw new Error("draft not created");
    const edit = (slug: string) => ({ id: draft.article.id, input: articleInput(authorId, slug), expectedVersion: draft.article.version, actor: ACTOR });
    expect(await raceAgainstUncommitted(db, other.db, holdArticleSlug(authorId, "raced-save"), () => saveArticle(db, edit("raced-save")))).toEqual(ARTICLE_SLUG_TAKEN);
    expect(await raceAgainstUncommitted(db, other.db, holdArticleSlug(authorId, "raced-publish"), () => publishArticle(db, edit("raced-publish")))).toEqual(ARTICLE_SLUG_TAKEN);
    const at = new Date(Date.now() + 86_400_000);
    expect(await raceAgainstUncommitted(db, other.db, holdArticleSlug(authorId, "raced-schedule"), () => scheduleArticle(db, { ...edit("raced-schedule"), at }))).toEqual(ARTICLE_SLUG_TAKEN);
    // Nothing of the refused writes stayed: the draft is as it was.
    const [row] = await db.select().from(articles).where(eq(articles.id, draft.article.id));
    expect(row).toMatchObject({ slug: "raced-draft", version: draft.article.version, status: "draft" });
  });

  it("creating and renaming an author answer the slug message", async () => {
    const { db } = database;
    expect(await raceAgainstUncommitted(db, other.db, holdAuthorSlug("raced-author"), () => createAuthor(db, { input: { name: "Raced Writer", slug: "raced-author" }, actor: ACTOR }))).toEqual(AUTHOR_SLUG_TAKEN);
    const created = await createAuthor(db, { input: { name: "Renamed Writer", slug: "renamed-writer" }, actor: ACTOR });
    if (!created.ok) throw new Error("author not created");
    expect(
      await raceAgainstUncommitted(db, other.db, holdAuthorSlug("raced-rename"), () => updateAuthor(db, { id: created.author.id, input: { name: "Renamed Writer", slug: "raced-rename" }, actor: ACTOR })),
    ).toEqual(AUTHOR_SLUG_TAKEN);
    expect((await db.select().from(authors).where(eq(authors.id, created.author.id)))[0]).toMatchObject({ slug: "renamed-writer" });
  });
});
