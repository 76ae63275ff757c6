import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { request } from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
import zlib from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { contentSecurityPolicy, inlineScriptHashes } from "~/http/csp";
import { BUILD_SITE_URL, startSite, TEST_AUTH_SECRET, type SiteProcess } from "./support/site";

const ROOT = path.resolve(import.meta.dirname, "../..");
const MAIN_HOST = "localhost";
const OPT_IN_HOST = "ads.example";

/**
 * Pages answered from memory (server/pages.ts) must be exactly what React renders for the same
 * address and Host: the same bytes (but the per-response nonce), so no visitor, crawler or
 * hydration can tell them apart. The reference render runs the same production build through
 * React Router in a separate process (server/prerender-views.ts renderPage).
 */
const CASES: { name: string; url: string; host?: string; notHtml?: boolean }[] = [
  { name: "ordinary prefill", url: "/opt-in?sub2=click-42&f_name=Betsy&l_name=Ross&phone=2124561776" },
  { name: "quotes and ampersands", url: `/opt-in?f_name=${encodeURIComponent(`O'Brien "Bud"`)}&l_name=${encodeURIComponent("Smith & Sons &amp;")}&phone=+1+(212)` },
  {
    name: "markup",
    url: `/opt-in?f_name=${encodeURIComponent("<script>alert(1)</script>")}&l_name=${encodeURIComponent(`"><img src=x onerror=alert(1)>`)}&sub2=${encodeURIComponent("</textarea><svg onload=alert(1)>")}`,
  },
  { name: "very long values", url: `/opt-in?f_name=${"A".repeat(5_000)}&l_name=${encodeURIComponent("🇺🇸".repeat(60))}&phone=${"9".repeat(300)}` },
  { name: "invalid UTF-8 and NUL", url: "/opt-in?f_name=%FF%FE&l_name=%C3%28%ED%A0%80&phone=%00555%00&sub2=%E2%82" },
  { name: "repeated and encoded names", url: "/opt-in?f_name=Jos%C3%A9&f_name=second&phone=%2B1%20212&sub2=a%26b%3Dc" },
  { name: "no prefill", url: "/opt-in?utm_source=facebook&smsConsent=on" },
  { name: "home by Host", url: "/", host: MAIN_HOST },
  { name: "home with a tracking query", url: "/?utm_source=newsletter", host: MAIN_HOST },
  { name: "opt-in by Host", url: "/", host: OPT_IN_HOST },
  { name: "opt-in by Host, prefilled", url: `/?f_name=${encodeURIComponent("<b>Bold</b>")}&sub2=x%22y`, host: OPT_IN_HOST },
  { name: "blog category", url: "/blog?category=precious-metals" },
  { name: "blog category, encoded", url: "/blog?category=bonds%2Dfixed-income&utm_medium=social" },
  // Live pages: rendered from the database at start and on every change (server/live-pages.ts).
  { name: "live article", url: "/articles/precious-metals-guide" },
  { name: "live article data", url: "/articles/precious-metals-guide.data", notHtml: true },
  { name: "live blog", url: "/blog" },
  { name: "live home", url: "/home" },
  { name: "live home with an ad's tracking query", url: "/home?utm_source=facebook&utm_medium=paid&fbclid=IwAR0abc&sub2=c1" },
  { name: "live home data", url: "/home.data", notHtml: true },
  { name: "live author", url: "/authors/michael-harrington" },
  { name: "live RSS", url: "/rss.xml", notHtml: true },
  { name: "live sitemap", url: "/sitemap.xml", notHtml: true },
];

/** What the hostile values would inject if they were written in unescaped. */
const MARKUP = ["<script>alert(1)", "<img src=x onerror", "<svg onload", "<b>Bold</b>"];

type Answer = { status: number; headers: Record<string, string | string[] | undefined>; body: Buffer };

/** A raw GET (the path goes out byte for byte, as a browser or a bot may send it). */
function get(base: string, url: string, headers: Record<string, string>) {
  return new Promise<Answer>((resolve, reject) => {
    const target = new URL(base);
    const req = request({ host: target.hostname, port: target.port, path: url, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (chunk: Buffer) => chunks.push(chunk));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on("error", reject);
    });
    req.on("error", reject);
    req.end();
  });
}

