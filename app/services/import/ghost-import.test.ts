import { createReadStream, readFileSync } from "node:fs";
import { Readable } from "node:stream";
import { describe, expect, it } from "vitest";
import { dryRunGhost, ghostStatusOf } from "./ghost-dry-run.server";
import { GhostError, readGhost, type GhostRow } from "./ghost-reader.server";

const FIXTURE = "tests/fixtures/import/ghost-small.json";

async function rows(input: Readable) {
  const found: GhostRow[] = [];
  for await (const row of readGhost(input)) found.push(row);
  return found;
}

describe("the Ghost export reader", () => {
  it("hands over each row of the tables the import needs, in file order, and nothing else", async () => {
    const found = await rows(createReadStream(FIXTURE));
    expect(found.map((row) => `${row.table}:${String(row.row.id)}`)).toEqual([
      ...["p1", "p2", "p3", "p4", "p5", "p6", "p7"].map((id) => `posts:${id}`),
      ...["pa1", "pa2", "pa3", "pa4", "pa5"].map((id) => `posts_authors:${id}`),
      "posts_meta:m1",
      "posts_meta:m4",
      ...["pt1", "pt2", "pt3", "pt4", "pt5"].map((id) => `posts_tags:${id}`),
      "settings:undefined",
      "tags:t1",
      "tags:t2",
      "tags:t3",
      "users:a1",
      "users:a2",
    ]);
    expect(found[0]!.row).toMatchObject({ title: "Why Gold Still Matters", feature_image: "__GHOST_URL__/content/images/2026/03/cover.jpg", html: expect.stringContaining("<figcaption>Bars in a vault.</figcaption>") });
  });

  it("reads the same rows whatever the chunks", async () => {
    const whole = await rows(createReadStream(FIXTURE));
    const bytes = readFileSync(FIXTURE);
    for (const size of [1, 13, 500]) {
      const pieces: Buffer[] = [];
      for (let start = 0; start < bytes.length; start += size) pieces.push(bytes.subarray(start, start + size));
      expect(await rows(Readable.from(pieces))).toEqual(whole);
    }
  });

  it("refuses a file that is not a Ghost export, or not JSON, saying why", async () => {
    await expect(rows(Readable.from(['{"posts": []}']))).rejects.toThrow(/not a Ghost export/);
    await expect(rows(Readable.from(['{"db": [{"data": {"posts": [{"id": 1,']))).rejects.toBeInstanceOf(GhostError);
    await expect(rows(Readable.from(["<rss></rss>"]))).rejects.toThrow(/not valid JSON/);
  });
});

describe("the dry run of a Ghost import", () => {
  it("keeps members-only posts as drafts and skips posts sent by e-mail only", () => {
    expect(ghostStatusOf({ status: "published", visibility: "public" })).toEqual({ status: "published" });
    expect(ghostStatusOf({ status: "published", visibility: "members" })).toMatchObject({ status: "draft" });
    expect(ghostStatusOf({ status: "scheduled", visibility: "public" })).toEqual({ status: "scheduled" });
    expect(ghostStatusOf({ status: "sent", visibility: "public" })).toHaveProperty("skip");
  });

  it("says what an import of the fixture would do", async () => {
    const run = await dryRunGhost(createReadStream(FIXTURE));
    expect(run.site.title).toBe("Liberty Ledger");
    expect(run.articles).toEqual({ published: 2, scheduled: 1, draft: 2 });
    expect(run.authors).toEqual([
      { login: "john", email: "john.hancock@example.com", displayName: "John Hancock", posts: 2 },
      { login: "mercy", email: "mercy.warren@example.com", displayName: "Mercy Otis Warren", posts: 1 },
    ]);
    expect(run.categories).toEqual([
      { slug: "gold", name: "Gold & Silver", posts: 2 },
      { slug: "bonds", name: "Bonds", posts: 1 },
      { slug: "", name: "(no primary tag)", posts: 2 },
    ]);
    expect(run.featuredImages).toEqual({ found: 1, missing: 0 });
    expect(run.imagesInBodies).toBe(3);
    expect(run.seo).toEqual({ titles: 1, descriptions: 1 });
    expect(run.oldUrls).toBe(5);
    expect(run.lines.map((line) => `${line.item} | ${line.oldUrl} | ${line.outcome} | ${line.reason}`)).toEqual([
      "Treasury Ladders | /treasury-ladders/ | converted with loss | embedded frames (iframe) left out",
      "Members Outlook | /members-outlook/ | converted with loss | for paying members in Ghost: imported as a draft, not published",
      "Newsletter Only | /newsletter-only/ | skipped | sent by e-mail only in Ghost, never on the web",
      "A Draft in Lexical | /draft-lexical/ | converted with loss | the body is only in Ghost’s editor format (no HTML in the export): not converted",
      "About | /about/ | skipped | a Ghost page, not a post: this site’s own pages (about, privacy, terms) take their place",
      "Silver Notes | /silver-notes/ | converted with loss | gallery cards converted as their images only",
    ]);
  });
});
