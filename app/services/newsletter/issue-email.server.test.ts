import { describe, expect, it } from "vitest";
import { issueContent, recipientLinks } from "./issues.server";
import { personalize, renderIssue } from "./issue-email.server";

const KNOWN = [
  { slug: "bonds-guide", title: "Bonds: A Guide for Savers", excerpt: "What a bond is and how it pays you back.", image: "/images/articles/bonds-guide.svg", imageAlt: "A bond certificate", category: "Bonds" },
  { slug: "precious-metals-guide", title: "Gold & Silver", excerpt: "Why metals hold value when money does not.", image: "/images/articles/precious-metals-guide.svg", imageAlt: "Gold bars", category: "Precious Metals" },
];
const SETTINGS = { siteName: "Patriot Investor", siteUrl: "https://news.example", postalAddress: "1776 Liberty Way, Philadelphia, PA 19106" };

describe("newsletter issue e-mail", () => {
  it("renders once with the digest, the intro, the postal address and both parts; each copy gets its own unsubscribe links", async () => {
    const content = issueContent(
      { subject: "This Week: Bonds & Gold", previewText: "Rates, metals and your savings", introMarkdown: "Dear reader, **rates** moved. See [the Fed](https://news.example/articles/fed?x=1&y=2).", articleSlugs: "precious-metals-guide,bonds-guide,unknown" },
      KNOWN,
      SETTINGS,
    );
    expect(content.articles.map((article) => article.title)).toEqual(["Gold & Silver", "Bonds: A Guide for Savers"]);
    const rendered = await renderIssue(content);
    const { links, headers } = recipientLinks(SETTINGS.siteUrl, "tok_en-1234567890abcdefghijklmnopqrstuvwxyzABC", "info@news.example");
    const copy = personalize(rendered, links);

    expect(copy.html).toMatch(/^<!DOCTYPE html/);
    expect(copy.html).toContain("<strong>rates</strong>");
    expect(copy.html).toContain('href="https://news.example/articles/fed?x=1&amp;y=2"');
    expect(copy.html).toContain('src="https://news.example/images/social/articles-precious-metals-guide.png"');
    expect(copy.html).toContain("Rates, metals and your savings");
    expect(copy.html).toContain("1776 Liberty Way, Philadelphia, PA 19106");
    expect(copy.html).toContain('href="https://news.example/newsletter/preferences?token=tok_en-1234567890abcdefghijklmnopqrstuvwxyzABC"');
    expect(copy.html).not.toContain("%%");
    expect(copy.text).toContain("Unsubscribe https://news.example/newsletter/preferences?token=tok_en-1234567890abcdefghijklmnopqrstuvwxyzABC");
    expect(copy.text).toContain("1776 Liberty Way, Philadelphia, PA 19106");
    expect(copy.text).toMatch(/Gold & Silver/i);
    expect(copy.text).toContain("https://news.example/articles/precious-metals-guide");
    expect(copy.text).not.toContain("<");

    expect(headers["List-Unsubscribe"]).toBe(
      "<https://news.example/newsletter/unsubscribe?token=tok_en-1234567890abcdefghijklmnopqrstuvwxyzABC>, <mailto:info@news.example?subject=unsubscribe%20tok_en-1234567890abcdefghijklmnopqrstuvwxyzABC>",
    );
    expect(headers["List-Unsubscribe-Post"]).toBe("List-Unsubscribe=One-Click");
  });
});
