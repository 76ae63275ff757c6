import { describe, expect, it } from "vitest";
import {
  feedTargetFor,
  ghostArchivePaths,
  ghostPostPaths,
  normalizeOldPath,
  searchTarget,
  wordpressArchivePaths,
  wordpressAttachmentPath,
  wordpressNicename,
  wordpressPostPaths,
} from "./old-urls";
import type { WxrAuthor, WxrItem, WxrSite, WxrTerm } from "./wxr-reader.server";

const site = (home: string): WxrSite => ({ title: "Liberty Ledger", link: home, baseSiteUrl: home, baseBlogUrl: home, wxrVersion: "1.2" });
const ROOT = site("https://old.example.test");
const FOLDER = site("https://old.example.test/blog");

const item = (fields: Partial<WxrItem>): WxrItem => ({
  id: "12",
  type: "post",
  status: "publish",
  title: "Gold in March",
  link: "",
  guid: "",
  slug: "gold-in-march",
  creator: "jhancock",
  contentHtml: "",
  excerptHtml: "",
  postDateGmt: "2024-03-05 14:00:00",
  modifiedDateGmt: "2024-03-06 09:00:00",
  parentId: "0",
  attachmentUrl: "",
  terms: [],
  meta: {},
  ...fields,
});

const category = (slug: string, name: string, id: string, parent = ""): WxrTerm => ({ kind: "category", slug, name, parent, id, description: "" });
const tag = (slug: string, name: string, id: string): WxrTerm => ({ kind: "tag", slug, name, parent: "", id, description: "" });
const author = (login: string, id: string): WxrAuthor => ({ login, id, email: `${login}@example.com`, displayName: login, firstName: "", lastName: "" });

describe("normalizeOldPath", () => {
  it("drops the scheme, host, fragment and trailing slash, keeping the root as /", () => {
    expect(normalizeOldPath("https://old.example.test/2024/03/05/gold/#comments")).toBe("/2024/03/05/gold");
    expect(normalizeOldPath("//old.example.test/gold/")).toBe("/gold");
    expect(normalizeOldPath("/gold")).toBe("/gold");
    expect(normalizeOldPath("https://old.example.test")).toBe("/");
    expect(normalizeOldPath("https://old.example.test/")).toBe("/");
    expect(normalizeOldPath("")).toBe("/");
  });

  it("collapses empty segments and resolves dot segments", () => {
    expect(normalizeOldPath("/a//b///")).toBe("/a/b");
    expect(normalizeOldPath("/a/./b/../c/")).toBe("/a/c");
    expect(normalizeOldPath("/a/%2e%2e/c")).toBe("/c");
  });

  it("writes percent-encoding one way: capital hex, non-ASCII encoded, unreserved and sub-delimiters literal", () => {
    // WordPress stores a non-ASCII slug encoded in lower case; browsers send capitals or raw UTF-8.
    expect(normalizeOldPath("/%d0%b7%d0%be%d0%bb%d0%be%d1%82%d0%be/")).toBe("/%D0%B7%D0%BE%D0%BB%D0%BE%D1%82%D0%BE");
    expect(normalizeOldPath("/золото")).toBe("/%D0%B7%D0%BE%D0%BB%D0%BE%D1%82%D0%BE");
    expect(normalizeOldPath("/caf%C3%A9")).toBe("/caf%C3%A9");
    expect(normalizeOldPath("/caf%c3%a9")).toBe("/caf%C3%A9");
    expect(normalizeOldPath("/café")).toBe("/caf%C3%A9");
    expect(normalizeOldPath("/%67old-%7e")).toBe("/gold-~");
    expect(normalizeOldPath("/a%20b c")).toBe("/a%20b%20c");
    expect(normalizeOldPath("/it's(1)+@:,;=!$*&")).toBe("/it's(1)+@:,;=!$*&");
  });

  it("keeps an encoded slash, question mark or percent sign inside a segment encoded", () => {
    expect(normalizeOldPath("/a%2Fb")).toBe("/a%2Fb");
    expect(normalizeOldPath("/a%2fb")).toBe("/a%2Fb");
    expect(normalizeOldPath("/100%25-gold")).toBe("/100%25-gold");
    expect(normalizeOldPath("/what%3f")).toBe("/what%3F");
  });

  it("keeps bytes that are not UTF-8 as they are (a Latin-1 slug)", () => {
    expect(normalizeOldPath("/caf%e9")).toBe("/caf%E9");
    expect(normalizeOldPath("/100%-gold")).toBe("/100%25-gold");
  });

  it("is idempotent", () => {
    for (const path of ["/%d0%b7/", "/a b/é?p=3&utm_source=x#y", "/it's", "/?s=gold+%26+silver", "/caf%e9"]) {
      const once = normalizeOldPath(path)!;
      expect(normalizeOldPath(once)).toBe(once);
    }
  });

  it("keeps only WordPress's query variables that name a page, sorted, the last of a repeated one", () => {
    expect(normalizeOldPath("/?p=123")).toBe("/?p=123");
    expect(normalizeOldPath("/?utm_source=news&p=123&fbclid=x")).toBe("/?p=123");
    expect(normalizeOldPath("/?feed=rss2&cat=3")).toBe("/?cat=3&feed=rss2");
    expect(normalizeOldPath("/?p=1&p=2")).toBe("/?p=2");
    expect(normalizeOldPath("/gold/?replytocom=5")).toBe("/gold");
    expect(normalizeOldPath("/?p=")).toBe("/");
    expect(normalizeOldPath("/?cat=3&paged=2")).toBe("/?cat=3");
    expect(normalizeOldPath("/?s=gold+%26+silver")).toBe("/?s=gold%20%26%20silver");
    expect(normalizeOldPath("/?P=3")).toBe("/");
  });

  it("reads `/index.php?p=` as WordPress does, and keeps index.php inside a path", () => {
    expect(normalizeOldPath("/index.php?p=12")).toBe("/?p=12");
    expect(normalizeOldPath("/blog/index.php?p=12")).toBe("/blog?p=12");
    expect(normalizeOldPath("/index.php/2024/03/gold/")).toBe("/index.php/2024/03/gold");
  });

  it("keeps letter case", () => {
    expect(normalizeOldPath("/wp-content/uploads/2024/03/Photo.JPG")).toBe("/wp-content/uploads/2024/03/Photo.JPG");
  });

  it("says null for what is not an address", () => {
    expect(normalizeOldPath("http://[bad/")).toBeNull();
  });
});

