import { describe, expect, it } from "vitest";
import { setSeedSnapshot } from "../../tests/support/seed-snapshot";
import { listPublicPages, SITEMAP_MAX_URLS, sitemapChunks, sitemapIndexXml, urlsetXml, type SitemapEntry } from "./site-map.server";

const absolute = (path: string) => `https://www.example.com${path}`;

function entries(count: number): SitemapEntry[] {
  return Array.from({ length: count }, (_, index) => ({ path: `/articles/a-${index}`, lastmod: `2025-01-${String((index % 28) + 1).padStart(2, "0")}T12:00:00.000Z`, changefreq: "monthly" }));
}

describe("the sitemap", () => {
  it("stays one file up to the protocol's 50,000 URLs and becomes an index of children past it, each child with its newest lastmod", () => {
    expect(sitemapChunks(entries(SITEMAP_MAX_URLS))).toHaveLength(1);
    const chunks = sitemapChunks(entries(SITEMAP_MAX_URLS * 2 + 1));
    expect(chunks.map((chunk) => chunk.entries.length)).toEqual([SITEMAP_MAX_URLS, SITEMAP_MAX_URLS, 1]);
    expect(chunks[0]!.lastmod).toBe("2025-01-28T12:00:00.000Z");
    // The last child holds only entry 100,000 (index % 28 = 12: the 13th).
    expect(chunks[2]!.lastmod).toBe("2025-01-13T12:00:00.000Z");

    const index = sitemapIndexXml(chunks, absolute);
    expect(index).toContain('<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">');
    expect([...index.matchAll(/<sitemap><loc>([^<]+)<\/loc><lastmod>([^<]+)<\/lastmod><\/sitemap>/g)].map((match) => match[1])).toEqual([
      "https://www.example.com/sitemaps/1.xml",
      "https://www.example.com/sitemaps/2.xml",
      "https://www.example.com/sitemaps/3.xml",
    ]);
    const child = urlsetXml(chunks[2]!.entries, absolute);
    expect(child).toContain("<url><loc>https://www.example.com/articles/a-100000</loc><lastmod>2025-01-13T12:00:00.000Z</lastmod><changefreq>monthly</changefreq></url>");
  });

  it("lists the first page of each category and month that has articles, with the newest dateModified, and escapes addresses", () => {
    setSeedSnapshot();
    const pages = listPublicPages();
    const paths = pages.map((page) => page.path);
    expect(paths).toContain("/blog?category=precious-metals");
    const months = paths.filter((path) => /^\/blog\/\d{4}\/\d{2}$/.test(path));
    expect(months.length).toBeGreaterThan(0);
    expect(new Set(paths).size).toBe(paths.length);
    expect(urlsetXml([{ path: "/blog?category=a&b", changefreq: "daily" }], absolute)).toContain("<loc>https://www.example.com/blog?category=a&amp;b</loc>");
  });
});
