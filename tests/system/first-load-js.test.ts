import { mkdtempSync, rmSync } from "node:fs";
import { request } from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { analyze, FIRST_LOAD_BUDGET_BYTES } from "../../scripts/bench/first-load-js.mjs";
import { startSite, type SiteProcess } from "./support/site";

/**
 * The first-load JavaScript budget (docs/benchmarks.md, decision 148), counted on the production
 * build exactly as scripts/bench/jsbytes.mjs counts it (the same code): every public page that
 * hydrates at most 120 KB gzip -9, and the content pages none at all.
 */
const HYDRATING_PAGES: { url: string; host?: string; title: RegExp }[] = [
  // `/` is the home page on a main domain and the opt-in page on any other host.
  { url: "/", host: "localhost", title: /Conservative Market Insight/ },
  { url: "/", host: "ads.example", title: /Free SMS Market Alerts/ },
  { url: "/home", title: /Conservative Market Insight/ },
  { url: "/opt-in", title: /Free SMS Market Alerts/ },
  { url: "/opt-in?f_name=Betsy&l_name=Ross&phone=2124561776&sub2=click-42", title: /Free SMS Market Alerts/ },
  { url: "/contact", title: /Contact/ },
  { url: "/auth", title: /Sign In/ },
  { url: "/auth/forgot", title: /Reset Your Password/ },
  { url: "/auth/reset?token=abc", title: /Choose a New Password/ },
  { url: "/auth/two-factor", title: /Two-Factor Sign-In/ },
  { url: "/no-such-page", title: /Page Not Found/ },
];

const CONTENT_PAGES = [
  "/about",
  "/blog",
  "/blog?category=precious-metals",
  "/privacy",
  "/terms",
  "/disclaimer",
  "/gold",
  "/articles/bonds-guide",
  "/articles/generational-wealth",
  "/authors/michael-harrington",
  "/search?q=gold",
];

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

/** The page's HTML as a browser on `host` gets it (fetch cannot set Host). */
function getHtml(base: string, url: string, host: string) {
  return new Promise<string>((resolve, reject) => {
    const target = new URL(base);
    const req = request({ host: target.hostname, port: target.port, path: url, headers: { host } }, (res) => {
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (chunk: string) => (body += chunk));
      res.on("end", () => resolve(body));
    });
    req.on("error", reject);
    req.end();
  });
}

describe("first-load JavaScript of the public pages", () => {
  let site: SiteProcess;
  const dataDir = mkdtempSync(path.join(tmpdir(), "first-load-js-"));

  beforeAll(async () => {
    site = await startSite({ DATA_DIR: dataDir });
  });

  afterAll(async () => {
    await site?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const cases = HYDRATING_PAGES.map((page) => ({ ...page, name: page.host ? `${page.url} on ${page.host}` : page.url }));
  it.each(cases)("$name loads at most 120 KB gzip -9", async ({ url, host, title }) => {
    const html = await getHtml(site.url, url, host ?? new URL(site.url).host);
    expect(/<title>([^<]*)<\/title>/.exec(html)?.[1]).toMatch(title);
    const page = await analyze(`${site.url}${url}`, html);
    const files = [...page.list].map(([file, size]) => `${new URL(file).pathname} ${kb(size.gz)}`).join(", ");
    // A page that hydrates loads at least React Router's boot module: none means the count broke.
    expect(page.files, files).toBeGreaterThan(0);
    expect(page.gz, `${url}: ${kb(page.gz)} in ${page.files} files (${files})`).toBeLessThanOrEqual(FIRST_LOAD_BUDGET_BYTES);
  });

  it.each(CONTENT_PAGES)("%s loads no JavaScript", async (url) => {
    const page = await analyze(`${site.url}${url}`);
    expect([...page.list.keys()]).toEqual([]);
    // An error page would hydrate (and so load JavaScript): this is the page itself.
    expect(page.html).toBeGreaterThan(5_000);
  });
});
