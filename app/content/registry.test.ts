import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { buildArticleIndex, ContentError } from "./registry";

const DIR = path.join(import.meta.dirname, "seed/articles");
const realFiles = Object.fromEntries(
  readdirSync(DIR).map((name) => [`./articles/${name}`, readFileSync(path.join(DIR, name), "utf8")]),
);

function article(slug: string, overrides: Record<string, string> = {}) {
  const fields: Record<string, string> = {
    slug,
    title: `"A title for ${slug}"`,
    excerpt: '"An excerpt that is long enough to pass the forty character minimum."',
    author: '"Jane Writer"',
    date: '"2025-01-02"',
    category: '"Precious Metals"',
    image: `"/images/articles/${slug}.svg"`,
    imageAlt: '"An illustration of the topic"',
    featured: "false",
    ...overrides,
  };
  const front = Object.entries(fields)
    .filter(([, value]) => value !== "")
    .map(([key, value]) => `${key}: ${value}`)
    .join("\n");
  return { [`./articles/${slug}.md`]: `---\n${front}\n---\nBody text of ${slug}.\n` };
}

describe("the article index", () => {
  it("holds the six articles of the spec, newest first, with one featured", () => {
    const articles = buildArticleIndex(realFiles);
    expect(articles.map((a) => a.slug).sort()).toEqual([
      "bonds-guide",
      "esg-investing",
      "fed-policy-guide",
      "generational-wealth",
      "precious-metals-guide",
      "retirement-protection",
    ]);
    expect(articles.filter((a) => a.featured)).toHaveLength(1);
    const dates = articles.map((a) => a.date);
    expect(dates).toEqual([...dates].sort().reverse());
  });

  it("has at least 1,200 words in every article", () => {
    for (const article of buildArticleIndex(realFiles)) {
      expect(article.wordCount, article.slug).toBeGreaterThanOrEqual(1200);
    }
  });

  it("dates the generational-wealth article December 3, 2025 in Wealth Building", () => {
    const article = buildArticleIndex(realFiles).find((a) => a.slug === "generational-wealth");
    expect(article).toMatchObject({ date: "2025-12-03", category: "Wealth Building" });
  });

  it("accepts a valid set", () => {
    const files = { ...article("one", { featured: "true" }), ...article("two") };
    expect(buildArticleIndex(files)).toHaveLength(2);
  });

  it("rejects a missing field", () => {
    const files = { ...article("one", { featured: "true" }), ...article("two", { author: "" }) };
    expect(() => buildArticleIndex(files)).toThrow(/two\.md.*author/s);
  });

  it("rejects an unknown category", () => {
    const files = article("one", { featured: "true", category: '"Crypto"' });
    expect(() => buildArticleIndex(files)).toThrow(ContentError);
  });

  it("rejects a duplicate slug", () => {
    const first = article("one", { featured: "true" });
    const copy = { "./articles/one-copy.md": Object.values(article("one"))[0]! };
    expect(() => buildArticleIndex({ ...first, ...copy })).toThrow(/duplicate slug "one"|does not match the file name/);
  });

  it("rejects no featured article and two featured articles", () => {
    expect(() => buildArticleIndex({ ...article("one"), ...article("two") })).toThrow(/exactly one article must be featured, found 0/);
    expect(() =>
      buildArticleIndex({ ...article("one", { featured: "true" }), ...article("two", { featured: "true" }) }),
    ).toThrow(/found 2/);
  });

  it("rejects a file name that disagrees with the slug", () => {
    const files = { "./articles/other.md": Object.values(article("one", { featured: "true" }))[0]! };
    expect(() => buildArticleIndex(files)).toThrow(/does not match the file name/);
  });
});
