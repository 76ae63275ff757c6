import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { auditLog, campaignRecipients, consentEvents, contactMessages, dncImports, emailMessages, subscribers } from "~/db/schema";
import { DB_KINDS, NO_EVIDENCE, useTestDatabase } from "../../../tests/support/test-db";
import { stopSubscription, stopSubscriptionsOfDeletedAccount } from "../account.server";
import { handleInboundSms } from "../subscription/inbound-sms.server";
import { subscribeToNewsletter } from "../subscription/newsletter-sign-up.server";
import { confirmSubscription } from "../newsletter/subscription.server";
import { optInToSms } from "../subscription/sms-opt-in.server";
import { loadDashboard } from "./dashboard.server";

// 15:00 UTC is 10:00 in New York: "today" there began five hours earlier, at 05:00 UTC.
const NOW = new Date("2026-11-20T15:00:00Z");
const at = (iso: string) => new Date(iso);

describe.each(DB_KINDS)("loadDashboard on %s", (kind) => {
  const database = useTestDatabase(kind);

  it("counts each figure over its own period", async () => {
    const { db } = database;
    const people = await db
      .insert(subscribers)
      .values([
        { channel: "sms", phoneE164: "+13125550001", firstName: "A", lastName: "A", status: "active", source: "opt-in" },
        { channel: "sms", phoneE164: "+13125550002", firstName: "B", lastName: "B", status: "opted_out", source: "opt-in" },
        { channel: "email", email: "c@example.com", firstName: "C", lastName: "C", status: "active", source: "newsletter" },
        { channel: "email", email: "d@example.com", firstName: "D", lastName: "D", status: "complained", source: "newsletter" },
      ])
      .returning({ id: subscribers.id });
    const [a, b, c, d] = people.map((row) => row.id) as [string, string, string, string];
    await db.insert(consentEvents).values([
      { subscriberId: a, channel: "sms", action: "opt_in", occurredAt: at("2026-11-20T06:00:00Z") }, // today
      { subscriberId: b, channel: "sms", action: "opt_in", occurredAt: at("2026-11-20T04:00:00Z") }, // yesterday in New York
      { subscriberId: b, channel: "sms", action: "opt_out", occurredAt: at("2026-11-16T12:00:00Z") }, // 4 days ago
      { subscriberId: b, channel: "sms", action: "start", occurredAt: at("2026-11-01T12:00:00Z") }, // 19 days ago
      { subscriberId: b, channel: "sms", action: "help", occurredAt: at("2026-11-20T07:00:00Z") }, // not a sign-up
      { subscriberId: c, channel: "email", action: "email_subscribe", occurredAt: at("2026-10-01T12:00:00Z") }, // 50 days ago
      { subscriberId: c, channel: "email", action: "email_unsubscribe", occurredAt: at("2026-11-20T14:00:00Z") }, // today
      { subscriberId: a, channel: "sms", action: "opt_in", occurredAt: at("2026-11-20T16:00:00Z") }, // after "now"
      { subscriberId: d, channel: "email", action: "email_subscribe", occurredAt: at("2026-11-17T12:00:00Z") }, // 3 days ago
      { subscriberId: d, channel: "email", action: "email_complaint", occurredAt: at("2026-11-18T12:00:00Z") }, // an opt-out for good
      { subscriberId: d, channel: "email", action: "email_subscribe", occurredAt: at("2026-11-20T08:00:00Z") }, // refused: not new
    ]);
    // Texts of their own, in the send engine's ledger (decision 068).
    await db.insert(campaignRecipients).values([
      { address: "+13125550001", body: "x", kind: "welcome", state: "sent", dedupeKey: "d1", createdAt: at("2026-11-20T10:00:00Z") },
      { address: "+13125550001", body: "x", kind: "welcome", state: "failed", dedupeKey: "d2", createdAt: at("2026-11-19T16:00:00Z") },
      { address: "+13125550001", body: "x", kind: "welcome", state: "sent", dedupeKey: "d3", createdAt: at("2026-11-19T14:00:00Z") }, // 25 h ago
      { address: "+13125550001", body: "x", kind: "welcome", state: "queued", dedupeKey: "d4", createdAt: at("2026-11-10T10:00:00Z") },
    ]);
    await db.insert(emailMessages).values([
      { toAddress: "c@example.com", subject: "s", text: "t", kind: "verify_email", status: "sent", createdAt: at("2026-11-20T09:00:00Z") },
      { toAddress: "c@example.com", subject: "s", text: "t", kind: "verify_email", status: "sending", createdAt: at("2026-11-20T09:00:00Z") },
    ]);
    await db.insert(contactMessages).values([
      { name: "n", email: "e@example.com", subject: "s", message: "m" },
      { name: "n", email: "e@example.com", subject: "s", message: "m", readAt: at("2026-11-20T09:00:00Z") },
    ]);
    await db.insert(dncImports).values({ fileName: "f", sha256: "x", mode: "add", dataDate: "2026-10-10", lines: 1, changed: 1, badLines: 0 });
    await db.insert(auditLog).values(Array.from({ length: 12 }, (_, i) => ({ actor: "admin@example.com", action: `change.${i}`, entity: "thing" })));

    const dashboard = await loadDashboard(db, NOW);
    expect(dashboard.newSubscribers).toEqual({ sms: { today: 1, days7: 2, days30: 3 }, email: { today: 0, days7: 1, days30: 1 } });
    expect(dashboard.optOuts).toEqual({ sms: { today: 0, days7: 1, days30: 1 }, email: { today: 1, days7: 2, days30: 2 } });
    expect(dashboard.last24h).toEqual({ texts: { sent: 1, failed: 1 }, emails: { sent: 1, failed: 0 } });
    expect(dashboard.outbox).toEqual({ texts: 1, emails: 1 });
    expect(dashboard.unreadInbox).toBe(1);
    expect(dashboard.dnc).toMatchObject({ dataDate: "2026-10-10", ageDays: 41, stale: true });
    expect(dashboard.audit.map((entry) => entry.action)).toEqual(Array.from({ length: 10 }, (_, i) => `change.${11 - i}`));
    expect(dashboard.campaigns).toEqual([]);
  });
});

