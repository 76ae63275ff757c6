import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { nuErrors } from "../support/nu-check";
import { createPostgresDatabase } from "../support/test-db";
import { createAdmin, signIn } from "./support/admin-session";
import { openSiteDatabase, rows } from "./support/inspect";
import { startSite, type SiteProcess } from "./support/site";

const CHROME = "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36";

/** What Chrome sends with a navigation, from a client address the trusted proxy hop reports. */
function visit(site: SiteProcess, path: string, { ip = "203.0.113.9", method = "GET", headers = {} as Record<string, string> } = {}) {
  return fetch(`${site.url}${path}`, {
    method,
    redirect: "manual",
    headers: {
      "User-Agent": CHROME,
      "Accept-Language": "en-US,en;q=0.9",
      "Sec-Fetch-Mode": "navigate",
      "Sec-Fetch-Dest": "document",
      "X-Forwarded-For": ip,
      ...headers,
    },
  }).then(async (response) => {
    await response.arrayBuffer();
    return response.status;
  });
}

/** The element that starts at `start` in `html`, up to its own closing tag (sections nest: the last 30 minutes is one). */
function sectionAt(html: string, start: number) {
  const tags = /<section\b|<\/section>/g;
  tags.lastIndex = start;
  let depth = 0;
  for (let tag = tags.exec(html); tag; tag = tags.exec(html)) {
    depth += tag[0] === "</section>" ? -1 : 1;
    if (depth === 0) return html.slice(start, tags.lastIndex);
  }
  return undefined;
}

async function daily(url: string) {
  const handle = await openSiteDatabase({ url });
  try {
    const found = await rows<{ dimension: string; value: string; views: string; visitors: string }>(
      handle,
      "SELECT dimension, value, sum(views)::text AS views, sum(visitors)::text AS visitors FROM analytics_daily GROUP BY dimension, value",
    );
    return Object.fromEntries(found.map((row) => [`${row.dimension}:${row.value}`, [Number(row.views), Number(row.visitors)]]));
  } finally {
    await handle.close();
  }
}

/** Every view in the minute rollups (decision 156): none is older than an hour in this run. */
async function minuteViews(url: string) {
  const handle = await openSiteDatabase({ url });
  try {
    const [row] = await rows<{ views: string | null }>(handle, "SELECT sum(views)::text AS views FROM analytics_minutes");
    return Number(row?.views ?? 0);
  } finally {
    await handle.close();
  }
}