describe("wordpressPostPaths", () => {
  it("gives the permalink of a date structure and ?p=<id>", () => {
    expect(wordpressPostPaths(ROOT, item({ link: "https://old.example.test/2024/03/05/gold-in-march/" }))).toEqual(["/2024/03/05/gold-in-march", "/?p=12"]);
  });

  it("follows whatever structure the link has", () => {
    expect(wordpressPostPaths(ROOT, item({ link: "https://old.example.test/gold-in-march/" }))).toEqual(["/gold-in-march", "/?p=12"]);
    expect(wordpressPostPaths(ROOT, item({ link: "https://old.example.test/precious-metals/gold-in-march/" }))).toEqual(["/precious-metals/gold-in-march", "/?p=12"]);
    expect(wordpressPostPaths(ROOT, item({ link: "https://old.example.test/archives/12" }))).toEqual(["/archives/12", "/?p=12"]);
    expect(wordpressPostPaths(ROOT, item({ link: "https://old.example.test/index.php/2024/03/gold-in-march/" }))).toEqual(["/index.php/2024/03/gold-in-march", "/?p=12"]);
  });

  it("gives one path for a post with plain permalinks (its link is ?p=)", () => {
    expect(wordpressPostPaths(ROOT, item({ link: "https://old.example.test/?p=12" }))).toEqual(["/?p=12"]);
  });

  it("keeps the folder of a site installed in one, for the permalink and ?p=", () => {
    expect(wordpressPostPaths(FOLDER, item({ link: "https://old.example.test/blog/2024/03/gold-in-march/" }))).toEqual(["/blog/2024/03/gold-in-march", "/blog?p=12"]);
  });

  it("normalizes a percent-encoded slug", () => {
    expect(wordpressPostPaths(ROOT, item({ id: "7", link: "https://old.example.test/%d0%b7%d0%be%d0%bb%d0%be%d1%82%d0%be/" }))).toEqual(["/%D0%B7%D0%BE%D0%BB%D0%BE%D1%82%D0%BE", "/?p=7"]);
  });

  it("adds a guid of the ?p= form on the same host when it differs, whatever its scheme or www", () => {
    const moved = item({ link: "https://old.example.test/gold-in-march/", guid: "http://www.old.example.test/?p=4567" });
    expect(wordpressPostPaths(ROOT, moved)).toEqual(["/gold-in-march", "/?p=12", "/?p=4567"]);
    expect(wordpressPostPaths(ROOT, item({ link: "https://old.example.test/gold-in-march/", guid: "https://old.example.test/?p=12" }))).toEqual(["/gold-in-march", "/?p=12"]);
  });

  it("leaves out a guid on another host or not of the ?p= form", () => {
    expect(wordpressPostPaths(ROOT, item({ link: "https://old.example.test/gold/", guid: "https://elsewhere.example/?p=99" }))).toEqual(["/gold", "/?p=12"]);
    expect(wordpressPostPaths(ROOT, item({ link: "https://old.example.test/gold/", guid: "https://old.example.test/gold/" }))).toEqual(["/gold", "/?p=12"]);
    expect(wordpressPostPaths(ROOT, item({ link: "https://old.example.test/gold/", guid: "urn:uuid:1234" }))).toEqual(["/gold", "/?p=12"]);
  });

  it("adds ?page_id= for a page and ?attachment_id= for an attachment", () => {
    expect(wordpressPostPaths(ROOT, item({ id: "2", type: "page", link: "https://old.example.test/about/", guid: "https://old.example.test/?page_id=2" }))).toEqual(["/about", "/?p=2", "/?page_id=2"]);
    expect(wordpressPostPaths(ROOT, item({ id: "45", type: "attachment", link: "https://old.example.test/?attachment_id=45" }))).toEqual(["/?attachment_id=45", "/?p=45"]);
  });

  it("gives only ?p= when the link is missing or unreadable", () => {
    expect(wordpressPostPaths(ROOT, item({ link: "" }))).toEqual(["/?p=12"]);
    expect(wordpressPostPaths(ROOT, item({ link: "http://[bad" }))).toEqual(["/?p=12"]);
  });

  it("drops tracking from a link and keeps none of its fragment", () => {
    expect(wordpressPostPaths(ROOT, item({ link: "https://old.example.test/gold/?utm_source=feed#more-12" }))).toEqual(["/gold", "/?p=12"]);
  });
});

