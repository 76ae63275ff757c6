import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { authors } from "~/db/schema";
import { DB_KINDS, useTestDatabase } from "../../../tests/support/test-db";
import { createDraft, publishArticle, publishDueArticles, saveArticle, scheduleArticle, unpublishArticle } from "./articles.server";
import { MAX_QUERY_LENGTH, parseQuery, searchArticles, snippetParts } from "./search.server";

const ACTOR = "editor@example.com";

function fields(authorId: string, slug: string, body: string, overrides: Record<string, unknown> = {}) {
  return {
    title: "Treasury ladders for a steady retirement income",
    slug,
    excerpt: "How a ladder of Treasury notes turns savings into a predictable income for retirees.",
    body,
    category: "Bonds & Fixed Income",
    image: "/images/articles/bonds-guide.svg",
    imageAlt: "A chart of Treasury yields over ten years",
    authorId,
    ...overrides,
  };
}

describe("search query parsing", () => {
  it("takes words ending in * out as prefixes, reduced to letters and digits, and cuts long input", () => {
    expect(parseQuery("gold retir*")).toEqual({ text: "gold retir*", words: "gold", prefixes: ["retir:*"] });
    expect(parseQuery("o'neil* &|:*")).toMatchObject({ prefixes: ["oneil:*"] });
    expect(parseQuery("x".repeat(10_000)).text).toHaveLength(MAX_QUERY_LENGTH);
    expect(parseQuery("\u0001bold\u0002").text).toBe("bold");
  });

  it("splits a headline at the marks and drops markdown punctuation", () => {
    expect(snippetParts("a **\u0001gold\u0002** [coin](https://x.example) <b>")).toEqual([
      { text: "a ", hit: false },
      { text: "gold", hit: true },
      { text: " coin <b>", hit: false },
    ]);
  });

  it("sets the snippet in the article's typography, a hit's marks beside a quote or an apostrophe", () => {
    expect(snippetParts(`the "\u0001gold\u0002" rush -- the \u0001Fed\u0002's move, don't wait...`)).toEqual([
      { text: "the \u201c", hit: false },
      { text: "gold", hit: true },
      { text: "\u201d rush \u2014 the ", hit: false },
      { text: "Fed", hit: true },
      { text: "\u2019s move, don\u2019t wait\u2026", hit: false },
    ]);
  });
});

