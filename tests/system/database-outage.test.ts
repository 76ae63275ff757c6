import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { REFUSALS } from "~/http/refusals";
import { openSiteDatabase, smsRecordsByPhone } from "./support/inspect";
import { startPrivatePostgres } from "./support/private-postgres";
import { BUILD_SITE_URL, startSite, type SiteProcess } from "./support/site";
import { mobileNumber, postOptIn, randomClientIp, toE164, waitFor } from "./support/traffic";

/**
 * PostgreSQL stops under traffic: the site keeps running, answers 503 with a clear message (no
 * 500, no stack trace), and recovers by itself when the database is back.
 */
describe("PostgreSQL stopped during traffic", () => {
  let postgres: Awaited<ReturnType<typeof startPrivatePostgres>>;
  let site: SiteProcess;
  let databaseUrl: string;

  beforeAll(async () => {
    postgres = await startPrivatePostgres();
    const admin = new pg.Client({ connectionString: postgres.url });
    await admin.connect();
    await admin.query("CREATE DATABASE site");
    await admin.end();
    databaseUrl = postgres.url.replace(/\/postgres$/, "/site");
    site = await startSite({ DATABASE_URL: databaseUrl });
  });

  afterAll(async () => {
    await site?.stop();
    postgres?.remove();
  });

  const newsletterPost = () =>
    fetch(`${site.url}/home`, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded", Accept: "text/html", "X-Forwarded-For": randomClientIp() },
      body: new URLSearchParams({ firstName: "Ada", lastName: "Outage", email: `outage-${Date.now()}-${Math.random()}@example.com`, phone: mobileNumber(600_000 + Math.floor(Math.random() * 100_000)), termsConsent: "on" }),
      redirect: "manual",
    });
  const signIn = () =>
    fetch(`${site.url}/api/auth/sign-in/email`, {
      method: "POST",
      headers: { "Content-Type": "application/json", Origin: BUILD_SITE_URL, "X-Forwarded-For": randomClientIp() },
      body: JSON.stringify({ email: "nobody@example.com", password: "not-the-password" }),
    });

  it("answers 503 while the database is down, never 500, and recovers without a restart", async () => {
    const statuses = new Map<number, number>();
    const answered: string[] = [];
    let stopTraffic = false;
    let n = 0;
    const traffic = (async () => {
      while (!stopTraffic) {
        const phone = mobileNumber(500_000 + n++);
        const result = await postOptIn(site.url, phone);
        if (result.status) statuses.set(result.status, (statuses.get(result.status) ?? 0) + 1);
        if (result.outcome === "ok") answered.push(toE164(phone));
        if (result.status === 503) expect((result.body as { error?: string }).error).toBe(REFUSALS.databaseUnavailable);
      }
    })();

    await waitFor("opt-ins before the outage", async () => answered.length >= 20);
    await postgres.stop();

    // JSON endpoint: 503, the message, a Retry-After.
    const optIn = await fetch(`${site.url}/api/phone-optin`, {
      method: "POST",
      headers: { "Content-Type": "application/json", "X-Forwarded-For": randomClientIp() },
      body: JSON.stringify({ firstName: "Ada", lastName: "Outage", phone: mobileNumber(900_001), smsConsent: true, termsConsent: true }),
    });
    expect(optIn.status).toBe(503);
    expect(optIn.headers.get("retry-after")).toMatch(/^\d+$/);
    expect(await optIn.json()).toEqual({ success: false, dnc: false, error: REFUSALS.databaseUnavailable });

    // A form posted without JavaScript: a readable 503 page, no stack trace.
    const form = await newsletterPost();
    expect(form.status).toBe(503);
    const page = await form.text();
    expect(page).toContain(REFUSALS.databaseUnavailable);
    expect(page).not.toMatch(/\bat .*\(.*:\d+:\d+\)|ECONNREFUSED|Error:/);

    // better-auth's endpoints behave the same.
    const auth = await signIn();
    expect(auth.status).toBe(503);
    expect(await auth.text()).not.toMatch(/ECONNREFUSED|stack/);

    // The process is up; it is just not ready.
    expect((await fetch(`${site.url}/healthz`)).status).toBe(200);
    expect((await fetch(`${site.url}/readyz`)).status).toBe(503);
    expect((await fetch(`${site.url}/about`)).status).toBe(200);

    await postgres.start();
    await waitFor("readiness after the database returned", async () => (await fetch(`${site.url}/readyz`)).ok, 30_000);
    const before = answered.length;
    await waitFor("opt-ins after the outage", async () => answered.length >= before + 20, 30_000);
    expect((await newsletterPost()).status).toBeLessThan(400);
    expect((await signIn()).status).toBe(401);
    stopTraffic = true;
    await traffic;

    expect([...statuses.keys()].sort()).toEqual([200, 503]);
    expect(site.output()).not.toMatch(/"level":(50|60)/); // no error or fatal lines: an outage is a warning
    expect(site.child.exitCode).toBeNull();

    await site.stop();
    const database = await openSiteDatabase({ url: databaseUrl });
    try {
      const { subscribers } = await smsRecordsByPhone(database);
      for (const phone of answered) expect(subscribers.get(phone), phone).toBe(1);
    } finally {
      await database.close();
    }
  });
});
