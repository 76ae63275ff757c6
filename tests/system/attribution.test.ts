import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPostgresDatabase } from "../support/test-db";
import { createAdmin, signIn } from "./support/admin-session";
import { openSiteDatabase, rows } from "./support/inspect";
import { startSite, type SiteProcess } from "./support/site";
import { mobileNumber } from "./support/traffic";

const CHROME = "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36";
const IPHONE = "Mozilla/5.0 (iPhone; CPU iPhone OS 18_2 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.2 Mobile/15E148 Safari/604.1";

/** A browser's request from a client address the trusted proxy hop reports. */
function browser(userAgent: string, ip: string, extra: Record<string, string> = {}) {
  return { "User-Agent": userAgent, "Accept-Language": "en-US,en;q=0.9", "Sec-Fetch-Mode": "navigate", "Sec-Fetch-Dest": "document", "X-Forwarded-For": ip, ...extra };
}

async function get(site: SiteProcess, path: string, headers: Record<string, string>) {
  const response = await fetch(`${site.url}${path}`, { headers, redirect: "manual" });
  await response.arrayBuffer();
  return response.status;
}

type AttributionRow = { channel: string; basis: string; form_path: string; entry_path: string; visit_channel: string; referrer: string; utm_source: string; utm_campaign: string; sub2: string };

describe("subscriptions attributed to the visit they came from", () => {
  let database: Awaited<ReturnType<typeof createPostgresDatabase>>;
  let site: SiteProcess;
  const admin = { email: "attribution-admin@patriotinvestor.example", password: "Lexington-Green-1775!" };

  beforeAll(async () => {
    database = await createPostgresDatabase();
    createAdmin({ DATABASE_URL: database.url }, admin);
    site = await startSite({ DATABASE_URL: database.url });
  }, 120_000);
  afterAll(async () => {
    await site?.stop();
    await database?.drop();
  });

  it("files an ad opt-in under its sub2 and a search reader's newsletter sign-up under the article and channel search", async () => {
    // An ad click lands on the opt-in page; the page's script posts the form with the page as Referer.
    const landing = "/opt-in?f_name=Betsy&sub2=X-1775&utm_source=newsmax&utm_medium=cpc&utm_campaign=fall";
    expect(await get(site, landing, browser(IPHONE, "203.0.113.9", { Referer: "https://www.newsmax.com/" }))).toBe(200);
    const optIn = await fetch(`${site.url}/api/phone-optin`, {
      method: "POST",
      headers: { ...browser(IPHONE, "203.0.113.9", { Referer: `${site.url}${landing}` }), "Content-Type": "application/json" },
      body: JSON.stringify({ firstName: "Betsy", lastName: "Ross", phone: mobileNumber(177_501), clickId: "X-1775", smsConsent: true, termsConsent: true }),
    });
    expect(optIn.status).toBe(200);

    // A reader comes from Google to an article, follows its newsletter button to the form on /home
    // and signs up there: the form's page is /home, the visit's entry the article.
    expect(await get(site, "/articles/bonds-guide", browser(CHROME, "198.51.100.4", { Referer: "https://www.google.com/" }))).toBe(200);
    expect(await get(site, "/home", browser(CHROME, "198.51.100.4", { Referer: `${site.url}/articles/bonds-guide` }))).toBe(200);
    const signUp = await fetch(`${site.url}/home`, {
      method: "POST",
      headers: { ...browser(CHROME, "198.51.100.4", { Referer: `${site.url}/home` }), "Content-Type": "application/x-www-form-urlencoded", Accept: "text/html" },
      body: new URLSearchParams({ firstName: "Abigail", lastName: "Adams", email: "abigail.adams@example.com", phone: "(212) 456-3001", termsConsent: "on" }),
      redirect: "manual",
    });
    expect(signUp.status).toBe(200);

    const handle = await openSiteDatabase({ url: database.url });
    try {
      const found = await rows<AttributionRow>(
        handle,
        "SELECT channel, basis, form_path, entry_path, visit_channel, referrer, utm_source, utm_campaign, sub2 FROM subscription_attributions ORDER BY id",
      );
      expect(found).toEqual([
        { channel: "sms", basis: "form", form_path: "/opt-in", entry_path: "/opt-in", visit_channel: "paid", referrer: "newsmax.com", utm_source: "newsmax", utm_campaign: "fall", sub2: "X-1775" },
        { channel: "email", basis: "visit", form_path: "/home", entry_path: "/articles/bonds-guide", visit_channel: "search", referrer: "google.com", utm_source: "", utm_campaign: "", sub2: "" },
      ]);
    } finally {
      await handle.close();
    }

    // The staff see them on /admin/analytics and in its CSV files.
    const cookie = await signIn(site.url, admin);
    const page = await fetch(`${site.url}/admin/analytics`, { headers: { Cookie: cookie } });
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain("Sign-ups by sub-id");
    expect(html).toContain("sub2=X-1775");
    const csv = async (table: string) => (await (await fetch(`${site.url}/admin/analytics.csv?table=${table}`, { headers: { Cookie: cookie } })).text()).split("\r\n");
    expect(await csv("signUpsBySubId")).toContain("sub2=X-1775,SMS,1,1,0,0,0,0,0");
    expect(await csv("signUpsByPage")).toEqual(expect.arrayContaining(["/opt-in,SMS,1,1,0,0,0,0,0", "/home,E-mail,1,0,0,0,0,0,0"]));
    expect(await csv("signUpsByEntry")).toEqual(expect.arrayContaining(["/opt-in,SMS,1,1,0,0,0,0,0", "/articles/bonds-guide,E-mail,1,0,0,0,0,0,0"]));
    expect(await csv("signUpsBySource")).toEqual(expect.arrayContaining(["Paid,newsmax,cpc,fall,SMS,1,1,0,0,0,0,0", "Search,,,,E-mail,1,0,0,0,0,0,0"]));
  });
});