describe("page views counted by the server processes", () => {
  let database: Awaited<ReturnType<typeof createPostgresDatabase>>;

  beforeAll(async () => {
    database = await createPostgresDatabase();
  });
  afterAll(async () => {
    await database?.drop();
  });

  it("counts the pages answered from memory, from the page store and by the router, and writes them at a graceful stop", async () => {
    // An hour between flushes: only the stop writes what is counted.
    const site = await startSite({ DATABASE_URL: database.url, ANALYTICS_FLUSH_SECONDS: "3600" });
    try {
      expect(await visit(site, "/about")).toBe(200); // a prerendered page, from memory
      expect(await visit(site, "/opt-in?f_name=Betsy&sub2=cl1ck-9&utm_source=fb&utm_medium=cpc&utm_campaign=spring")).toBe(200); // the prefilled template
      expect(await visit(site, "/articles/bonds-guide", { headers: { Referer: "https://www.google.com/" } })).toBe(200); // rendered on first request, kept
      expect(await visit(site, "/articles/bonds-guide", { ip: "198.51.100.4" })).toBe(200); // now from memory
      expect(await visit(site, "/about?utm_source=newsletter&utm_medium=email")).toBe(200); // a query string: the router renders it
      const etag = (await fetch(`${site.url}/about`, { method: "HEAD" })).headers.get("etag")!;
      expect(await visit(site, "/about", { headers: { "If-None-Match": etag } })).toBe(304); // opened again from the browser's cache
      // Not views: HEAD, a prefetch, a crawler, an asset, a missing page, the admin.
      expect(await visit(site, "/about", { method: "HEAD" })).toBe(200);
      expect(await visit(site, "/blog", { headers: { "Sec-Purpose": "prefetch" } })).toBe(200);
      expect(await visit(site, "/blog", { headers: { "User-Agent": "curl/8.5.0" } })).toBe(200);
      expect(await visit(site, "/robots.txt")).toBe(200);
      expect(await visit(site, "/no-such-page")).toBe(404);
      expect(await visit(site, "/admin")).toBe(302);
    } finally {
      expect(await site.stop()).toBe(0);
    }
    expect(await daily(database.url)).toMatchObject({
      "all:": [6, 2],
      "path:/about": [3, 1],
      "path:/opt-in": [1, 1],
      "path:/articles/bonds-guide": [2, 2],
      "channel:paid": [1, 0],
      "channel:search": [1, 0],
      "channel:email": [1, 0],
      "channel:direct": [3, 0],
      "sub2:cl1ck-9": [1, 0],
      "excluded:prefetch": [1, 0],
      "excluded:bot-list": [1, 0],
    });
    const paths = Object.keys(await daily(database.url)).filter((key) => key.startsWith("path:"));
    expect(paths.sort()).toEqual(["path:/about", "path:/articles/bonds-guide", "path:/opt-in"]);
  });

  it("adds up two processes, and a kill -9 loses at most the counts of one flush interval", async () => {
    const before = (await daily(database.url))["all:"]![0]!;
    const env = { DATABASE_URL: database.url, ANALYTICS_FLUSH_SECONDS: "1" };
    const [a, b] = await Promise.all([startSite(env), startSite(env)]);
    try {
      for (let i = 0; i < 10; i++) expect(await visit(i % 2 ? a : b, "/about", { ip: `198.18.0.${i}` })).toBe(200);
      // Two intervals: both processes have flushed those ten.
      await new Promise((resolve) => setTimeout(resolve, 2_500));
      for (let i = 0; i < 5; i++) expect(await visit(a, "/about", { ip: `198.18.1.${i}` })).toBe(200);
      await a.kill9();
    } finally {
      await b.stop();
      await a.kill9();
    }
    const after = (await daily(database.url))["all:"]![0]!;
    expect(after - before).toBeGreaterThanOrEqual(10);
    expect(after - before).toBeLessThanOrEqual(15);
    // The minutes add up across the processes, in the same flushes as the days.
    expect(await minuteViews(database.url)).toBe(after);
  });

  it("with ANALYTICS=off answers every page, from memory, the page store and the router, and counts none", async () => {
    const before = (await daily(database.url))["all:"]![0]!;
    const site = await startSite({ DATABASE_URL: database.url, ANALYTICS: "off", ANALYTICS_FLUSH_SECONDS: "1" });
    try {
      // A signal as a timeout: a page never answered fails here, not at the suite's limit.
      const answered = (path: string) => visit(site, path, { headers: {} }).then((status) => [path, status]);
      for (const path of ["/about", "/articles/generational-wealth", "/authors/michael-harrington", "/about?utm_source=x"]) {
        expect(await Promise.race([answered(path), new Promise((resolve) => setTimeout(() => resolve([path, "no answer in 15 s"]), 15_000))])).toEqual([path, 200]);
      }
      await new Promise((resolve) => setTimeout(resolve, 1_500));
    } finally {
      await site.stop();
    }
    expect((await daily(database.url))["all:"]![0]!).toBe(before);
  });

  it("shows the figures to staff at /admin/analytics in valid HTML, each table with its CSV file", async () => {
    const admin = { email: "analytics-admin@patriotinvestor.example", password: "Concord-Bridge-1775!" };
    createAdmin({ DATABASE_URL: database.url }, admin);
    const site = await startSite({ DATABASE_URL: database.url });
    try {
      const cookie = await signIn(site.url, admin);
      const response = await fetch(`${site.url}/admin/analytics`, { headers: { Cookie: cookie } });
      expect(response.status).toBe(200);
      const html = await response.text();
      expect(html).toContain("What this page cannot see");
      expect(html).toContain('role="img"');
      expect(html).toContain("/admin/analytics.csv?table=excluded");
      // The last 30 minutes, readable without JavaScript and reloaded by a plain link (decision 156).
      expect(html).toContain("Last 30 minutes");
      expect(html).toContain('data-testid="analytics-live-chart"');
      expect(html).toMatch(/<a href="\/admin\/analytics\?from=[\d-]+&amp;to=[\d-]+#analytics-live-heading"/);
      // The page's own markup, in a minimal document (the signed-in top bar around it is the
      // layout's, checked where the layout is).
      const section = sectionAt(html, html.indexOf('<section aria-labelledby="analytics-heading">'));
      expect(section).toBeDefined();
      expect(await nuErrors(`<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>Analytics</title></head><body><main>${section}</main></body></html>`)).toEqual([]);
      const csv = await fetch(`${site.url}/admin/analytics.csv?table=pages`, { headers: { Cookie: cookie } });
      expect(csv.status).toBe(200);
      expect((await csv.text()).split("\r\n")[0]).toBe("Page,Page views,Daily unique visitors (average)");
      // The admin's own visit to the page is not a page view.
      await site.stop();
      expect(Object.keys(await daily(database.url)).some((key) => key.includes("/admin"))).toBe(false);
    } finally {
      await site.stop();
    }
  });
});
