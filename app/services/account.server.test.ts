import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { consentEvents, dncNumbers, subscribers, user } from "~/db/schema";
import { DB_KINDS, NO_EVIDENCE, useTestDatabase } from "../../tests/support/test-db";
import { accountDataExport, accountSubscriptions, recordPhoneConfirmed, stopSubscription } from "./account.server";
import { buildCertificate } from "./consent/certificate.server";
import { consentSigner } from "./consent/signing.server";

describe.each(DB_KINDS)("account subscriptions on %s", (kind) => {
  const database = useTestDatabase(kind);

  const seed = async () => {
    const { db } = database;
    const rows = await db
      .insert(subscribers)
      .values([
        { channel: "email", email: "ann@example.com", firstName: "Ann", lastName: "Lee", status: "active", source: "newsletter" },
        { channel: "sms", phoneE164: "+13125550123", firstName: "Ann", lastName: "Lee", status: "active", source: "opt-in" },
      ])
      .returning({ id: subscribers.id });
    await db.insert(consentEvents).values(rows.map((row, i) => ({ subscriberId: row.id, channel: i === 0 ? ("email" as const) : ("sms" as const), action: i === 0 ? ("email_subscribe" as const) : ("opt_in" as const) })));
    await db.insert(user).values({ id: "u-ann", name: "Ann", email: "Ann@Example.com", emailVerified: true, phoneNumber: "+13125550123", phoneNumberVerified: true });
  };

  it("matches only a verified address and a confirmed number", async () => {
    await seed();
    const { db } = database;
    expect(await accountSubscriptions(db, { email: "ann@example.com", emailVerified: false, phoneE164: null })).toEqual([]);
    const both = await accountSubscriptions(db, { email: "Ann@Example.com", emailVerified: true, phoneE164: "+13125550123" });
    expect(both.map((entry) => [entry.channel, entry.address, entry.status])).toEqual([
      ["email", "ann@example.com", "active"],
      ["sms", "+13125550123", "active"],
    ]);
  });

  it("stops each with an opt-out event; SMS also goes on our Do-Not-Call list; a second stop changes nothing", async () => {
    const { db } = database;
    const identity = { email: "ann@example.com", emailVerified: true, phoneE164: "+13125550123" };
    expect(await stopSubscription(db, { ...identity, emailVerified: false, phoneE164: null }, "email", NO_EVIDENCE)).toEqual({ ok: false, code: "not_found" });
    expect(await stopSubscription(db, identity, "sms", NO_EVIDENCE)).toEqual({ ok: true, changed: true });
    expect(await stopSubscription(db, identity, "email", NO_EVIDENCE)).toEqual({ ok: true, changed: true });
    expect(await stopSubscription(db, identity, "email", NO_EVIDENCE)).toEqual({ ok: true, changed: false });
    const statuses = await accountSubscriptions(db, identity);
    expect(statuses.map((entry) => entry.status)).toEqual(["unsubscribed", "opted_out"]);
    expect(await db.select().from(dncNumbers).where(eq(dncNumbers.phone, "3125550123"))).toHaveLength(1);
    const outs = await db.select().from(consentEvents).where(eq(consentEvents.action, "opt_out"));
    expect(outs.map((event) => [event.channel, event.source, event.ip]).sort()).toEqual([
      ["email", "account", NO_EVIDENCE.ip],
      ["sms", "account", NO_EVIDENCE.ip],
    ]);
  });

  it("exports the account, its subscriptions and every consent record, no secrets", async () => {
    const { db } = database;
    const exported = await accountDataExport(db, "u-ann", { email: "ann@example.com", emailVerified: true, phoneE164: "+13125550123" });
    expect(exported.account).toMatchObject({ email: "Ann@Example.com", phoneNumber: "+13125550123" });
    expect(exported.subscriptions).toHaveLength(2);
    expect(exported.consentRecords.map((event) => event.action).sort()).toEqual(["email_subscribe", "opt_in", "opt_out", "opt_out"]);
    expect(JSON.stringify(exported)).not.toMatch(/"token"|"password"|"secret"/);
  });

  it("records a number confirmed by code on the account as evidence on its SMS subscription, without changing its status", async () => {
    const { db } = database;
    const served = new Date("2026-11-26T10:00:00.000Z");
    const [before] = await db.select().from(subscribers).where(eq(subscribers.phoneE164, "+13125550123"));
    expect(await recordPhoneConfirmed(db, "+13125550123", { ...NO_EVIDENCE, formServedAt: served })).toBe(true);
    // No subscription for that number: nothing to attach the evidence to.
    expect(await recordPhoneConfirmed(db, "+13125550999", NO_EVIDENCE)).toBe(false);
    const events = await db.select().from(consentEvents).where(eq(consentEvents.action, "phone_confirmed"));
    expect(events.map((event) => [event.channel, event.phoneE164, event.source, event.formServedAt?.toISOString()])).toEqual([["sms", "+13125550123", "account", served.toISOString()]]);
    const [sms] = await db.select().from(subscribers).where(eq(subscribers.id, events[0]!.subscriberId));
    expect(sms!.status).toBe(before!.status);
    const certificate = await buildCertificate(db, sms!.id, consentSigner("a signing secret of thirty-two characters or more"));
    expect(certificate!.events.find((event) => event.action === "phone_confirmed")).toMatchObject({ confirms: true, grants: false, source: "account" });
  });
});
