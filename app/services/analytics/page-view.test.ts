import { describe, expect, it } from "vitest";
import { isPrefetch, viewTarget } from "./page-view";

const HTML = "text/html; charset=utf-8";
const view = (url: string, { method = "GET", status = 200, type = HTML, headers = {} as Record<string, string> } = {}) => viewTarget(method, status, type, url, headers);

describe("what counts as a page view", () => {
  it("is a GET of an HTML document answered 200, or 304 (a revalidated copy opened again)", () => {
    expect(view("/articles/bonds-guide")).toEqual({ path: "/articles/bonds-guide", query: "" });
    expect(view("/opt-in?f_name=Betsy&sub2=c1")).toEqual({ path: "/opt-in", query: "f_name=Betsy&sub2=c1" });
    expect(view("/about", { status: 304 })).toEqual({ path: "/about", query: "" });
  });

  it("is never a HEAD, another method, another status or another type", () => {
    expect(view("/about", { method: "HEAD" })).toBeUndefined();
    expect(view("/home", { method: "POST" })).toBeUndefined();
    expect(view("/nothing", { status: 404 })).toBeUndefined();
    expect(view("/articles/gone", { status: 410 })).toBeUndefined();
    expect(view("/about", { status: 302 })).toBeUndefined();
    expect(view("/assets/app-1234.js", { type: "text/javascript" })).toBeUndefined();
    expect(view("/rss.xml", { type: "application/rss+xml" })).toBeUndefined();
    expect(view("/media/abc.webp", { type: "image/webp" })).toBeUndefined();
  });

  it("leaves out staff, preview, API, setup and private share paths", () => {
    for (const path of ["/admin", "/admin/subscribers", "/api/phone-optin", "/preview/articles/1", "/setup", "/consent-certificates/tok3n", "/healthz"]) {
      expect(view(path), path).toBeUndefined();
    }
    expect(view("/administration-guide")).toEqual({ path: "/administration-guide", query: "" });
  });

  it("counts a client-side navigation (.data) as a view of its page, not a revalidation", () => {
    const data = "text/x-script";
    expect(view("/blog.data", { type: data, headers: { referer: "https://example.com/home" } })).toEqual({ path: "/blog", query: "" });
    expect(view("/_root.data", { type: data, headers: { referer: "https://example.com/blog" } })).toEqual({ path: "/", query: "" });
    // A navigation that keeps a parent's data names the routes it loads: still a navigation.
    expect(view("/blog.data?_routes=routes/site-layout,routes/blog", { type: data, headers: { referer: "https://example.com/home" } })).toEqual({ path: "/blog", query: "" });
    expect(view("/blog.data?category=gold&_routes=routes/blog", { type: data, headers: { referer: "https://example.com/blog" } })).toEqual({ path: "/blog", query: "category=gold" });
    // After a form on the page was sent, React Router fetches that page's data again: no view.
    expect(view("/home.data", { type: data, headers: { referer: "https://example.com/home" } })).toBeUndefined();
    expect(view("/home.data?_routes=root,routes/home", { type: data, headers: { referer: "https://example.com/home" } })).toBeUndefined();
    expect(view("/blog.data?category=gold", { type: data, headers: { referer: "https://example.com/blog?category=gold" } })).toBeUndefined();
    expect(view("/_root.data", { type: data, headers: { referer: "https://example.com/" } })).toBeUndefined();
    expect(view("/admin.data", { type: data })).toBeUndefined();
    expect(view("/blog.data", { type: data, status: 304 })).toBeUndefined();
  });

  it("recognises prefetches and prerenders by Sec-Purpose, Purpose, X-Purpose and X-Moz", () => {
    expect(isPrefetch({ "sec-purpose": "prefetch" })).toBe(true);
    expect(isPrefetch({ "sec-purpose": "prefetch;prerender" })).toBe(true);
    expect(isPrefetch({ purpose: "prefetch" })).toBe(true);
    expect(isPrefetch({ "x-purpose": "preview" })).toBe(true);
    expect(isPrefetch({ "x-moz": "prefetch" })).toBe(true);
    expect(isPrefetch({ "sec-fetch-mode": "navigate" })).toBe(false);
  });
});
