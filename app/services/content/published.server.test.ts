import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { articles, authors, publishedArticles } from "~/db/schema";
import { buildArticleIndex, countWords } from "~/content/registry";
import { seedArticleFiles } from "~/content/seed/seed-articles.server";
import { DB_KINDS, useTestDatabase } from "../../../tests/support/test-db";
import { createDraft, publishArticle, unpublishArticle } from "./articles.server";
import { updateAuthor } from "./authors.server";
import { markFeatured } from "./featured.server";
import { loadPublishedSnapshot, loadRevisionBodies } from "./published.server";

const ACTOR = "editor@example.com";

/** Bodies where a word count could go wrong: Markdown marks, JavaScript's other white space, no letters at all. */
const AWKWARD_BODIES = [
  "# Heading\n\n**Bold** _under_ `code` [link](https://example.com/a-b) > quote | table |",
  "non\u00a0breaking\u2003em\u2009thin\u3000ideographic\ufeffbom\u2028line\u2029para\u202fnarrow\u205fmath\u1680ogham",
  "--- *** ___ ### (( )) || 2025 — “quotes” café 401(k) S&P-500 e-mail",
  "\t\v\f\r\n  leading and trailing  \n\n",
  "— … ¶ § ©",
];

describe.each(DB_KINDS)("published rows on %s", (kind) => {
  const database = useTestDatabase(kind);

  it("holds one row per published article with the live revision's fields and countWords' count, and no bodies", async () => {
    const { db } = database;
    const seeds = buildArticleIndex(seedArticleFiles());
    const snapshot = await loadPublishedSnapshot(db);
    expect(snapshot.articles).toHaveLength(seeds.length);
    for (const seed of seeds) {
      const article = snapshot.articles.find((candidate) => candidate.slug === seed.slug)!;
      expect(article).toMatchObject({ title: seed.title, excerpt: seed.excerpt, category: seed.category, image: seed.image, wordCount: seed.wordCount, readingMinutes: seed.readingMinutes });
      expect(article).not.toHaveProperty("body");
      expect((await loadRevisionBodies(db, [article.revisionId])).get(article.revisionId)).toBe(seed.body.trim());
    }
  });

  it("counts words in SQL exactly as countWords does, and follows publish, featured and unpublish", async () => {
    const { db } = database;
    const [author] = await db.select().from(authors).where(eq(authors.slug, "sarah-whitfield"));
    const input = (slug: string, body: string) => ({
      title: "Counting words the way readers see them",
      slug,
      excerpt: "A test article whose body has every kind of white space and mark a writer might paste.",
      body,
      category: "Bonds & Fixed Income",
      image: "/images/articles/bonds-guide.svg",
      imageAlt: "A chart of Treasury yields over ten years",
      authorId: author!.id,
    });
    const ids: string[] = [];
    for (const [index, body] of AWKWARD_BODIES.entries()) {
      const fields = input(`awkward-${index}`, body);
      const created = await createDraft(db, { input: fields, actor: ACTOR });
      if (!created.ok) throw new Error(JSON.stringify(created));
      expect(await db.select().from(publishedArticles).where(eq(publishedArticles.articleId, created.article.id))).toHaveLength(0);
      const published = await publishArticle(db, { id: created.article.id, input: fields, expectedVersion: 1, actor: ACTOR });
      if (!published.ok) throw new Error(JSON.stringify(published));
      ids.push(created.article.id);
      const [row] = await db.select().from(publishedArticles).where(eq(publishedArticles.articleId, created.article.id));
      expect(row!.wordCount, JSON.stringify(body)).toBe(countWords(body));
    }

    await markFeatured(db, { id: ids[0]!, actor: ACTOR });
    const [featured] = await db.select().from(publishedArticles).where(eq(publishedArticles.articleId, ids[0]!));
    expect(featured!.featured).toBe(true);

    await unpublishArticle(db, { id: ids[1]!, actor: ACTOR });
    expect(await db.select().from(publishedArticles).where(eq(publishedArticles.articleId, ids[1]!))).toHaveLength(0);
    const snapshot = await loadPublishedSnapshot(db);
    expect(snapshot.articles.map((article) => article.slug)).not.toContain("awkward-1");
    expect(snapshot.removedSlugs.has("awkward-1")).toBe(true);

    // Deleting an article takes its row with it.
    await db.delete(articles).where(eq(articles.id, ids[2]!));
    expect(await db.select().from(publishedArticles).where(eq(publishedArticles.articleId, ids[2]!))).toHaveLength(0);
  });

  it("reloads only what changed: every other article is the previous object, and the result equals a full load", async () => {
    const { db } = database;
    const first = await loadPublishedSnapshot(db);
    const [author] = await db.select().from(authors).where(eq(authors.slug, "david-caldwell"));
    const input = {
      title: "A new article among the kept ones",
      slug: "delta-reload",
      excerpt: "Published between two loads: the only row the second load reads again in full.",
      body: "One paragraph.\n\nAnother one.",
      category: "Bonds & Fixed Income",
      image: "/images/articles/bonds-guide.svg",
      imageAlt: "A chart of Treasury yields over ten years",
      authorId: author!.id,
    };
    const created = await createDraft(db, { input, actor: ACTOR });
    if (!created.ok) throw new Error(JSON.stringify(created));
    await publishArticle(db, { id: created.article.id, input, expectedVersion: 1, actor: ACTOR });
    // Marking it featured changes two rows: the new one and the article that held the flag.
    const previouslyFeatured = first.articles.find((article) => article.featured)!;
    await markFeatured(db, { id: created.article.id, actor: ACTOR });

    const second = await loadPublishedSnapshot(db, first);
    expect(second).toEqual({ ...(await loadPublishedSnapshot(db)), loadedAt: second.loadedAt });
    for (const article of second.articles) {
      const before = first.articles.find((candidate) => candidate.id === article.id);
      const changed = article.slug === "delta-reload" || article.id === previouslyFeatured.id;
      expect(article === before, article.slug).toBe(!changed);
    }
    expect(second.articles.find((article) => article.id === previouslyFeatured.id)!.featured).toBe(false);

    // An author's edit shows on every article of theirs: everything is read again.
    await updateAuthor(db, { id: author!.id, input: { name: "David R. Caldwell", slug: "david-caldwell", credentials: author!.credentials, bio: author!.bio, links: "" }, actor: ACTOR });
    const third = await loadPublishedSnapshot(db, second);
    expect(third.articles.find((article) => article.slug === "delta-reload")!.author).toBe("David R. Caldwell");
    expect(third).toEqual({ ...(await loadPublishedSnapshot(db)), loadedAt: third.loadedAt });
  });
});
