import { describe, expect, it } from "vitest";
import { pickRelated } from "./related";
import { getRelatedArticles } from "./index";

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
