import { describe, expect, it } from "vitest";
import { pickRelated } from "./related";
import { getRelatedArticles } from "./index";
import { setSeedSnapshot } from "../../tests/support/seed-snapshot";

setSeedSnapshot();

const list = [
  { slug: "a", category: "Bonds" },
  { slug: "b", category: "Metals" },
  { slug: "c", category: "Bonds" },
  { slug: "d", category: "Stocks" },
  { slug: "e", category: "Bonds" },
];

describe("related articles", () => {
  it("takes the same category first, then the others, each by closeness in time (a tie to the newer), never the article itself", () => {
    expect(pickRelated(list, list[4]!).map((a) => a.slug)).toEqual(["c", "a", "d"]);
    expect(pickRelated(list, list[1]!).map((a) => a.slug)).toEqual(["a", "c", "d"]);
    expect(pickRelated(list, list[2]!).map((a) => a.slug)).toEqual(["a", "e", "b"]);
  });

  it("gives an article that is not in the list the newest of its category", () => {
    expect(pickRelated(list, { slug: "draft", category: "Bonds" }).map((a) => a.slug)).toEqual(["a", "c", "e"]);
  });

  it("changes the box of at most three older articles when a new one is published", () => {
    const category = (i: number) => ["Bonds", "Metals", "Stocks"][i % 3]!;
    const before = Array.from({ length: 60 }, (_, i) => ({ slug: `old-${i}`, category: category(i) }));
    const after = [{ slug: "new", category: "Bonds" }, ...before];
    const boxes = (articles: typeof before) => new Map(articles.map((article) => [article.slug, pickRelated(articles, article).map((a) => a.slug).join()]));
    const was = boxes(before);
    const now = boxes(after);
    const changed = before.filter((article) => was.get(article.slug) !== now.get(article.slug)).map((article) => article.slug);
    expect(changed.length).toBeGreaterThan(0);
    expect(changed.length).toBeLessThanOrEqual(3);
    expect(changed.every((slug) => before.find((article) => article.slug === slug)!.category === "Bonds")).toBe(true);
  });

  it("gives every real article three others", () => {
    for (const slug of ["bonds-guide", "esg-investing", "retirement-protection"]) {
      const related = getRelatedArticles(slug);
      expect(related).toHaveLength(3);
      expect(related.map((a) => a.slug)).not.toContain(slug);
    }
  });
});
