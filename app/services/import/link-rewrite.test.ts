import { describe, expect, it } from "vitest";
import { rewriteOldLinks } from "./link-rewrite";

const ORIGINS = ["https://old.example.test"];

/** The old site's addresses this site knows, as the importer would hold them (normalized paths). */
const KNOWN: Record<string, string> = {
  "/2024/03/05/gold-in-march": "/articles/gold-in-march",
  "/?p=12": "/articles/gold-in-march",
  "/?cat=3&feed=rss2": "/rss/precious-metals.xml",
  "/?cat=3": "/blog?category=precious-metals",
  "/%D0%B7%D0%BE%D0%BB%D0%BE%D1%82%D0%BE": "/articles/zoloto",
  "/wp-content/uploads/2024/03/bar.jpg": "/media/2024/03/bar.jpg",
  "/blog/gold": "/articles/gold",
  "/tag/fed": "/search?q=Federal+Reserve",
  "/with-hash": "/articles/other#part-2",
};
const resolve = (path: string) => KNOWN[path] ?? null;
const rewrite = (html: string, origins = ORIGINS) => rewriteOldLinks(html, origins, resolve);

describe("rewriteOldLinks", () => {
  it("rewrites an absolute link to the old site", () => {
    expect(rewrite(`<p>See <a href="https://old.example.test/2024/03/05/gold-in-march/">this</a>.</p>`)).toEqual({
      html: `<p>See <a href="/articles/gold-in-march">this</a>.</p>`,
      rewritten: 1,
      unresolved: [],
    });
  });

  it("takes either scheme, www., a host in capitals, //host and root-relative links as the old site's", () => {
    const html = [
      `<a href="http://old.example.test/2024/03/05/gold-in-march">1</a>`,
      `<a href="https://www.old.example.test/2024/03/05/gold-in-march">2</a>`,
      `<a href="https://OLD.Example.TEST/2024/03/05/gold-in-march">3</a>`,
      `<a href="//old.example.test/2024/03/05/gold-in-march/">4</a>`,
      `<a href="/2024/03/05/gold-in-march/">5</a>`,
    ].join("\n");
    const result = rewrite(html);
    expect(result.rewritten).toBe(5);
    expect(result.html.match(/href="\/articles\/gold-in-march"/g)).toHaveLength(5);
  });

  it("keeps the fragment, unless the new address has its own", () => {
    expect(rewrite(`<a href="/2024/03/05/gold-in-march/#comments">x</a>`).html).toBe(`<a href="/articles/gold-in-march#comments">x</a>`);
    expect(rewrite(`<a href="/with-hash#mine">x</a>`).html).toBe(`<a href="/articles/other#part-2">x</a>`);
  });

  it("reads ?p= links, with the entity WordPress writes for & and with tracking", () => {
    expect(rewrite(`<a href="https://old.example.test/?p=12">x</a>`).html).toBe(`<a href="/articles/gold-in-march">x</a>`);
    expect(rewrite(`<a href="https://old.example.test/?cat=3&amp;feed=rss2">x</a>`).html).toBe(`<a href="/rss/precious-metals.xml">x</a>`);
    expect(rewrite(`<a href="/?utm_source=mail&amp;p=12">x</a>`).html).toBe(`<a href="/articles/gold-in-march">x</a>`);
    // In an attribute, "&copy=" is not the © entity (HTML's rule for named entities without ";").
    expect(rewrite(`<a href="/?cat=3&copy=2">x</a>`).html).toBe(`<a href="/blog?category=precious-metals">x</a>`);
  });

  it("writes & in a new address as &amp;", () => {
    const known = (path: string) => (path === "/x" ? "/search?q=a&page=2" : null);
    expect(rewriteOldLinks(`<a href="/x">x</a>`, ORIGINS, known).html).toBe(`<a href="/search?q=a&amp;page=2">x</a>`);
  });

  it("normalizes percent-encoding as old-urls does (lower case hex, raw UTF-8)", () => {
    expect(rewrite(`<a href="https://old.example.test/%d0%b7%d0%be%d0%bb%d0%be%d1%82%d0%be/">a</a>`).html).toBe(`<a href="/articles/zoloto">a</a>`);
    expect(rewrite(`<a href="/золото">b</a>`).html).toBe(`<a href="/articles/zoloto">b</a>`);
  });

  it("rewrites images' src and leaves their other attributes", () => {
    const html = `<img class="wp-image-45 alignnone" src="https://old.example.test/wp-content/uploads/2024/03/bar.jpg" alt="A bar &amp; a coin" width="600" />`;
    expect(rewrite(html)).toEqual({
      html: `<img class="wp-image-45 alignnone" src="/media/2024/03/bar.jpg" alt="A bar &amp; a coin" width="600" />`,
      rewritten: 1,
      unresolved: [],
    });
  });

  it("rewrites a link around an image and the image inside a caption shortcode", () => {
    const html = `[caption id="attachment_45" align="alignnone" width="600"]<a href="https://old.example.test/wp-content/uploads/2024/03/bar.jpg"><img src="https://old.example.test/wp-content/uploads/2024/03/bar.jpg" /></a> A bar[/caption]`;
    expect(rewrite(html)).toEqual({
      html: `[caption id="attachment_45" align="alignnone" width="600"]<a href="/media/2024/03/bar.jpg"><img src="/media/2024/03/bar.jpg" /></a> A bar[/caption]`,
      rewritten: 2,
      unresolved: [],
    });
  });

  it("leaves links to other sites, relative links, fragments, mailto and other schemes untouched", () => {
    const html = [
      `<a href="https://elsewhere.example/2024/03/05/gold-in-march/">a</a>`,
      `<a href="https://old.example.test.evil.example/?p=12">b</a>`,
      `<a href="/\\elsewhere.example/?p=12">b2</a>`,
      `<a href="2024/03/05/gold-in-march/">c</a>`,
      `<a href="#footnote-1">d</a>`,
      `<a href="mailto:editor@old.example.test">e</a>`,
      `<a href="javascript:void(0)">f</a>`,
      `<a href="ftp://old.example.test/?p=12">g</a>`,
      `<a>h</a>`,
      `<a href>i</a>`,
      `<a href="">j</a>`,
    ].join("\n");
    expect(rewrite(html)).toEqual({ html, rewritten: 0, unresolved: [] });
  });

  it("lists the old site's links it does not know, once each, as written, and leaves them", () => {
    const html = `<a href="https://old.example.test/shop/">a</a> <a href="https://old.example.test/shop/">b</a> <img src="/wp-content/uploads/2019/01/lost.png">`;
    expect(rewrite(html)).toEqual({ html, rewritten: 0, unresolved: ["https://old.example.test/shop/", "/wp-content/uploads/2019/01/lost.png"] });
  });

  it("leaves entities, comments, blocks and everything else byte for byte", () => {
    const html = [
      `<!-- wp:paragraph {"className":"lead"} -->`,
      `<p class="lead">Gold &amp; silver &#8211; &ldquo;quoted&rdquo; &nbsp;&copy; 2024 <a title="A &quot;good&quot; read" href='/?p=12' data-x=1>read</a></p>`,
      `<!-- /wp:paragraph -->`,
      `<script>document.write('<a href="/?p=12">not a link</a>')</script>`,
      `<pre><code>&lt;a href="/?p=12"&gt;</code></pre>`,
      `<p>Text with a stray < and > and &unknown; entity</p>`,
    ].join("\n");
    const result = rewrite(html);
    expect(result.rewritten).toBe(1);
    expect(result.html).toBe(html.replace(`href='/?p=12'`, `href='/articles/gold-in-march'`));
  });

  it("keeps the quotes an attribute had, and quotes an unquoted one", () => {
    expect(rewrite(`<a href='/?p=12'>x</a>`).html).toBe(`<a href='/articles/gold-in-march'>x</a>`);
    expect(rewrite(`<a href=/?p=12>x</a>`).html).toBe(`<a href="/articles/gold-in-march">x</a>`);
    expect(rewrite(`<a href=/?p=12 class=x>x</a>`).html).toBe(`<a href="/articles/gold-in-march" class=x>x</a>`);
    expect(rewrite(`<a href = "/?p=12" >x</a>`).html).toBe(`<a href = "/articles/gold-in-march" >x</a>`);
    expect(rewrite(`<A HREF="/?p=12">x</A>`).html).toBe(`<A HREF="/articles/gold-in-march">x</A>`);
  });

  it("escapes the quote that holds a new address", () => {
    const known = () => `/search?q=it's "gold"`;
    expect(rewriteOldLinks(`<a href='/x'>x</a>`, ORIGINS, known).html).toBe(`<a href='/search?q=it&#39;s "gold"'>x</a>`);
    expect(rewriteOldLinks(`<a href="/x">x</a>`, ORIGINS, known).html).toBe(`<a href="/search?q=it's &quot;gold&quot;">x</a>`);
  });

  it("takes the first of a repeated attribute, as browsers do, and only href on links and src on images", () => {
    expect(rewrite(`<a href="/?p=12" href="/?cat=3">x</a>`).html).toBe(`<a href="/articles/gold-in-march" href="/?cat=3">x</a>`);
    expect(rewrite(`<a src="/?p=12" data-href="/?p=12">x</a><img href="/?p=12"><link href="/?p=12">`).rewritten).toBe(0);
  });

  it("rewrites several links in order, around entities and multibyte text", () => {
    const html = `<p>Émile’s “take” &mdash; <a href="/?p=12">one</a>, <img src="/wp-content/uploads/2024/03/bar.jpg" alt="🪙">, <a href="/?cat=3">two</a></p>`;
    const result = rewrite(html);
    expect(result.rewritten).toBe(3);
    expect(result.html).toBe(`<p>Émile’s “take” &mdash; <a href="/articles/gold-in-march">one</a>, <img src="/media/2024/03/bar.jpg" alt="🪙">, <a href="/blog?category=precious-metals">two</a></p>`);
  });

  it("decodes entities inside an address before it looks it up", () => {
    expect(rewrite(`<a href="&#x2F;?p&#61;12">x</a>`).html).toBe(`<a href="/articles/gold-in-march">x</a>`);
  });

  it("reads a site in a folder by its full paths, and does not take another host's links for its own", () => {
    expect(rewrite(`<a href="https://old.example.test/blog/gold/">a</a>`, ["https://old.example.test/blog"]).html).toBe(`<a href="/articles/gold">a</a>`);
    expect(rewrite(`<a href="https://new.example.test/?p=12">a</a>`, ["not an origin", "https://old.example.test"]).rewritten).toBe(0);
  });

  it("leaves an attribute cut off at the end of the body", () => {
    const html = `<p>x</p><a href="/?p=12`;
    expect(rewrite(html)).toEqual({ html, rewritten: 0, unresolved: [] });
  });

  it("gives an empty body back as it is", () => {
    expect(rewrite("")).toEqual({ html: "", rewritten: 0, unresolved: [] });
  });

  it("trims spaces around an address as browsers do", () => {
    expect(rewrite(`<a href="  /?p=12\n">x</a>`).html).toBe(`<a href="/articles/gold-in-march">x</a>`);
  });
});
