import { sql } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import { findUrls } from "~/lib/short-links";
import { startSmtpCapture } from "../support/smtp-capture";
import { createPostgresDatabase } from "../support/test-db";
import { createAdmin, signIn } from "./support/admin-session";
import { openSiteDatabase } from "./support/inspect";
import { BUILD_SITE_URL, freePort, startSite, type SiteProcess } from "./support/site";
import { waitFor } from "./support/traffic";

const ADDRESS = "1776 Liberty Way, Philadelphia, PA 19106";
const ADMIN = { email: "postal-address@patriotinvestor.example", password: "Yorktown-1781-Surrender" };
const READERS = ["ada@example.com", "bea@example.com", "cy@example.com", "dot@example.com"];
const SUBJECT = "Held Until The Address Is Set";

const cleanups: (() => Promise<void> | void)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

const hrefs = (html: string) => [...html.matchAll(/href="(https?:\/\/[^"]+)"/g)].map((match) => match[1]!.replaceAll("&amp;", "&"));

/**
 * An issue scheduled while the server has its postal address; the server is restarted without
 * it before the issue's time comes. CAN-SPAM wants the address in every copy: nothing may go out,
 * the issue's page must say why, and the issue must go out, every copy with the address, once a
 * server with the address runs. The links of the copies that went out are then followed over HTTP.
 */
describe("a newsletter issue and SITE_POSTAL_ADDRESS", () => {
  it("is held while the server runs without the address and sent, with it, after a restart that sets it", async () => {
    const smtpPort = await freePort();
    const sink = await startSmtpCapture({ smtpPort, httpPort: await freePort() });
    cleanups.push(sink.close);
    const database = await createPostgresDatabase();
    cleanups.push(database.drop);
    const base = { DATABASE_URL: database.url, SMTP_URL: `smtp://127.0.0.1:${smtpPort}`, NEWSLETTER_RATE: "50", LOG_LEVEL: "info" };
    const withAddress = { ...base, SITE_POSTAL_ADDRESS: ADDRESS };
    // Empty is "not set" (as a `.env` line `SITE_POSTAL_ADDRESS=` reads), whatever the machine has.
    const withoutAddress = { ...base, SITE_POSTAL_ADDRESS: "" };
    let site: SiteProcess = await startSite(withAddress);
    cleanups.push(() => void site.kill9());
    createAdmin({ DATABASE_URL: database.url }, ADMIN);
    const handle = await openSiteDatabase({ url: database.url });
    cleanups.push(() => handle.close());
    for (const email of READERS) {
      await handle.db.execute(sql`
        INSERT INTO subscribers (channel, email, first_name, last_name, status, source, email_token, confirmed_at)
        VALUES ('email', ${email}, 'Reader', 'Postal', 'active', 'newsletter', md5(random()::text) || md5(${email}), now())`);
    }

    // Written and scheduled on the admin page, for an hour from now, while the address is set.
    let cookie = await signIn(site.url, ADMIN);
    const post = (path: string, form: Record<string, string>) =>
      fetch(`${site.url}${path}`, { method: "POST", headers: { Cookie: cookie, Origin: site.url, "Content-Type": "application/x-www-form-urlencoded" }, body: new URLSearchParams(form), redirect: "manual" });
    const created = await post("/admin/newsletter", {
      intent: "create",
      subject: SUBJECT,
      previewText: "What the Fed did",
      introMarkdown: "## This week\n\nRead [the Fed's statement](https://www.federalreserve.gov/newsevents/pressreleases.htm?year=2026&kind=monetary).",
    });
    expect(created.status, await created.clone().text()).toBe(302);
    const issuePath = created.headers.get("location")!;
    expect(issuePath).toMatch(/^\/admin\/newsletter\/\d+$/);
    const inAnHour = new Date(Date.now() + 3_600_000).toISOString().slice(0, 16);
    const scheduled = await post(issuePath, { intent: "schedule", sendAt: inAnHour, zone: "UTC" });
    expect(scheduled.status).toBe(200);
    expect(await scheduled.text()).toContain("The issue goes out at");
    expect(await site.stop()).toBe(0);

    // The server comes back without the address, and the issue's time comes.
    await handle.db.execute(sql`UPDATE campaigns SET scheduled_at = now() WHERE channel = 'email'`);
    site = await startSite(withoutAddress);
    cookie = await signIn(site.url, ADMIN);
    await waitFor("the hold in the log", async () => site.output().includes("newsletter held"), 15_000);
    // Several engine passes later: still nothing sent, still not started, and the page says why.
    await new Promise((resolve) => setTimeout(resolve, 3000));
    expect(sink.mails.filter((mail) => mail.subject === SUBJECT)).toHaveLength(0);
    const status = await handle.db.execute<{ status: string }>(sql`SELECT status FROM campaigns WHERE channel = 'email'`);
    expect(status.rows[0]?.status).toBe("scheduled");
    const page = await (await fetch(`${site.url}${issuePath}`, { headers: { Cookie: cookie } })).text();
    expect(page).toContain("Held: No Postal Address");
    expect(page).toMatch(/Status: (<!-- -->)?Held/);
    const held = site
      .output()
      .split("\n")
      .filter((line) => line.includes("newsletter held"))
      .map((line) => JSON.parse(line) as { level: number; reason: string });
    expect(held).toEqual([expect.objectContaining({ level: 40, reason: "postal_address_missing" })]);
    expect(await site.stop()).toBe(0);

    // Restarted with the address: the issue goes out on its own, every copy carrying the address.
    site = await startSite(withAddress);
    await waitFor(
      "the issue completed",
      async () => (await handle.db.execute<{ status: string }>(sql`SELECT status FROM campaigns WHERE channel = 'email'`)).rows[0]?.status === "completed",
      60_000,
    );
    const copies = sink.mails.filter((mail) => mail.subject === SUBJECT);
    expect(copies.map((mail) => mail.to[0]).sort()).toEqual([...READERS].sort());
    for (const copy of copies) {
      expect(copy.plain).toContain(ADDRESS);
      expect(copy.html).toContain(ADDRESS);
      expect(copy.plain).not.toContain("postal address not set");
    }

    // Every link of both parts answers 302 to the same places (the site's links lead to this server).
    const [copy] = copies;
    const follow = async (url: string) => {
      if (!url.startsWith(`${BUILD_SITE_URL}/l/`)) return url;
      const response = await fetch(url.replace(BUILD_SITE_URL, site.url), { redirect: "manual" });
      expect(response.status, url).toBe(302);
      return response.headers.get("location")!;
    };
    const htmlTargets = await Promise.all(hrefs(copy!.html!).map(follow));
    const textTargets = await Promise.all(findUrls(copy!.plain!).map(follow));
    expect(new Set(textTargets)).toEqual(new Set(htmlTargets));
    expect(htmlTargets).toContain("https://www.federalreserve.gov/newsevents/pressreleases.htm?year=2026&kind=monetary");
    expect(htmlTargets).toContain(BUILD_SITE_URL);
    expect(await site.stop()).toBe(0);
  });
});
