import { asc, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import type { Db } from "~/db/client.server";
import { subscribers, subscriptionAttributions } from "~/db/schema";
import { DB_KINDS, useTestDatabase } from "../../../tests/support/test-db";
import { createFlusher } from "../analytics/flusher.server";
import { createRecorder } from "../analytics/recorder";
import { createRollupWriter } from "../analytics/rollup-writer.server";
import { createVisitLookup } from "../analytics/visit-lookup.server";
import { unsubscribeByToken } from "../newsletter/subscription.server";
import { subscribeToNewsletter, type NewsletterInput } from "./newsletter-sign-up.server";
import { optInToSms, type SmsOptInInput } from "./sms-opt-in.server";

const SITE = "https://patriotinvestor.example";
const CHROME = "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36";
const IPHONE = "Mozilla/5.0 (iPhone; CPU iPhone OS 18_2 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.2 Mobile/15E148 Safari/604.1";
const browser = (userAgent: string, extra: Record<string, string> = {}) => ({ host: "patriotinvestor.example", "user-agent": userAgent, "accept-language": "en-US", "sec-fetch-mode": "navigate", ...extra });
const evidence = (ip: string, userAgent: string, pageUrl: string) => ({ ip, userAgent, acceptLanguage: "en-US", pageUrl, referrer: pageUrl });

/** One server process: its recorder, its flusher and the lookup its subscriptions use, on the shared database. */
function processOn(db: Db) {
  const recorder = createRecorder({ timeZone: "America/New_York", viewsPerMinute: 1000, ownHosts: ["patriotinvestor.example"] });
  const writer = createRollupWriter(db);
  return {
    recorder,
    flusher: createFlusher({ recorder, writer, salts: writer, site: SITE }),
    visits: createVisitLookup({ recorder, db: () => db, site: SITE }),
  };
}

const settings = (visits: ReturnType<typeof processOn>["visits"]) => ({ siteName: "Patriot Investor", dncPolicy: "refuse" as const, siteUrl: SITE, visits });

const newsletter = (email: string, page: string, ip: string, userAgent = CHROME, smsConsent = false): NewsletterInput => ({
  firstName: "Abigail",
  lastName: "Adams",
  email,
  phone: smsConsent ? "(212) 456-3301" : "",
  smsConsent,
  termsConsent: true,
  evidence: evidence(ip, userAgent, page),
});

const smsOptIn = (phone: string, page: string, ip: string, userAgent = IPHONE): SmsOptInInput => ({
  firstName: "Betsy",
  lastName: "Ross",
  phone,
  smsConsent: true,
  termsConsent: true,
  source: "opt-in",
  evidence: evidence(ip, userAgent, page),
});

async function attributionsOf(db: Db, subscriberId: string) {
  return db.select().from(subscriptionAttributions).where(eq(subscriptionAttributions.subscriberId, subscriberId)).orderBy(asc(subscriptionAttributions.id));
}

describe.each(DB_KINDS)("subscription attribution on %s", (kind) => {
  const database = useTestDatabase(kind);

  it("attributes an ad opt-in to the form page's sub-id and campaign, in the same statement as the subscriber", async () => {
    const { db } = database;
    const a = processOn(db);
    const page = `${SITE}/opt-in?f_name=Betsy&sub2=AFF-77&utm_source=Newsmax&utm_medium=cpc&utm_campaign=Spring`;
    a.recorder.count({ path: "/opt-in", query: page.split("?")[1]! }, browser(IPHONE, { referer: "https://www.newsmax.com/" }), "198.51.100.20");
    const result = await optInToSms(db, smsOptIn("(212) 456-7001", page, "198.51.100.20"), settings(a.visits));
    expect(result).toMatchObject({ ok: true, created: true });
    const rows = await attributionsOf(db, (result as { subscriberId: string }).subscriberId);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      channel: "sms",
      basis: "form",
      formPath: "/opt-in",
      entryPath: "/opt-in",
      visitChannel: "paid",
      referrer: "newsmax.com",
      utmSource: "newsmax",
      utmMedium: "cpc",
      utmCampaign: "Spring",
      clickIds: "",
      sub1: "",
      sub2: "AFF-77",
    });
    expect(rows[0]!.consentEventId).toBeGreaterThan(0);
  });

  it("finds a reader's search visit seen by another process, through the table, for a newsletter sign-up on the article", async () => {
    const { db } = database;
    const a = processOn(db);
    const b = processOn(db);
    a.recorder.count({ path: "/articles/gold-rush", query: "" }, browser(CHROME, { referer: "https://www.google.com/" }), "203.0.113.9");
    a.recorder.count({ path: "/articles/silver", query: "" }, browser(CHROME, { referer: `${SITE}/articles/gold-rush` }), "203.0.113.9");
    await a.flusher.flush();
    // Same network and browser, another address in it; the request reaches process b.
    const result = await subscribeToNewsletter(db, newsletter("abigail@example.com", `${SITE}/articles/silver`, "203.0.113.61", CHROME, true), settings(b.visits));
    expect(result).toMatchObject({ ok: true, sms: { ok: true, created: true } });
    const [email] = await db.select().from(subscribers).where(eq(subscribers.email, "abigail@example.com"));
    const [sms] = await db.select().from(subscribers).where(eq(subscribers.phoneE164, "+12124563301"));
    for (const [subscriber, channel] of [[email!, "email"], [sms!, "sms"]] as const) {
      const rows = await attributionsOf(db, subscriber.id);
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({ channel, basis: "visit", formPath: "/articles/silver", entryPath: "/articles/gold-rush", visitChannel: "search", referrer: "google.com", utmSource: "", sub2: "" });
      expect(rows[0]!.entryAt).toBeInstanceOf(Date);
    }
  });

  it("records an unknown origin when no visit is known, once per subscription started", async () => {
    const { db } = database;
    const a = processOn(db);
    await subscribeToNewsletter(db, newsletter("john@example.com", `${SITE}/`, "192.0.2.44"), settings(a.visits));
    // A second sign-up while the first waits for confirmation starts nothing new.
    await subscribeToNewsletter(db, newsletter("john@example.com", `${SITE}/`, "192.0.2.44"), settings(a.visits));
    const [row] = await db.select().from(subscribers).where(eq(subscribers.email, "john@example.com"));
    let rows = await attributionsOf(db, row!.id);
    expect(rows.map((r) => [r.channel, r.basis, r.formPath, r.entryPath, r.visitChannel])).toEqual([["email", "none", "/", "", "unknown"]]);

    // After an unsubscribe, signing up again from an ad-tagged article is a new sign-up with its own origin.
    await unsubscribeByToken(db, row!.emailToken!, "one-click", evidence("192.0.2.44", CHROME, `${SITE}/`));
    await subscribeToNewsletter(db, newsletter("john@example.com", `${SITE}/articles/gold-rush?utm_source=facebook&utm_medium=social`, "192.0.2.44"), settings(a.visits));
    rows = await attributionsOf(db, row!.id);
    expect(rows.map((r) => [r.basis, r.formPath, r.visitChannel, r.utmSource])).toEqual([
      ["none", "/", "unknown", ""],
      ["form", "/articles/gold-rush", "social", "facebook"],
    ]);

    // An SMS number already active: the same success, no second sign-up.
    const page = `${SITE}/opt-in`;
    await optInToSms(db, smsOptIn("(212) 456-7002", page, "192.0.2.45"), settings(a.visits));
    const again = await optInToSms(db, smsOptIn("(212) 456-7002", page, "192.0.2.45"), settings(a.visits));
    expect(await attributionsOf(db, (again as { subscriberId: string }).subscriberId)).toHaveLength(1);
  });

  it("gives a number that opts in again after STOP a second sign-up with its own origin", async () => {
    const { db } = database;
    const a = processOn(db);
    const first = await optInToSms(db, smsOptIn("(212) 456-7003", `${SITE}/opt-in?sub1=first`, "192.0.2.70"), settings(a.visits));
    const id = (first as { subscriberId: string }).subscriberId;
    await db.update(subscribers).set({ status: "opted_out" }).where(eq(subscribers.id, id));
    const again = await optInToSms(db, smsOptIn("(212) 456-7003", `${SITE}/opt-in?sub1=second`, "192.0.2.70"), settings(a.visits));
    expect(again).toMatchObject({ ok: true, created: false, subscriberId: id });
    const rows = await attributionsOf(db, id);
    expect(rows.map((row) => [row.basis, row.sub1])).toEqual([["form", "first"], ["form", "second"]]);
    expect(rows[0]!.consentEventId).not.toBe(rows[1]!.consentEventId);
  });
});
