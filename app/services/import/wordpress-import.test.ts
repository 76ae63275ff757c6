import { createReadStream, readFileSync } from "node:fs";
import { Readable } from "node:stream";
import { describe, expect, it } from "vitest";
import { convertWordPressBody } from "./wordpress-body.server";
import { dryRunWordPress, statusOf } from "./wordpress-dry-run.server";
import { readWxr, WxrError, type WxrRecord } from "./wxr-reader.server";

const FIXTURE = "tests/fixtures/import/wordpress-small.xml";

async function records(input: AsyncIterable<Buffer | string>) {
  const found: WxrRecord[] = [];
  for await (const record of readWxr(input)) found.push(record);
  return found;
}

/** The file in pieces of `size` bytes: a record, a tag and a character split anywhere. */
function inPieces(size: number) {
  const bytes = readFileSync(FIXTURE);
  const pieces: Buffer[] = [];
  for (let start = 0; start < bytes.length; start += size) pieces.push(bytes.subarray(start, start + size));
  return Readable.from(pieces);
}

describe("the WordPress export reader", () => {
  it("reads the site, the authors, the terms and every item, with their fields", async () => {
    const found = await records(createReadStream(FIXTURE));
    expect(found[0]).toEqual({ kind: "site", site: { title: "Liberty Ledger", link: "https://old.example.test", baseSiteUrl: "https://old.example.test", baseBlogUrl: "https://old.example.test", wxrVersion: "1.2" } });
    expect(found.filter((record) => record.kind === "author").map((record) => record.kind === "author" && record.author.email)).toEqual(["john.hancock@example.com", "mercy.warren@example.com"]);
    expect(found.filter((record) => record.kind === "term").map((record) => record.kind === "term" && `${record.term.kind}:${record.term.slug}:${record.term.name}`)).toEqual([
      "category:gold:Gold & Silver",
      "category:bonds:Bonds",
      "tag:inflation:Inflation",
    ]);
    const items = found.flatMap((record) => (record.kind === "item" ? [record.item] : []));
    expect(items.map((item) => `${item.id}:${item.type}:${item.status}`)).toEqual(["101:post:publish", "102:post:future", "103:post:draft", "104:post:private", "105:post:trash", "2:page:publish", "10:attachment:inherit", "106:post:publish"]);
    const gold = items[0]!;
    expect(gold).toMatchObject({
      title: "Why Gold Still Matters in 2026",
      link: "https://old.example.test/2026/03/14/why-gold-still-matters/",
      slug: "why-gold-still-matters",
      creator: "jhancock",
      postDateGmt: "2026-03-14 15:00:00",
      modifiedDateGmt: "2026-03-20 09:30:00",
      excerptHtml: "Five thousand years of money.",
      terms: [
        { kind: "category", slug: "gold", name: "Gold & Silver" },
        { kind: "tag", slug: "inflation", name: "Inflation" },
      ],
      meta: { _thumbnail_id: "10", _yoast_wpseo_title: "%%title%% %%sep%% %%sitename%%", _yoast_wpseo_metadesc: "Why gold still belongs in a saver’s plan." },
    });
    expect(items[6]!.attachmentUrl).toBe("https://old.example.test/wp-content/uploads/2026/03/bars.jpg");
    expect(items[7]!.contentHtml).toContain("poor man’s gold” [sic], she wrote — and she’s right ✓.");
  });

  it("reads the same records whatever the chunks, even a character's bytes split apart", async () => {
    const whole = await records(createReadStream(FIXTURE));
    for (const size of [1, 7, 64, 4096]) expect(await records(inPieces(size))).toEqual(whole);
  });

  it("refuses a file that is not a WordPress export, or is cut short, saying why", async () => {
    await expect(records(Readable.from(["<html><body>hello</body></html>"]))).rejects.toThrow(/no <rss> element/);
    await expect(records(Readable.from(['<?xml version="1.0"?><rss><channel><title>x</title><item><title>a</title></item></channel></rss>']))).rejects.toThrow(/no wp:wxr_version/);
    const cut = readFileSync(FIXTURE, "utf8").slice(0, 3000);
    await expect(records(Readable.from([cut]))).rejects.toBeInstanceOf(WxrError);
    await expect(records(Readable.from(["<rss><channel><title>a</b></channel></rss>"]))).rejects.toThrow(/not well-formed XML/);
  });
});

