import { describe, expect, it } from "vitest";
import type { PublicSiteConfig } from "~/config/site";
import { rssFeed } from "./feed.server";
import type { PublishedArticle } from "./published";

const SITE: PublicSiteConfig = { name: "Patriot Investor", url: "https://www.example.com", email: "info@example.com", phone: "1-800-555-0199", offerUrl: "https://offer.example.com", year: 2026 };
const CHANNEL = { title: "Patriot Investor Market Insights", link: "/blog", self: "/rss.xml" };

function article(slug: string, revisionId: number, body: string, sponsored = false) {
  const published: PublishedArticle = {
    id: slug,
    revisionId,
    slug,
    title: `The article ${slug}`,
    excerpt: "An excerpt long enough to describe the article in the feed reader's list.",
    author: "Sarah Whitfield",
    authorSlug: "sarah-whitfield",
    date: "2026-11-20",
    updated: "2026-11-20",
    publishedAt: "2026-11-20T13:00:00.000Z",
    modifiedAt: "2026-11-20T13:00:00.000Z",
    category: "Bonds & Fixed Income",
    image: "/images/articles/bonds-guide.svg",
    imageAlt: "A chart of Treasury yields",
    featured: false,
    wordCount: 10,
    readingMinutes: 1,
    seoTitle: null,
    seoDescription: null,
    sponsored,
    sponsorName: sponsored ? "A sponsor" : null,
  };
  return { ...published, body };
}

describe("the feed's items", () => {
  it("carry each body's current HTML: a kept rendering is used only for the very same text", () => {
    const first = rssFeed(SITE, CHANNEL, [article("a", 1, "First text with a [link](/gold).\n\nMore."), article("b", 2, "Second text.")]);
    expect(first).toContain("First text with a &lt;a href=&quot;https://www.example.com/gold&quot;");
    expect(rssFeed(SITE, CHANNEL, [article("a", 1, "First text with a [link](/gold).\n\nMore."), article("b", 2, "Second text.")])).toBe(first);
    // The same revision id with another text (another database, a test): the new text shows.
    const changed = rssFeed(SITE, CHANNEL, [article("a", 1, "Changed text entirely.")]);
    expect(changed).toContain("Changed text entirely.");
    expect(changed).not.toContain("First text");
    // Other site settings: rendered for them.
    expect(rssFeed({ ...SITE, url: "https://news.example.org" }, CHANNEL, [article("a", 1, "First text with a [link](/gold).\n\nMore.")])).toContain("https://news.example.org/gold");
  });
});
