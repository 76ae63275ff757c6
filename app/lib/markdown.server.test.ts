import { describe, expect, it } from "vitest";
import { renderMarkdown, typographicText } from "./markdown.server";

const site = { name: "Patriot Investor" } as Parameters<typeof renderMarkdown>[1];
const render = (markdown: string) => renderMarkdown(markdown, site);

describe("typography in rendered Markdown", () => {
  it("prints an em dash for two hyphens, curly quotes and apostrophes, and an ellipsis", () => {
    expect(render(`"ESG" investing -- short for it's "governance"... and 'that'`)).toBe(
      "<p>\u201cESG\u201d investing \u2014 short for it\u2019s \u201cgovernance\u201d\u2026 and \u2018that\u2019</p>\n",
    );
  });

  it("leaves code spans and code blocks as typed", () => {
    const html = render('Run `a -- "b"` now.\n\n```\nx -- "y" ...\n```');
    expect(html).toContain('<code>a -- "b"</code>');
    expect(html).toContain('<pre><code>x -- "y" ...\n</code></pre>');
  });

  it("leaves link targets and bare addresses as typed", () => {
    const html = render('See [the "guide"](https://example.com/a--b) or https://example.com/x--y... today');
    expect(html).toContain('<a href="https://example.com/a--b">the \u201cguide\u201d</a>');
    expect(html).toContain('<a href="https://example.com/x--y">https://example.com/x--y</a>\u2026 today');
  });

  it("gives plain text the same typography as Unicode characters", () => {
    expect(typographicText(`"ESG" investing -- short for it's...`)).toBe("\u201cESG\u201d investing \u2014 short for it\u2019s\u2026");
  });
});

describe("uploaded images in Markdown", () => {
  const id = "0b8f6a3e-5d1c-4c2a-9e7f-1a2b3c4d5e6f";

  it("renders an upload reference as a <picture> with AVIF and WebP sources and a sized, lazy JPEG", () => {
    const html = renderMarkdown(`![Gold "bars" <in> a vault](/media/${id}/800x600)`, site);
    expect(html).toContain(`<picture><source type="image/avif" srcset="/media/${id}/480.avif 480w, /media/${id}/800.avif 800w"`);
    expect(html).toContain(`<source type="image/webp" srcset="/media/${id}/480.webp 480w, /media/${id}/800.webp 800w"`);
    expect(html).toContain(`<img src="/media/${id}/800.jpg" srcset="/media/${id}/480.jpg 480w, /media/${id}/800.jpg 800w"`);
    expect(html).toContain(`width="800" height="600" alt="Gold &quot;bars&quot; &lt;in&gt; a vault" loading="lazy"`);
  });

  it("leaves other images as Markdown writes them", () => {
    expect(renderMarkdown("![A chart](/images/chart.png)", site)).toContain('<img src="/images/chart.png" alt="A chart" />');
  });
});

describe("sponsored articles", () => {
  it("marks every link rel=\"sponsored noopener\", replacing any rel the Markdown gave", () => {
    const html = renderMarkdown("See [the offer](https://sponsor.example/x) and [this](/gold \"Gold\"), or https://c.example.", site, { sponsored: true });
    expect(html.match(/<a /g)).toHaveLength(3);
    expect(html.match(/rel="sponsored noopener"/g)).toHaveLength(3);
    expect(render("[plain](https://example.com)")).not.toContain("sponsored");
  });
});

describe("what an editor can put in a body", () => {
  it("shows raw HTML as text and drops links that are not web, mail, phone or this site's", () => {
    const html = render('<script>alert(1)</script>\n\nHi <img src=x onerror="alert(2)"> [x](javascript:alert(3)) [y](data:text/html,z) [ok](/blog) [mail](mailto:a@b.example)');
    expect(html).not.toMatch(/<script|<img|href="javascript|href="data/);
    expect(html).toContain("&lt;script&gt;");
    expect(html).toContain('<a href="/blog">ok</a>');
    expect(html).toContain('href="mailto:a@b.example"');
  });
});