function decoded(answer: Answer) {
  const encoding = answer.headers["content-encoding"];
  if (encoding === "gzip") return zlib.gunzipSync(answer.body);
  if (encoding === "br") return zlib.brotliDecompressSync(answer.body);
  return answer.body;
}

/** The reference: React Router's render of each case, in a process of its own. */
function renderWithReact(dataDir: string) {
  const script = `
    const { renderPage } = await import("./build/server/index.js");
    const cases = JSON.parse(process.argv[1]);
    const out = [];
    for (const { url, host } of cases) {
      const response = await renderPage(url, host);
      out.push({ status: response.status, html: await response.text() });
    }
    process.stdout.write(JSON.stringify(out), () => process.exit(0));`;
  const result = spawnSync(process.execPath, ["--input-type=module", "-e", script, JSON.stringify(CASES.map((c) => ({ url: c.url, host: c.host ?? MAIN_HOST })))], {
    cwd: ROOT,
    encoding: "utf8",
    maxBuffer: 64 * 1024 * 1024,
    env: { ...process.env, NODE_ENV: "production", SITE_URL: BUILD_SITE_URL, MAIN_DOMAINS: MAIN_HOST, DATA_DIR: dataDir, LOG_LEVEL: "error", AUTH_SECRET: TEST_AUTH_SECRET },
  });
  if (result.status !== 0) throw new Error(`the reference render failed:\n${result.stderr}`);
  return JSON.parse(result.stdout) as { status: number; html: string }[];
}

/**
 * Rendered pages carry a fresh nonce per response, React Router's prerendered ones the one of the
 * build, pages rendered to be kept in memory none (their policy lists hashes).
 */
const withoutNonces = (html: string) => html.replaceAll(/ nonce="[^"]*"/g, "");

describe("pages answered from memory", () => {
  let site: SiteProcess;
  let reference: { status: number; html: string }[];
  const dirs = [mkdtempSync(path.join(tmpdir(), "memory-pages-site-")), mkdtempSync(path.join(tmpdir(), "memory-pages-render-"))];

  beforeAll(async () => {
    site = await startSite({ DATA_DIR: dirs[0]! });
    reference = renderWithReact(dirs[1]!);
  });

  afterAll(async () => {
    await site?.stop();
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  it.each(CASES.map((c, index) => [c.name, c, index] as const))("%s: the same document as React's render", async (_name, c, index) => {
    const expected = reference[index]!;
    for (const encoding of ["identity", "gzip", "gzip, deflate, br, zstd"]) {
      const answer = await get(site.url, c.url, { Host: c.host ?? MAIN_HOST, "Accept-Encoding": encoding });
      expect(answer.status).toBe(expected.status);
      const html = decoded(answer).toString("utf8");
      expect(withoutNonces(html)).toBe(withoutNonces(expected.html));
      // The policy allows exactly the inline scripts of what was sent.
      if (!c.notHtml) expect(answer.headers["content-security-policy"]).toBe(contentSecurityPolicy(inlineScriptHashes(html)));
      // Answered from memory: the router's answers carry a request id.
      expect(answer.headers["x-request-id"], c.url).toBeUndefined();
      for (const markup of MARKUP) expect(html).not.toContain(markup);
    }
  });

  it.each(["crypto", "", "Precious-Metals"])("answers the category %j with the not-found page, not the list", async (category) => {
    const answer = await get(site.url, `/blog?category=${category}`, { Host: MAIN_HOST });
    expect(answer.status).toBe(404);
    expect(answer.body.toString("utf8")).toContain("Oops! Page not found");
    expect(answer.body.toString("utf8")).not.toContain("Latest Articles");
  });
});
