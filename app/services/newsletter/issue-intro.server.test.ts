import { describe, expect, it } from "vitest";
import { scriptingProblems, xssVectors } from "../../../tests/support/xss-corpus";
import { issueContent } from "./issues.server";
import { renderIssue } from "./issue-email.server";

const SETTINGS = { siteName: "Patriot Investor", siteUrl: "https://news.example", postalAddress: "1776 Liberty Way, Philadelphia, PA 19106" };

/** The rendered intro: what sits between the issue's headline and the digest. */
function introOf(html: string) {
  const start = html.indexOf("</h1>");
  const end = html.indexOf("<hr", start);
  return html.slice(start + "</h1>".length, end);
}

describe("raw HTML in a newsletter issue's intro", () => {
  it("reaches the e-mail with no script, no event handler and no javascript: or data: address (the article bodies' sanitizer)", async () => {
    const introMarkdown = ["Dear reader, **rates** moved. See [the Fed](https://news.example/articles/fed).", ...xssVectors()].join("\n\n");
    const { html } = await renderIssue(issueContent({ subject: "This Week", previewText: "", introMarkdown, articleSlugs: "" }, [], SETTINGS));
    const intro = introOf(html);
    // The e-mail's own tags (the intro's inline styles) on top of the article body's allowlist.
    expect(scriptingProblems(intro.replace(/\sstyle="[^"]*"/g, ""), ["p", "br", "hr", "h1", "h2", "h3", "h4", "h5", "h6", "strong", "em", "del", "code", "pre", "blockquote", "ul", "ol", "li", "input", "a", "img", "picture", "source", "div", "table", "thead", "tbody", "tr", "th", "td"])).toEqual([]);
    expect(html).not.toMatch(/<script/i);
    // What the editor meant is kept, with the e-mail's inline styles.
    expect(intro).toContain("<strong>rates</strong>");
    expect(intro).toMatch(/<a data-text-note="true" style="[^"]+" href="https:\/\/news\.example\/articles\/fed">the Fed<\/a>/);
  });
});
