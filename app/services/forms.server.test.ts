import { eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { consentEvents, contactMessages, subscribers } from "~/db/schema";
import { DB_KINDS, NO_EVIDENCE, useTestDatabase } from "../../tests/support/test-db";
import { selectTexts, texts } from "../../tests/support/texts";
import { saveContactMessage } from "./contact.server";
import { subscribeToNewsletter, type NewsletterInput } from "./subscription/newsletter-sign-up.server";
import { hitRateLimit } from "./rate-limit.server";

const SETTINGS = { siteName: "Patriot Investor", dncPolicy: "refuse" as const, siteUrl: "http://localhost:3000" };
const newsletter = (overrides: Partial<NewsletterInput> = {}): NewsletterInput => ({
  firstName: "John",
  lastName: "Adams",
  email: "John.Adams@Example.com",
  phone: "(212) 456-3001",
  smsConsent: false,
  termsConsent: true,
  evidence: NO_EVIDENCE,
  ...overrides,
});

describe.each(DB_KINDS)("newsletter, contact and rate limits on %s", (kind) => {
  const database = useTestDatabase(kind);

  it("stores an e-mail subscriber with consent evidence, once per address, pending its confirmation", async () => {
    const { db } = database;
    expect(await subscribeToNewsletter(db, newsletter(), SETTINGS)).toEqual({ ok: true, sms: null, confirmationSent: true });
    // A second sign-up minutes later sends no second confirmation mail.
    expect(await subscribeToNewsletter(db, newsletter({ firstName: "Johnny" }), SETTINGS)).toEqual({ ok: true, sms: null, confirmationSent: false });
    const rows = await db.select().from(subscribers).where(eq(subscribers.email, "john.adams@example.com"));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ channel: "email", status: "pending", firstName: "Johnny", phoneRaw: "(212) 456-3001", source: "newsletter" });
    expect(rows[0]!.emailToken).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const events = await db.select().from(consentEvents).where(eq(consentEvents.subscriberId, rows[0]!.id));
    expect(events).toHaveLength(2);
    expect(events[0]).toMatchObject({ action: "email_subscribe", termsCheckbox: true, smsCheckbox: false, ip: "203.0.113.7" });
    expect(await selectTexts(db).where(eq(texts.toPhone, "+12124563001"))).toHaveLength(0);
  });

  it("with the SMS box ticked, the phone goes through the SMS opt-in too", async () => {
    const { db } = database;
    const result = await subscribeToNewsletter(db, newsletter({ email: "martha@example.com", phone: "212-456-3002", smsConsent: true }), SETTINGS);
    expect(result).toMatchObject({ ok: true, sms: { ok: true, created: true } });
    const [sms] = await db.select().from(subscribers).where(eq(subscribers.phoneE164, "+12124563002"));
    expect(sms).toMatchObject({ channel: "sms", source: "newsletter", status: "active" });
    expect(await selectTexts(db).where(eq(texts.toPhone, "+12124563002"))).toHaveLength(1);
  });

  it("refuses without terms consent, and a bad number when SMS is ticked, storing nothing", async () => {
    const { db } = database;
    const count = async () => (await db.execute<{ n: number }>(sql`SELECT count(*)::int AS n FROM subscribers`)).rows[0]!.n;
    const before = await count();
    expect(await subscribeToNewsletter(db, newsletter({ email: "x@example.com", termsConsent: false }), SETTINGS)).toEqual({
      ok: false,
      code: "terms_consent_required",
    });
    expect(await subscribeToNewsletter(db, newsletter({ email: "y@example.com", phone: "555-0100", smsConsent: true }), SETTINGS)).toMatchObject({
      ok: false,
      code: "invalid_phone",
    });
    expect(await count()).toBe(before);
  });

  it("stores contact messages byte for byte", async () => {
    const { db } = database;
    const hostile = "'; DROP TABLE subscribers;-- \\' $$ <script>alert(1)</script>";
    const id = await saveContactMessage(db, { name: hostile, email: "a@example.com", phone: undefined, subject: "Hi", message: hostile }, { ip: "1.2.3.4", userAgent: "ua" });
    const [row] = await db.select().from(contactMessages).where(eq(contactMessages.id, id));
    expect(row).toMatchObject({ name: hostile, message: hostile, phone: null, ip: "1.2.3.4" });
  });

  it("counts a fixed window in the database and says when to retry", async () => {
    const { db } = database;
    const rule = { name: `test-${kind}`, limit: 3, windowSeconds: 60 };
    const results = [];
    for (let i = 0; i < 5; i++) results.push(await hitRateLimit(db, rule, "198.51.100.1"));
    expect(results.slice(0, 3).every((r) => r.allowed)).toBe(true);
    expect(results[3]).toMatchObject({ allowed: false });
    const blocked = results[3]!;
    if (!blocked.allowed) expect(blocked.retryAfterSeconds).toBeGreaterThan(0);
    expect(await hitRateLimit(db, rule, "198.51.100.2")).toEqual({ allowed: true });
    // Once the window has passed, the counter starts again.
    await db.execute(sql`UPDATE app_rate_limits SET window_started_at = now() - interval '61 seconds' WHERE key = ${`test-${kind}:198.51.100.1`}`);
    expect(await hitRateLimit(db, rule, "198.51.100.1")).toEqual({ allowed: true });
  });

  it("counts concurrent hits exactly", async () => {
    const { db } = database;
    const rule = { name: `burst-${kind}`, limit: 10, windowSeconds: 60 };
    const results = await Promise.all(Array.from({ length: 30 }, () => hitRateLimit(db, rule, "198.51.100.9")));
    expect(results.filter((r) => r.allowed)).toHaveLength(10);
  });
});