describe("a WordPress body as Markdown", () => {
  it("makes paragraphs of a classic post and a figure of [caption]", () => {
    const { markdown, losses } = convertWordPressBody(
      'Gold has been money.\n\n[caption id="attachment_10" width="800"]<img src="https://old.example.test/bars.jpg" alt="Gold bars" /> Bars in a vault.[/caption]\n\nA line\nthat wraps.',
    );
    expect(markdown).toBe("Gold has been money.\n\n![Gold bars](https://old.example.test/bars.jpg)\n*Bars in a vault.*\n\nA line  \nthat wraps.");
    expect(losses).toEqual([]);
  });

  it("turns embeds into links and leaves out galleries, forms and plugins' blocks, naming each", () => {
    const gallery = convertWordPressBody('Pictures.\n\n[gallery ids="10,11"]\n\nWrite: [contact-form-7 id="5" title="Contact"]');
    expect(gallery.markdown).toBe("Pictures.\n\nWrite:");
    expect(gallery.losses).toEqual(['[gallery ids="10,11"] left out: galleries are not converted', "[contact-form-7] left out"]);
    const embed = convertWordPressBody("[embed]https://www.youtube.com/watch?v=abc[/embed]");
    expect(embed.markdown).toBe("[https://www.youtube.com/watch?v=abc](https://www.youtube.com/watch?v=abc)");
    expect(embed.losses).toEqual(["[embed] turned into a plain link: https://www.youtube.com/watch?v=abc"]);
    const blocks = convertWordPressBody('<!-- wp:paragraph -->\n<p>Text</p>\n<!-- /wp:paragraph -->\n<!-- wp:jetpack/mailchimp -->\n<div><p>Join</p></div>\n<!-- /wp:jetpack/mailchimp -->\n<iframe src="https://x.test"></iframe>');
    expect(blocks.losses).toEqual(["block jetpack/mailchimp converted as its HTML only", "embedded frames (iframe) left out"]);
    expect(blocks.markdown).not.toContain("iframe");
  });

  it("keeps bracketed words that are not shortcodes as text", () => {
    const { markdown, losses } = convertWordPressBody("<p>“Silver is the poor man’s gold” [sic], see [1].</p>");
    expect(markdown).toBe("“Silver is the poor man’s gold” \\[sic\\], see \\[1\\].");
    expect(losses).toEqual([]);
  });

  it("never leaves a known or attributed shortcode as text", () => {
    for (const html of ["[su_button url=\"x\"]Buy[/su_button]", "[vc_row][vc_column]Hi[/vc_column][/vc_row]", "[audio mp3=\"notaurl\"]", "[my-plugin id=\"3\"]"]) {
      const { markdown, losses } = convertWordPressBody(html);
      expect(markdown, html).not.toMatch(/\[\/?[a-z]/);
      expect(losses.length, html).toBeGreaterThan(0);
    }
  });
});

describe("the dry run of a WordPress import", () => {
  it("maps WordPress's statuses: private to a draft, trash and automatic drafts skipped", () => {
    expect(statusOf({ status: "publish" })).toEqual({ status: "published" });
    expect(statusOf({ status: "future" })).toEqual({ status: "scheduled" });
    expect(statusOf({ status: "pending" })).toEqual({ status: "draft" });
    expect(statusOf({ status: "private" })).toMatchObject({ status: "draft" });
    expect(statusOf({ status: "trash" })).toHaveProperty("skip");
    expect(statusOf({ status: "auto-draft" })).toHaveProperty("skip");
  });

  it("says what an import of the fixture would do, line by line, without writing anything", async () => {
    const run = await dryRunWordPress(createReadStream(FIXTURE));
    expect(run.site.title).toBe("Liberty Ledger");
    expect(run.articles).toEqual({ published: 2, scheduled: 1, draft: 2 });
    expect(run.authors).toEqual([
      { login: "jhancock", email: "john.hancock@example.com", displayName: "John Hancock", posts: 2 },
      { login: "mwarren", email: "mercy.warren@example.com", displayName: "Mercy Otis Warren", posts: 2 },
      { login: "guestwriter", email: "", displayName: "guestwriter", posts: 1 },
    ]);
    expect(run.categories).toEqual([
      { slug: "gold", name: "Gold & Silver", posts: 3 },
      { slug: "bonds", name: "Bonds", posts: 1 },
      { slug: "uncategorized", name: "Uncategorized", posts: 1 },
    ]);
    expect(run.featuredImages).toEqual({ found: 1, missing: 1 });
    expect(run.imagesInBodies).toBe(1);
    expect(run.seo).toEqual({ titles: 1, descriptions: 1 });
    expect(run.oldUrls).toBe(5);
    expect(run.lines.map((line) => `${line.item} | ${line.outcome} | ${line.reason}`)).toEqual([
      "Treasury Ladders, Step by Step | converted with loss | embed blocks turned into plain links",
      "Treasury Ladders, Step by Step | converted with loss | block jetpack/mailchimp converted as its HTML only",
      'Our Photo Tour of the Mint | converted with loss | [gallery ids="10,11,12"] left out: galleries are not converted',
      "Our Photo Tour of the Mint | converted with loss | [contact-form-7] left out",
      "Members Only: The 2027 Outlook | converted with loss | private in WordPress: imported as a draft, not published",
      "Deleted Draft | skipped | in the WordPress trash",
      "About Us | skipped | a WordPress page, not a post: this site’s own pages (about, privacy, terms) take their place",
      "A Reader Writes [sic] About Silver | converted with loss | author “guestwriter” is not among the export’s authors: created from the login alone",
      "A Reader Writes [sic] About Silver | converted with loss | featured image (attachment 99) is not in the export",
    ]);
  });
});
