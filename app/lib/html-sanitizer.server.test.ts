import { describe, expect, it } from "vitest";
import { scriptingProblems, xssVectors } from "../../tests/support/xss-corpus";
import { sanitizeBodyHtml } from "./html-sanitizer.server";
import { renderArticleBody, renderMarkdown } from "./markdown.server";

const site = { name: "Patriot Investor" } as Parameters<typeof renderMarkdown>[1];

/** Every element the Markdown renderer writes into an article body, and no other. */
const BODY_TAGS = [
  "p", "br", "hr", "h1", "h2", "h3", "h4", "h5", "h6", "strong", "em", "del", "code", "pre", "blockquote", "ul", "ol", "li", "input",
  "a", "img", "picture", "source", "div", "table", "thead", "tbody", "tr", "th", "td",
];

const vectors = xssVectors();

describe("the XSS corpus (OWASP filter evasion vectors and their Markdown forms)", () => {
  it("holds enough vectors to mean something", () => {
    expect(vectors.length).toBeGreaterThanOrEqual(100);
  });

  it.each(vectors.map((vector) => [vector]))("a body of %s renders nothing that runs", (vector) => {
    for (const html of [
      renderMarkdown(vector, site),
      renderMarkdown(`Before it ${vector} and after.`, site),
      renderMarkdown(`- ${vector}\n\n> ${vector}`, site, { sponsored: true }),
    ]) {
      expect(scriptingProblems(html, BODY_TAGS), html).toEqual([]);
    }
  });

  it.each(vectors.map((vector) => [vector]))("the sanitizer alone, given %s as HTML, keeps nothing that runs", (vector) => {
    const html = sanitizeBodyHtml(vector);
    expect(scriptingProblems(html, BODY_TAGS), html).toEqual([]);
  });

  it("renders the whole corpus as one article, intro and body, with nothing that runs", () => {
    const { introHtml, bodyHtml } = renderArticleBody(vectors.join("\n\n"), site, { sponsored: true });
    expect(scriptingProblems(introHtml + bodyHtml, BODY_TAGS)).toEqual([]);
  });

  it("shows the cheat sheet's tags to readers as text, as the editor typed them", () => {
    expect(renderMarkdown("<img src=x onerror=alert('x')>", site)).toBe("<p>&lt;img src=x onerror=alert(\u2018x\u2019)&gt;</p>\n");
    expect(renderMarkdown("<svg/onload=alert(1)>", site)).toBe("<p>&lt;svg/onload=alert(1)&gt;</p>\n");
    expect(renderMarkdown("Hover <b onmouseover=alert('x')>here</b>", site)).toBe("<p>Hover &lt;b onmouseover=alert(\u2018x\u2019)&gt;here&lt;/b&gt;</p>\n");
  });

  it("gives images the links' scheme rule: a javascript: or data: image is its alt text", () => {
    expect(renderMarkdown("![pic](javascript:alert(1))", site)).toBe("<p>pic</p>\n");
    expect(renderMarkdown("![a chart](data:image/svg+xml;base64,PHN2Zz4=)", site)).toBe("<p>a chart</p>\n");
    expect(renderMarkdown("![a chart](//evil.example/x.png)", site)).toBe("<p>a chart</p>\n");
    expect(renderMarkdown("![a chart](https://example.com/x.png)", site)).toBe('<p><img src="https://example.com/x.png" alt="a chart" /></p>\n');
  });
});

describe("what the sanitizer keeps", () => {
  it("keeps every element and attribute the Markdown rules write", () => {
    const markdown = [
      "## A heading with *emphasis*",
      "| Asset | Yield |\n|:--|--:|\n| Bonds | 4% |",
      "- [x] done\n- [ ] open",
      "3. three\n4. four",
      "```ts\nconst a = 1;\n```",
      "> quote ~~struck~~  \nnext line",
      "---",
      '![a chart](https://example.com/a.png "Chart") [the guide](https://example.com/g "Guide") [call](tel:+18005550199) [write](mailto:a@b.example) [here](/blog) [top](#top)',
      "![an upload](/media/0b8f6a3e-5d1c-4c2a-9e7f-1a2b3c4d5e6f/800x600)",
    ].join("\n\n");
    const html = renderMarkdown(markdown, site, { sponsored: true });
    for (const expected of [
      "<h2>A heading with <em>emphasis</em></h2>",
      '<div class="table-scroll" role="region" aria-label="Table" tabindex="0"><table>',
      '<th align="left">Asset</th>',
      '<td align="right" data-label="Yield">4%</td>',
      '<li><input checked disabled type="checkbox" /> done</li>',
      '<ol start="3">',
      '<code class="language-ts">',
      "<del>struck</del><br />",
      "<blockquote>",
      "<hr />",
      '<img src="https://example.com/a.png" alt="a chart" title="Chart" />',
      '<a href="https://example.com/g" title="Guide" rel="sponsored noopener">the guide</a>',
      '<a href="tel:+18005550199" rel="sponsored noopener">call</a>',
      'href="mailto:a@b.example"',
      '<a href="/blog" rel="sponsored noopener">here</a>',
      '<a href="#top" rel="sponsored noopener">top</a>',
      '<picture><source type="image/avif" srcset="/media/0b8f6a3e-5d1c-4c2a-9e7f-1a2b3c4d5e6f/480.avif 480w, /media/0b8f6a3e-5d1c-4c2a-9e7f-1a2b3c4d5e6f/800.avif 800w" sizes="(min-width: 48rem) 768px, 100vw" />',
      'loading="lazy" decoding="async" /></picture>',
    ]) {
      expect(html).toContain(expected);
    }
  });
});