describe.each(DB_KINDS)("the subscriber figures of a day seeded through the services, on %s", (kind) => {
  const database = useTestDatabase(kind);

  it("counts a person's place on a list, not each request: repeats, stops from the account page and deletions", async () => {
    const { db } = database;
    const settings = { siteName: "Patriot Investor", dncPolicy: "refuse" as const, siteUrl: "http://localhost:3000" };
    const site = { name: "Patriot Investor", email: "info@patriotinvestor.example", phone: "1-800-555-0199" };
    const newsletter = (email: string) =>
      subscribeToNewsletter(db, { firstName: "A", lastName: "B", email, phone: "", smsConsent: false, termsConsent: true, evidence: NO_EVIDENCE }, settings);
    const smsOptIn = (phone: string) =>
      optInToSms(db, { firstName: "A", lastName: "B", phone, smsConsent: true, termsConsent: true, source: "opt-in", evidence: NO_EVIDENCE }, settings);
    let sid = 0;
    const text = (from: string, body: string) => handleInboundSms(db, { messageSid: `SM${String(++sid).padStart(32, "0")}`, from, body }, site);
    const verified = (email: string, phoneE164: string | null = null) => ({ email, emailVerified: true, phoneE164 });

    // Newsletter: one address signs up twice (one subscriber), one confirms (not counted again),
    // one stops on the account page, one deletes the account (both opt-outs).
    await newsletter("alice@example.com");
    await newsletter("alice@example.com");
    await newsletter("bob@example.com");
    const [mail] = await db.select().from(emailMessages).where(eq(emailMessages.toAddress, "bob@example.com"));
    const token = decodeURIComponent(/token=([^\s]+)/.exec(mail!.text)![1]!);
    expect(await confirmSubscription(db, token, NO_EVIDENCE)).toMatchObject({ ok: true });
    await newsletter("bob@example.com");
    await newsletter("carol@example.com");
    expect(await stopSubscription(db, verified("carol@example.com"), "email", NO_EVIDENCE)).toEqual({ ok: true, changed: true });

    // SMS: an opt-in repeated, STOP twice, START again; one stop on the account page; a number
    // we never had texts STOP (not a subscriber leaving).
    await smsOptIn("212-456-7001");
    await smsOptIn("212-456-7001");
    await text("+12124567001", "STOP");
    await text("+12124567001", "STOP");
    await text("+12124567001", "START");
    await smsOptIn("212-456-7002");
    expect(await stopSubscription(db, verified("frank@example.com", "+12124567002"), "sms", NO_EVIDENCE)).toEqual({ ok: true, changed: true });
    await text("+12124567009", "STOP");

    // A reader with both subscriptions deletes the account.
    await newsletter("dave@example.com");
    await smsOptIn("212-456-7003");
    await stopSubscriptionsOfDeletedAccount(db, verified("dave@example.com", "+12124567003"), NO_EVIDENCE);

    const dashboard = await loadDashboard(db, new Date(Date.now() + 1_000));
    const all = (n: number) => ({ today: n, days7: n, days30: n });
    // alice, bob, carol, dave; 7001 (opt-in, then START after STOP), 7002, 7003.
    expect(dashboard.newSubscribers).toEqual({ sms: all(4), email: all(4) });
    // carol (account page), dave (deletion); 7001's first STOP, 7002 (account page), 7003 (deletion).
    expect(dashboard.optOuts).toEqual({ sms: all(3), email: all(2) });
  });
});