describe("wordpressAttachmentPath", () => {
  it("sends an attachment's page to its parent's article", () => {
    const photo = item({ id: "45", type: "attachment", parentId: "12", link: "https://old.example.test/2024/03/05/gold-in-march/bar-photo/" });
    expect(wordpressAttachmentPath(ROOT, photo, "/articles/gold-in-march")).toEqual([
      { path: "/2024/03/05/gold-in-march/bar-photo", target: "/articles/gold-in-march" },
      { path: "/?p=45", target: "/articles/gold-in-march" },
      { path: "/?attachment_id=45", target: "/articles/gold-in-march" },
    ]);
  });

  it("gives nothing without a parent here, without a parent at all, or for another type", () => {
    const photo = item({ id: "45", type: "attachment", parentId: "12", link: "https://old.example.test/bar-photo/" });
    expect(wordpressAttachmentPath(ROOT, photo, null)).toEqual([]);
    expect(wordpressAttachmentPath(ROOT, { ...photo, parentId: "0" }, "/articles/x")).toEqual([]);
    expect(wordpressAttachmentPath(ROOT, { ...photo, type: "post" }, "/articles/x")).toEqual([]);
  });
});

describe("feedTargetFor and searchTarget", () => {
  it("gives a category list its feed, anything else the site's", () => {
    expect(feedTargetFor("/blog?category=precious-metals")).toBe("/rss/precious-metals.xml");
    expect(feedTargetFor("/blog")).toBe("/rss.xml");
    expect(feedTargetFor("/search?q=gold")).toBe("/rss.xml");
  });

  it("searches a tag's name", () => {
    expect(searchTarget("Gold & Silver")).toBe("/search?q=Gold+%26+Silver");
  });
});

describe("wordpressNicename", () => {
  it("makes the author page's slug from a login as WordPress does", () => {
    expect(wordpressNicename("jhancock")).toBe("jhancock");
    expect(wordpressNicename("John.Hancock")).toBe("john-hancock");
    expect(wordpressNicename("mercy@warren.example")).toBe("mercywarren-example");
    expect(wordpressNicename("  two  words ")).toBe("two-words");
    expect(wordpressNicename("josé")).toBe("jos%c3%a9");
  });
});

