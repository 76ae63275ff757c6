import { describe, expect, it } from "vitest";
import { auditLog, consentEvents, contactMessages, dncImports, emailMessages, smsMessages, subscribers } from "~/db/schema";
import { DB_KINDS, useTestDatabase } from "../../../tests/support/test-db";
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
      ])
      .returning({ id: subscribers.id });
    const [a, b, c] = people.map((row) => row.id) as [string, string, string];
    await db.insert(consentEvents).values([
      { subscriberId: a, channel: "sms", action: "opt_in", occurredAt: at("2026-11-20T06:00:00Z") }, // today
      { subscriberId: b, channel: "sms", action: "opt_in", occurredAt: at("2026-11-20T04:00:00Z") }, // yesterday in New York
      { subscriberId: b, channel: "sms", action: "opt_out", occurredAt: at("2026-11-16T12:00:00Z") }, // 4 days ago
      { subscriberId: b, channel: "sms", action: "start", occurredAt: at("2026-11-01T12:00:00Z") }, // 19 days ago
      { subscriberId: b, channel: "sms", action: "help", occurredAt: at("2026-11-20T07:00:00Z") }, // not a sign-up
      { subscriberId: c, channel: "email", action: "email_subscribe", occurredAt: at("2026-10-01T12:00:00Z") }, // 50 days ago
      { subscriberId: c, channel: "email", action: "email_unsubscribe", occurredAt: at("2026-11-20T14:00:00Z") }, // today
      { subscriberId: a, channel: "sms", action: "opt_in", occurredAt: at("2026-11-20T16:00:00Z") }, // after "now"
    ]);
    await db.insert(smsMessages).values([
      { toPhone: "+13125550001", body: "x", kind: "welcome", status: "sent", dedupeKey: "d1", createdAt: at("2026-11-20T10:00:00Z") },
      { toPhone: "+13125550001", body: "x", kind: "welcome", status: "failed", dedupeKey: "d2", createdAt: at("2026-11-19T16:00:00Z") },
      { toPhone: "+13125550001", body: "x", kind: "welcome", status: "sent", dedupeKey: "d3", createdAt: at("2026-11-19T14:00:00Z") }, // 25 h ago
      { toPhone: "+13125550001", body: "x", kind: "welcome", status: "queued", dedupeKey: "d4", createdAt: at("2026-11-10T10:00:00Z") },
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
    expect(dashboard.newSubscribers).toEqual({ sms: { today: 1, days7: 2, days30: 3 }, email: { today: 0, days7: 0, days30: 0 } });
    expect(dashboard.optOuts).toEqual({ sms: { today: 0, days7: 1, days30: 1 }, email: { today: 1, days7: 1, days30: 1 } });
    expect(dashboard.last24h).toEqual({ texts: { sent: 1, failed: 1 }, emails: { sent: 1, failed: 0 } });
    expect(dashboard.outbox).toEqual({ texts: 1, emails: 1 });
    expect(dashboard.unreadInbox).toBe(1);
    expect(dashboard.dnc).toMatchObject({ dataDate: "2026-10-10", ageDays: 41, stale: true });
    expect(dashboard.audit.map((entry) => entry.action)).toEqual(Array.from({ length: 10 }, (_, i) => `change.${11 - i}`));
    expect(dashboard.campaigns).toEqual([]);
  });
});
