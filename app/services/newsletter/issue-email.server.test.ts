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
    // The intro's link is a numbered note; the address on its own line.
    expect(copy.text).toContain("See the Fed [1].");
    expect(copy.text).toMatch(/^\[1\] https:\/\/news\.example\/articles\/fed\?x=1&y=2$/m);

    expect(headers["List-Unsubscribe"]).toBe(
      "<https://news.example/newsletter/unsubscribe?token=tok_en-1234567890abcdefghijklmnopqrstuvwxyzABC>, <mailto:info@news.example?subject=unsubscribe%20tok_en-1234567890abcdefghijklmnopqrstuvwxyzABC>",
    );
    expect(headers["List-Unsubscribe-Post"]).toBe("List-Unsubscribe=One-Click");
  });

  it("prints the site's address once in the plain-text footer, and never a character stuck to the end of an address", async () => {
    const content = issueContent(
      {
        subject: "Links everywhere",
        previewText: "",
        introMarkdown: "Read [the Fed](https://news.example/articles/fed), [gold](https://news.example/gold); or (see [bonds](https://news.example/bonds))! Ask [us](mailto:info@news.example).\n\nEnds with https://news.example/raw.",
        articleSlugs: "bonds-guide",
      },
      KNOWN,
      SETTINGS,
    );
    const { links } = recipientLinks(SETTINGS.siteUrl, "tok_en-1234567890abcdefghijklmnopqrstuvwxyzABC", "info@news.example");
    const { text } = personalize(await renderIssue(content), links);
    const footer = text.slice(text.lastIndexOf("-----"));
    expect(footer.match(/news\.example(?!\/)/g)).toHaveLength(1);
    expect(footer).toMatch(/Our website:\nhttps:\/\/news\.example\n/);
    // Every address ends at white space or the end of the text: no full stop, comma or bracket
    // that a mail or SMS app would take into the link.
    const addresses = [...text.matchAll(/https?:\/\/\S+/g)].map((match) => match[0]);
    expect(addresses.length).toBeGreaterThan(5);
    for (const address of addresses) expect(address, address).not.toMatch(/[.,;:!?)\]]$/);
    expect(text).toContain("Read the Fed [1], gold [2]; or (see bonds [3])! Ask us [4].");
    expect(text).toMatch(/^\[3\] https:\/\/news\.example\/bonds$/m);
    expect(text).toMatch(/^\[4\] info@news\.example$/m);
    // An article's address once, after "Read the article".
    expect(text.split("https://news.example/articles/bonds-guide")).toHaveLength(2);
    expect(text).toContain("Read the article → https://news.example/articles/bonds-guide\n");
  });
});