describe("wordpressArchivePaths", () => {
  const mapping = {
    categoryTarget: (slug: string) => (slug === "gold" || slug === "bullion" ? "/blog?category=precious-metals" : "/blog"),
    authorTarget: (login: string) => (login === "jhancock" ? "/authors/john-hancock" : null),
  };
  const content = {
    categories: [category("gold", "Gold & Silver", "3"), category("bullion", "Bullion", "8", "gold"), category("news", "News", "5")],
    tags: [tag("fed", "Federal Reserve", "20"), tag("%d0%b7%d0%be%d0%bb%d0%be%d1%82%d0%be", "золото", "21")],
    authors: [author("jhancock", "1"), author("ghost.writer", "2")],
    months: ["2024-03", "2023-12", "2024-01", "2024-03", "nonsense"],
  };
  const table = (redirects: { path: string; target: string }[]) => Object.fromEntries(redirects.map((redirect) => [redirect.path, redirect.target]));
  const all = table(wordpressArchivePaths(ROOT, content, mapping));

  it("sends category archives, nested ones both ways, and ?cat= to the mapped list", () => {
    expect(all["/category/gold"]).toBe("/blog?category=precious-metals");
    expect(all["/category/gold/bullion"]).toBe("/blog?category=precious-metals");
    expect(all["/category/bullion"]).toBe("/blog?category=precious-metals");
    expect(all["/category/news"]).toBe("/blog");
    expect(all["/?cat=3"]).toBe("/blog?category=precious-metals");
    expect(all["/?cat=5"]).toBe("/blog");
  });

  it("sends category feeds to the category's feed, in every form WordPress answers", () => {
    for (const suffix of ["feed", "feed/rss2", "feed/atom", "rss2", "atom"]) expect(all[`/category/gold/${suffix}`]).toBe("/rss/precious-metals.xml");
    expect(all["/category/gold/bullion/feed"]).toBe("/rss/precious-metals.xml");
    expect(all["/category/news/feed"]).toBe("/rss.xml");
    expect(all["/?cat=3&feed=rss2"]).toBe("/rss/precious-metals.xml");
  });

  it("sends tags to a search for their name, and tag feeds to the site's feed", () => {
    expect(all["/tag/fed"]).toBe("/search?q=Federal+Reserve");
    expect(all["/?tag=fed"]).toBe("/search?q=Federal+Reserve");
    expect(all["/tag/fed/feed"]).toBe("/rss.xml");
    expect(all["/tag/%D0%B7%D0%BE%D0%BB%D0%BE%D1%82%D0%BE"]).toBe(`/search?q=${encodeURIComponent("золото")}`);
  });

  it("sends an author's page to theirs here and leaves out an author without one", () => {
    expect(all["/author/jhancock"]).toBe("/authors/john-hancock");
    expect(all["/?author=1"]).toBe("/authors/john-hancock");
    expect(all["/?author_name=jhancock"]).toBe("/authors/john-hancock");
    expect(all["/author/jhancock/feed"]).toBe("/rss.xml");
    expect(all["/author/ghost-writer"]).toBeUndefined();
    expect(all["/?author=2"]).toBeUndefined();
  });

  it("gives the author page under the nicename and the login when they differ", () => {
    const dotted = table(wordpressArchivePaths(ROOT, { categories: [], tags: [], authors: [author("John.Hancock", "9")] }, { ...mapping, authorTarget: () => "/authors/john-hancock" }));
    expect(dotted["/author/john-hancock"]).toBe("/authors/john-hancock");
    expect(dotted["/author/John.Hancock"]).toBe("/authors/john-hancock");
  });

  it("sends the site's feeds to /rss.xml and leaves the comments' feeds out", () => {
    for (const path of ["/feed", "/feed/rss2", "/feed/atom", "/rss2", "/atom", "/rdf", "/?feed=rss2", "/?feed=atom"]) expect(all[path]).toBe("/rss.xml");
    expect(all["/comments/feed"]).toBeUndefined();
  });

  it("sends date archives to the month here, a year to its latest month", () => {
    expect(all["/2024/03"]).toBe("/blog/2024/03");
    expect(all["/date/2024/03"]).toBe("/blog/2024/03");
    expect(all["/2024/01"]).toBe("/blog/2024/01");
    expect(all["/2024"]).toBe("/blog/2024/03");
    expect(all["/2023"]).toBe("/blog/2023/12");
    expect(all["/?m=202401"]).toBe("/blog/2024/01");
    expect(all["/?m=2024"]).toBe("/blog/2024/03");
    expect(all["/2024/02"]).toBeUndefined();
  });

  it("lists each path once", () => {
    const paths = wordpressArchivePaths(ROOT, content, mapping).map((redirect) => redirect.path);
    expect(new Set(paths).size).toBe(paths.length);
  });

  it("puts every path under a site's folder", () => {
    const inFolder = wordpressArchivePaths(FOLDER, content, mapping);
    expect(inFolder.every((redirect) => redirect.path.startsWith("/blog/") || redirect.path.startsWith("/blog?"))).toBe(true);
    const byPath = table(inFolder);
    expect(byPath["/blog/category/gold"]).toBe("/blog?category=precious-metals");
    expect(byPath["/blog?cat=3"]).toBe("/blog?category=precious-metals");
    expect(byPath["/blog/feed"]).toBe("/rss.xml");
    expect(byPath["/blog/date/2024/03"]).toBe("/blog/2024/03");
    // The old month page was where ours is: a redirect to itself would loop.
    expect(byPath["/blog/2024/03"]).toBeUndefined();
    expect(byPath["/blog/2024"]).toBe("/blog/2024/03");
    expect(byPath["/category/gold"]).toBeUndefined();
  });

  it("adds the archives under the permalinks' front and custom bases when given", () => {
    const front = table(wordpressArchivePaths(ROOT, content, mapping, { front: "/archives/", categoryBase: "topics", tagBase: "/keywords/" }));
    expect(front["/topics/gold"]).toBe("/blog?category=precious-metals");
    expect(front["/archives/topics/gold"]).toBe("/blog?category=precious-metals");
    expect(front["/keywords/fed"]).toBe("/search?q=Federal+Reserve");
    expect(front["/archives/author/jhancock"]).toBe("/authors/john-hancock");
    expect(front["/archives/date/2024/03"]).toBe("/blog/2024/03");
    expect(front["/category/gold"]).toBeUndefined();
  });

  it("survives a category that is its own ancestor", () => {
    const loop = wordpressArchivePaths(ROOT, { categories: [category("a", "A", "1", "b"), category("b", "B", "2", "a")], tags: [], authors: [] }, mapping);
    expect(table(loop)["/category/b/a"]).toBe("/blog");
  });
});

