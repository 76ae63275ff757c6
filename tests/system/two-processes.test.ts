import { readdirSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RATE_LIMITS } from "~/services/rate-limit.server";
import { createPostgresDatabase } from "../support/test-db";
import { startTwilioStandIn } from "../support/twilio-stand-in";
import { openSiteDatabase, rows } from "./support/inspect";
import { createAdmin, signIn } from "./support/admin-session";
import { BUILD_SITE_URL, startSite, type SiteProcess } from "./support/site";
import { mobileNumber, postOptIn, randomClientIp, toE164, waitFor } from "./support/traffic";

const ADMIN = { email: "two-processes@patriotinvestor.example", password: "Concord-Bridge-1775!" };
const TWILIO = { accountSid: `AC${"7a0c".repeat(8)}`, authToken: "two-process-auth-token-0123456789", from: "+18005550177" };

/** Two server processes on one PostgreSQL database behave as one site. */
describe("two server processes on one PostgreSQL database", () => {
  let database: Awaited<ReturnType<typeof createPostgresDatabase>>;
  let twilio: Awaited<ReturnType<typeof startTwilioStandIn>>;
  let a: SiteProcess;
  let b: SiteProcess;

  beforeAll(async () => {
    database = await createPostgresDatabase();
    twilio = await startTwilioStandIn({ accountSid: TWILIO.accountSid, authToken: TWILIO.authToken });
    const env = {
      DATABASE_URL: database.url,
      TWILIO_ACCOUNT_SID: TWILIO.accountSid,
      TWILIO_AUTH_TOKEN: TWILIO.authToken,
      TWILIO_FROM: TWILIO.from,
      TWILIO_API_BASE: twilio.url,
      // Welcomes are paced by the number's rate like every text (decision 068); at the default 1
      // a second the 40 below would take 40 s.
      SMS_MPS: "20",
    };
    // Started together on an empty database: both run the migrations, under the advisory lock.
    [a, b] = await Promise.all([startSite(env), startSite(env)]);
    createAdmin({ DATABASE_URL: database.url }, ADMIN);
  });

  afterAll(async () => {
    await Promise.all([a?.stop(), b?.stop()]);
    await twilio?.close();
    await database?.drop();
  });

  it("applied each migration once although both processes started on an empty database", async () => {
    const files = readdirSync("drizzle").filter((name) => /^\d{4}_.*\.sql$/.test(name));
    const handle = await openSiteDatabase({ url: database.url });
    try {
      const [row] = await rows<{ n: string }>(handle, "SELECT count(*)::text AS n FROM drizzle.__drizzle_migrations");
      expect(Number(row!.n)).toBe(files.length);
    } finally {
      await handle.close();
    }
  });

  it("answers the pages it renders into memory with the same bytes (one ETag) on both processes", async () => {
    // A revalidation on the other process is a 304, and a form sent by one process is found in
    // the other's pages by its ETag (decision 080): no per-render nonce in these pages.
    for (const path of ["/", "/blog", "/rss.xml"]) {
      const [onA, onB] = await Promise.all([fetch(`${a.url}${path}`), fetch(`${b.url}${path}`)]);
      expect(onA.status, path).toBe(200);
      expect(onA.headers.get("etag"), path).toBe(onB.headers.get("etag"));
      expect(await onA.text(), path).toBe(await onB.text());
      const revalidated = await fetch(`${b.url}${path}`, { headers: { "If-None-Match": onA.headers.get("etag")! } });
      expect(revalidated.status, path).toBe(304);
    }
  });

  it("shares sessions: signed in on one process, recognised and signed out on the other", async () => {
    const cookie = await signIn(a.url, ADMIN);
    expect(cookie).toContain("session_token=");

    const onB = await fetch(`${b.url}/admin/subscribers`, { headers: { Cookie: cookie }, redirect: "manual" });
    expect(onB.status).toBe(200);
    expect(await onB.text()).toContain("Subscribers");

    const signOut = await fetch(`${b.url}/api/auth/sign-out`, { method: "POST", headers: { Cookie: cookie, Origin: BUILD_SITE_URL } });
    expect(signOut.status).toBe(200);
    const onA = await fetch(`${a.url}/admin/subscribers`, { headers: { Cookie: cookie }, redirect: "manual" });
    expect(onA.status).toBe(302);
    expect(onA.headers.get("location")).toMatch(/^\/auth\?/);
  });

  it("shares rate limits: the opt-in limit per phone number counts requests on both processes", async () => {
    const phone = mobileNumber(700_000);
    const { limit } = RATE_LIMITS.optInPerPhone;
    for (let i = 0; i < limit; i++) {
      const result = await postOptIn([a, b][i % 2]!.url, phone, { "X-Forwarded-For": randomClientIp() });
      expect(result.status, `opt-in ${i + 1}`).toBe(200);
    }
    for (const site of [a, b]) {
      const refused = await postOptIn(site.url, phone, { "X-Forwarded-For": randomClientIp() });
      expect(refused.status).toBe(429);
    }
  });

  it("shares better-auth's sign-in limit (3 per 10 s per address)", async () => {
    const ip = randomClientIp();
    const attempt = (site: SiteProcess) =>
      fetch(`${site.url}/api/auth/sign-in/email`, {
        method: "POST",
        headers: { "Content-Type": "application/json", Origin: BUILD_SITE_URL, "X-Forwarded-For": ip },
        body: JSON.stringify({ email: "nobody@patriotinvestor.example", password: "wrong-password-1" }),
      }).then((response) => response.status);
    expect([await attempt(a), await attempt(b), await attempt(a)]).toEqual([401, 401, 401]);
    expect(await attempt(b)).toBe(429);
  });

  it("sends each welcome text exactly once although both processes run the SMS sender", async () => {
    const phones = Array.from({ length: 40 }, (_, i) => mobileNumber(710_000 + i));
    const results = await Promise.all(phones.map((phone, i) => postOptIn([a, b][i % 2]!.url, phone)));
    expect(results.map((result) => result.status)).toEqual(phones.map(() => 200));

    const expected = new Set(phones.map(toE164));
    await waitFor("all welcome texts", async () => twilio.sent.filter((message) => expected.has(message.to)).length >= phones.length);
    // Give a duplicate, if any, time to arrive.
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    const perNumber = new Map<string, number>();
    for (const message of twilio.sent) perNumber.set(message.to, (perNumber.get(message.to) ?? 0) + 1);
    for (const phone of expected) expect(perNumber.get(phone), phone).toBe(1);
    expect([...perNumber.values()].every((count) => count === 1)).toBe(true);
  });
});
