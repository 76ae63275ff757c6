import { request as httpRequest } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPostgresDatabase } from "../support/test-db";
import { createAdmin, signIn } from "./support/admin-session";
import { openSiteDatabase, rows } from "./support/inspect";
import { startSite, type SiteProcess } from "./support/site";

const CHROME = "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36";
const GOOGLEBOT = "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)";
const TEMPLATE = "https://sponsor.example/guide?aff=77&s1={sub1}&s2={sub2}&src={utm_source}&cmp={utm_campaign}";

/** A browser's request from a client address the trusted proxy hop reports. */
function browser(userAgent: string, ip: string, extra: Record<string, string> = {}) {
  return { "User-Agent": userAgent, "Accept-Language": "en-US,en;q=0.9", "Sec-Fetch-Mode": "navigate", "Sec-Fetch-Dest": "document", "X-Forwarded-For": ip, ...extra };
}

/** A click over plain HTTP: fetch() would replace the browser's `Sec-Fetch-Mode: navigate` with its own. */
function click(site: SiteProcess, headers: Record<string, string>, method = "GET") {
  return new Promise<{ status: number; headers: { get: (name: string) => string | undefined } }>((resolve, reject) => {
    const request = httpRequest(`${site.url}/go/offer`, { method, headers }, (response) => {
      response.resume();
      response.on("end", () => resolve({ status: response.statusCode ?? 0, headers: { get: (name) => response.headers[name] as string | undefined } }));
    });
    request.on("error", reject);
    request.end();
  });
}

type OfferRow = { channel: string; utm_source: string; sub1: string; machine: string; clicks: string | number };

describe("the sponsor's offer through the first-party redirect", () => {
  let database: Awaited<ReturnType<typeof createPostgresDatabase>>;
  let site: SiteProcess;
  const admin = { email: "offer-admin@patriotinvestor.example", password: "Lexington-Green-1775!" };

  beforeAll(async () => {
    database = await createPostgresDatabase();
    createAdmin({ DATABASE_URL: database.url }, admin);
    site = await startSite({ DATABASE_URL: database.url, OFFER_URL: TEMPLATE });
  }, 120_000);
  afterAll(async () => {
    await site?.stop();
    await database?.drop();
  });

  it("sends a visit of /gold?sub1=A&utm_source=B to the filled template, counts it under sub1 A, and a bot's click only as excluded", async () => {
    // /gold's buttons lead to the redirect, their Referer sent to this site only.
    const gold = await fetch(`${site.url}/gold?sub1=A&utm_source=B`, { headers: browser(CHROME, "203.0.113.9") });
    expect(gold.status).toBe(200);
    const html = await gold.text();
    expect(html).toContain('href="/go/offer" target="_blank" rel="sponsored noopener"');
    expect(html).not.toContain("sponsor.example");

    const page = `${site.url}/gold?sub1=A&utm_source=B`;
    const person = await click(site, browser(CHROME, "203.0.113.9", { Referer: page }));
    expect(person.status).toBe(302);
    expect(person.headers.get("location")).toBe("https://sponsor.example/guide?aff=77&s1=A&s2=&src=b&cmp=");
    // The sponsor is told nothing of the page the click came from.
    expect(person.headers.get("referrer-policy")).toBe("no-referrer");
    expect(person.headers.get("cache-control")).toBe("private, no-store");

    // The same visitor without a Referer: the visit's entry of the day (/gold?sub1=A…) fills it.
    const again = await click(site, browser(CHROME, "203.0.113.40"));
    expect(again.headers.get("location")).toBe("https://sponsor.example/guide?aff=77&s1=A&s2=&src=b&cmp=");

    // A crawler and a link checker go where a person goes, and are counted apart.
    expect((await click(site, browser(GOOGLEBOT, "66.249.66.1", { Referer: page }))).status).toBe(302);
    expect((await click(site, browser(CHROME, "198.51.100.7", { Referer: page }), "HEAD")).status).toBe(302);
    // Only GET and HEAD.
    expect((await click(site, browser(CHROME, "198.51.100.7"), "POST")).status).toBe(405);

    const handle = await openSiteDatabase({ url: database.url });
    let found: OfferRow[] = [];
    try {
      // Each click is added after its redirect was sent.
      for (let tries = 0; tries < 50; tries++) {
        found = await rows<OfferRow>(handle, "SELECT channel, utm_source, sub1, machine, clicks FROM offer_clicks ORDER BY machine, channel");
        if (found.reduce((sum, row) => sum + Number(row.clicks), 0) >= 4) break;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    } finally {
      await handle.close();
    }
    expect(found.map((row) => ({ ...row, clicks: Number(row.clicks) }))).toEqual([
      { channel: "paid", utm_source: "b", sub1: "A", machine: "", clicks: 2 },
      { channel: "paid", utm_source: "b", sub1: "A", machine: "bot-list", clicks: 1 },
      { channel: "paid", utm_source: "b", sub1: "A", machine: "head", clicks: 1 },
    ]);

    // On /admin/analytics and in its CSV files, people beside the excluded.
    const cookie = await signIn(site.url, admin);
    const dashboard = await (await fetch(`${site.url}/admin/analytics`, { headers: { Cookie: cookie } })).text();
    expect(dashboard).toContain("Offer clicks by sub-id");
    const csv = async (table: string) => (await (await fetch(`${site.url}/admin/analytics.csv?table=${table}`, { headers: { Cookie: cookie } })).text()).split("\r\n");
    expect(await csv("offerClicksBySubId")).toContain("sub1=A,2,2");
    expect(await csv("offerClicksBySource")).toContain("Paid,b,,,2,2");
    expect(await csv("offerClicksExcluded")).toEqual(expect.arrayContaining(["Known bot or crawler,1", "Checked the link without opening it (HEAD),1"]));
  });
});