describe("ghostPostPaths", () => {
  it("gives /<slug>/, its AMP copy and the preview link", () => {
    expect(ghostPostPaths("https://ghost.example.test", { slug: "gold-in-march", uuid: "6f1c0a55-7d2e-4c8b-9b1a-0e5f3c2d1a00" })).toEqual(["/gold-in-march", "/gold-in-march/amp", "/p/6f1c0a55-7d2e-4c8b-9b1a-0e5f3c2d1a00"]);
  });

  it("keeps the folder of a site in one and normalizes the slug", () => {
    expect(ghostPostPaths("https://example.test/news/", { slug: "caf%c3%a9" })).toEqual(["/news/caf%C3%A9", "/news/caf%C3%A9/amp"]);
  });

  it("gives nothing for a row without a slug or uuid", () => {
    expect(ghostPostPaths("https://ghost.example.test", { slug: null, uuid: 3 })).toEqual([]);
  });
});

describe("ghostArchivePaths", () => {
  const mapping = { tagTarget: (slug: string) => (slug === "gold" ? "/blog?category=precious-metals" : null), authorTarget: (slug: string) => (slug === "mercy" ? "/authors/mercy-warren" : null) };
  const redirects = ghostArchivePaths(
    "https://ghost.example.test",
    {
      tags: [
        { slug: "gold", name: "Gold", visibility: "public" },
        { slug: "fed", name: "Federal Reserve", visibility: "public" },
        { slug: "hash-featured", name: "#featured", visibility: "internal" },
      ],
      authors: [{ slug: "mercy", name: "Mercy Warren" }, { slug: "nobody", name: "Nobody" }],
    },
    mapping,
  );
  const byPath = Object.fromEntries(redirects.map((redirect) => [redirect.path, redirect.target]));

  it("sends a mapped tag to its category and its feed to the category's feed", () => {
    expect(byPath["/tag/gold"]).toBe("/blog?category=precious-metals");
    expect(byPath["/tag/gold/rss"]).toBe("/rss/precious-metals.xml");
  });

  it("sends an unmapped tag to a search for its name and its feed to the site's", () => {
    expect(byPath["/tag/fed"]).toBe("/search?q=Federal+Reserve");
    expect(byPath["/tag/fed/rss"]).toBe("/rss.xml");
  });

  it("leaves internal tags and authors without a page here out", () => {
    expect(byPath["/tag/hash-featured"]).toBeUndefined();
    expect(byPath["/author/nobody"]).toBeUndefined();
  });

  it("sends authors, their feeds and the site's feed", () => {
    expect(byPath["/author/mercy"]).toBe("/authors/mercy-warren");
    expect(byPath["/author/mercy/rss"]).toBe("/rss.xml");
    expect(byPath["/rss"]).toBe("/rss.xml");
    expect(redirects).toHaveLength(7);
  });
});
