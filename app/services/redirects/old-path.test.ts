import { describe, expect, it } from "vitest";
import { REDIRECT_REFUSALS as R } from "~/lib/redirect-texts";
import { isOwnPath, normalizeOldPath, parseOldPath, parseTarget, requestKeys, sourceAsTargetPath, targetKeys } from "./old-path";

describe("normalizeOldPath", () => {
  it("keeps the path of a path or a full URL, without trailing slashes, case as given", () => {
    expect(normalizeOldPath("/2019/05/my-post/")).toBe("/2019/05/my-post");
    expect(normalizeOldPath("  /2019/05/My-Post  ")).toBe("/2019/05/My-Post");
    expect(normalizeOldPath("https://old.example/2019/05/my-post/")).toBe("/2019/05/my-post");
    expect(normalizeOldPath("HTTP://old.example/x//")).toBe("/x");
    expect(normalizeOldPath("//old.example/x/")).toBe("/x");
    expect(normalizeOldPath("/x/#comments")).toBe("/x");
  });

  it("decodes escapes, so the encoded and the plain form are one", () => {
    expect(normalizeOldPath("/caf%C3%A9/")).toBe("/café");
    expect(normalizeOldPath("/café")).toBe("/café");
    expect(normalizeOldPath("https://old.example/café/")).toBe("/café");
    expect(normalizeOldPath("/a%20b")).toBe("/a b");
  });

  it("keeps one WordPress single-key query and drops any other", () => {
    expect(normalizeOldPath("/?p=123")).toBe("/?p=123");
    expect(normalizeOldPath("https://old.example/?page_id=7")).toBe("/?page_id=7");
    expect(normalizeOldPath("/index.php?p=9")).toBe("/index.php?p=9");
    expect(normalizeOldPath("/old/?cat=4")).toBe("/old?cat=4");
    expect(normalizeOldPath("/?tag=caf%C3%A9")).toBe("/?tag=café");
    for (const key of ["author", "feed"]) expect(normalizeOldPath(`/?${key}=x`)).toBe(`/?${key}=x`);
    expect(normalizeOldPath("/old-post/?utm_source=x")).toBe("/old-post");
    expect(normalizeOldPath("/old-post?p=1&utm_source=x")).toBe("/old-post");
    expect(normalizeOldPath("/old-post?p=")).toBe("/old-post");
  });

  it("refuses empty input, broken escapes, things that are no path, the home page and this site's own addresses, saying why", () => {
    expect(parseOldPath("  ")).toEqual({ ok: false, reason: R.empty });
    expect(parseOldPath("/caf%C3")).toEqual({ ok: false, reason: R.badEncoding });
    expect(parseOldPath("old-post")).toEqual({ ok: false, reason: R.notAPath });
    expect(parseOldPath("ftp://old.example/x")).toEqual({ ok: false, reason: R.notAPath });
    expect(parseOldPath("/%2F%2Fevil.example")).toEqual({ ok: false, reason: R.notAPath });
    expect(parseOldPath(`/${"x".repeat(2_001)}`)).toEqual({ ok: false, reason: R.tooLong });
    expect(parseOldPath("/")).toEqual({ ok: false, reason: R.home });
    expect(parseOldPath("https://old.example/?utm_source=x")).toEqual({ ok: false, reason: R.home });
    for (const own of ["/admin", "/Admin/redirects", "/api/auth/x", "/articles/some-slug", "/assets/app.js", "/auth", "/authors/jane", "/about/", "/blog", "/blog/2024/05", "/opt-in", "/rss.xml", "/rss/bonds.xml", "/media/x.jpg", "/l/AbCd234", "/home.data", "/healthz", "/sitemap.xml"]) {
      expect(normalizeOldPath(own), own).toBeNull();
    }
    expect(parseOldPath("/articles/x")).toEqual({ ok: false, reason: R.ownPage("/articles/x") });
    // Not this site's: an old blog's posts and category pages.
    for (const old of ["/blog/my-post", "/blog/category/news", "/category/news", "/2019/05/my-post", "/administrator-tips"]) expect(normalizeOldPath(old), old).toBe(old);
    expect(isOwnPath("/aboutx")).toBe(false);
  });
});

describe("the request's keys", () => {
  it("meet the stored forms: with and without trailing slash, encoded or not, the WordPress query first", () => {
    expect(requestKeys("/2019/05/my-post/")).toEqual({ withQuery: null, path: "/2019/05/my-post" });
    expect(requestKeys("/caf%C3%A9")).toEqual({ withQuery: null, path: "/café" });
    expect(requestKeys("/?p=123")).toEqual({ withQuery: "/?p=123", path: "/" });
    expect(requestKeys("/old?utm_source=x")).toEqual({ withQuery: null, path: "/old" });
    expect(requestKeys("/%E0%A4%A")).toBeNull();
    expect(requestKeys("http://x/y")).toBeNull();
  });
});

describe("parseTarget", () => {
  it("takes a path of this site, stored encoded as Location carries it", () => {
    expect(parseTarget(" /articles/my-post/ ")).toEqual({ ok: true, target: "/articles/my-post" });
    expect(parseTarget("/articles/café")).toEqual({ ok: true, target: "/articles/caf%C3%A9" });
    expect(parseTarget("/articles/caf%c3%a9")).toEqual({ ok: true, target: "/articles/caf%C3%A9" });
    expect(parseTarget("/blog?category=bonds")).toEqual({ ok: true, target: "/blog?category=bonds" });
    expect(parseTarget("/")).toEqual({ ok: true, target: "/" });
  });

  it("refuses other sites, schemes and anything that is not one path", () => {
    expect(parseTarget("")).toEqual({ ok: false, reason: R.targetEmpty });
    for (const foreign of ["https://evil.example/x", "//evil.example/x", "/\\evil.example", "javascript:alert(1)", "articles/x", "/a b", "/x\ty"]) {
      expect(parseTarget(foreign), foreign).toEqual({ ok: false, reason: R.targetNotHere });
    }
  });

  it("names the keys a target would be looked up under, and a source as a target names it", () => {
    expect(targetKeys("/old?p=1")).toEqual(["/old?p=1", "/old"]);
    expect(targetKeys("/old?x=1#top")).toEqual(["/old"]);
    expect(targetKeys("/caf%C3%A9")).toEqual(["/café"]);
    expect(sourceAsTargetPath("/café?p=1")).toBe("/caf%C3%A9");
  });
});