describe.each(DB_KINDS)("site search on %s", (kind) => {
  const database = useTestDatabase(kind);

  it("finds published articles by a word of the body with stemming, phrases and prefixes, and never drafts, scheduled or unpublished ones", async () => {
    const { db } = database;
    const [author] = await db.select().from(authors).where(eq(authors.slug, "sarah-whitfield"));
    const publish = async (slug: string, body: string, overrides: Record<string, unknown> = {}) => {
      const input = fields(author!.id, slug, body, overrides);
      const created = await createDraft(db, { input, actor: ACTOR });
      if (!created.ok) throw new Error(JSON.stringify(created));
      const published = await publishArticle(db, { id: created.article.id, input, expectedVersion: 1, actor: ACTOR });
      if (!published.ok) throw new Error(JSON.stringify(published));
      return published.article;
    };
    const live = await publish("zanzibar-ladder", "A ladder of notes.\n\nOur advisers recommended zanzibarian allocations for patient savers.");
    await publish("title-match", "Nothing special here.\n\nJust words.", { title: "Zanzibarian bonds explained simply today" });

    // A draft and a scheduled article with the same word: never found.
    const draftInput = fields(author!.id, "zanzibar-draft", "Draft zanzibarian text.\n\nMore.");
    const draft = await createDraft(db, { input: draftInput, actor: ACTOR });
    if (!draft.ok) throw new Error("no draft");
    const laterInput = fields(author!.id, "zanzibar-later", "Scheduled zanzibarian text.\n\nMore.");
    const later = await createDraft(db, { input: laterInput, actor: ACTOR });
    if (!later.ok) throw new Error("no draft");
    await scheduleArticle(db, { id: later.article.id, input: laterInput, expectedVersion: 1, actor: ACTOR, at: new Date(Date.now() + 86_400_000) });

    const found = await searchArticles(db, "zanzibarian");
    expect(found.hits.map((hit) => hit.slug)).toEqual(["title-match", "zanzibar-ladder"]);
    expect(found.total).toBe(2);
    const snippet = found.hits[1]!.snippet;
    expect(snippet.filter((part) => part.hit).map((part) => part.text)).toContain("zanzibarian");

    // English stemming: "recommend" finds "recommended"; a phrase; a prefix; a minus.
    expect((await searchArticles(db, "recommend zanzibarian")).hits.map((hit) => hit.slug)).toEqual(["zanzibar-ladder"]);
    expect((await searchArticles(db, '"patient savers"')).hits.map((hit) => hit.slug)).toContain("zanzibar-ladder");
    expect((await searchArticles(db, '"savers patient"')).hits.map((hit) => hit.slug)).not.toContain("zanzibar-ladder");
    expect((await searchArticles(db, "zanzib*")).hits.map((hit) => hit.slug).sort()).toEqual(["title-match", "zanzibar-ladder"]);
    expect((await searchArticles(db, "zanzibarian -advisers")).hits.map((hit) => hit.slug)).toEqual(["title-match"]);

    // Pages: one per page.
    const second = await searchArticles(db, "zanzibarian", 2, 1);
    expect(second).toMatchObject({ total: 2, pageCount: 2, page: 2 });
    expect(second.hits.map((hit) => hit.slug)).toEqual(["zanzibar-ladder"]);

    // Unpublished: gone at once.
    await unpublishArticle(db, { id: live.id, actor: ACTOR });
    expect((await searchArticles(db, "zanzibarian")).hits.map((hit) => hit.slug)).toEqual(["title-match"]);
  });

  it("follows the live revision: an update replaces the words, a saved draft of it does not, a scheduled article is found once it goes live", async () => {
    const { db } = database;
    const [author] = await db.select().from(authors).where(eq(authors.slug, "sarah-whitfield"));
    const first = fields(author!.id, "changing-words", "Quokkafund is the old word.\n\nMore.");
    const created = await createDraft(db, { input: first, actor: ACTOR });
    if (!created.ok) throw new Error("no draft");
    const published = await publishArticle(db, { id: created.article.id, input: first, expectedVersion: 1, actor: ACTOR });
    if (!published.ok) throw new Error("not published");
    expect((await searchArticles(db, "quokkafund")).total).toBe(1);

    // A saved working copy is not live: search still finds the live words.
    const saved = await saveArticle(db, { id: created.article.id, input: { ...first, body: "Wombatfund in the working copy.\n\nMore." }, expectedVersion: published.article.version, actor: ACTOR });
    if (!saved.ok) throw new Error("not saved");
    expect((await searchArticles(db, "wombatfund")).total).toBe(0);
    expect((await searchArticles(db, "quokkafund")).total).toBe(1);

    const update = { ...first, body: "Wombatfund is the new word.\n\nMore." };
    const updated = await publishArticle(db, { id: created.article.id, input: update, expectedVersion: saved.article.version, actor: ACTOR });
    if (!updated.ok) throw new Error("not updated");
    expect((await searchArticles(db, "quokkafund")).total).toBe(0);
    expect((await searchArticles(db, "wombatfund")).hits.map((hit) => hit.slug)).toEqual(["changing-words"]);

    const laterInput = fields(author!.id, "numbatfund-later", "Numbatfund goes live later.\n\nMore.");
    const later = await createDraft(db, { input: laterInput, actor: ACTOR });
    if (!later.ok) throw new Error("no draft");
    const at = new Date(Date.now() + 60_000);
    await scheduleArticle(db, { id: later.article.id, input: laterInput, expectedVersion: 1, actor: ACTOR, at });
    expect((await searchArticles(db, "numbatfund")).total).toBe(0);
    await publishDueArticles(db, new Date(at.getTime() + 1_000));
    expect((await searchArticles(db, "numbatfund")).hits.map((hit) => hit.slug)).toEqual(["numbatfund-later"]);
  });

  it("answers hostile queries with results or nothing, never an error", async () => {
    const { db } = database;
    const hostile = [
      "",
      "   ",
      '"',
      '""',
      "&|!:*()",
      "!!!",
      "a:* & b",
      "gold' OR 1=1; DROP TABLE articles; --",
      "'); SELECT pg_sleep(5); --",
      "((gold",
      "gold <-> silver",
      "-",
      "*",
      "or",
      "the and of",
      "\\",
      "\u0000gold",
      "x".repeat(10_000),
      "gold ".repeat(2_000),
      "日本 金",
      "émigré café*",
      "the*",
    ];
    for (const query of hostile) {
      const result = await searchArticles(db, query);
      expect(result.total, query.slice(0, 40)).toBeGreaterThanOrEqual(0);
    }
    expect((await searchArticles(db, "gold' OR 1=1; --")).total).toBeGreaterThan(0);
    expect((await searchArticles(db, "&|!:*()")).total).toBe(0);
  });
});
