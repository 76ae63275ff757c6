import { describe, expect, it } from "vitest";
import { pickRelated } from "./related";
import { getRelatedArticles } from "./index";
import { setSnapshot } from "./published";
import { buildArticleIndex } from "./registry";
import { seedArticleFiles } from "./seed/seed-articles.server";

// The published snapshot as the first start makes it from the seed articles.
setSnapshot({
  articles: buildArticleIndex(seedArticleFiles()).map((article) => ({
    ...article,
    id: article.slug,
    authorSlug: article.author.toLowerCase().replace(/\s+/g, "-"),
    publishedAt: `${article.date}T13:00:00.000Z`,
    modifiedAt: `${article.updated ?? article.date}T13:00:00.000Z`,
    seoTitle: null,
    seoDescription: null,
    sponsored: false,
    sponsorName: null,
  })),
  authors: [],
  removedSlugs: new Set(),
  loadedAt: 1,
});

const list = [
  { slug: "a", category: "Bonds" },
  { slug: "b", category: "Metals" },
  { slug: "c", category: "Bonds" },
  { slug: "d", category: "Stocks" },
  { slug: "e", category: "Bonds" },
];

describe("related articles", () => {
  it("takes the same category first, then the newest others, never the article itself", () => {
    expect(pickRelated(list, list[4]!).map((a) => a.slug)).toEqual(["a", "c", "b"]);
    expect(pickRelated(list, list[1]!).map((a) => a.slug)).toEqual(["a", "c", "d"]);
  });

  it("gives every real article three others", () => {
    for (const slug of ["bonds-guide", "esg-investing", "retirement-protection"]) {
      const related = getRelatedArticles(slug);
      expect(related).toHaveLength(3);
      expect(related.map((a) => a.slug)).not.toContain(slug);
    }
  });
});
