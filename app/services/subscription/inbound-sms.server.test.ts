import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { campaignRecipients, consentEvents, dncNumbers, subscribers } from "~/db/schema";
import { DB_KINDS, NO_EVIDENCE, useTestDatabase } from "../../../tests/support/test-db";
import { selectTexts, texts } from "../../../tests/support/texts";
import { handleInboundSms } from "./inbound-sms.server";
import { optInToSms } from "./sms-opt-in.server";

const SITE = { name: "Patriot Investor", email: "info@patriotinvestor.example", phone: "1-800-555-0199" };
let sid = 0;
const nextSid = () => `SM${String(++sid).padStart(32, "0")}`;

describe.each(DB_KINDS)("inbound SMS on %s", (kind) => {
  const database = useTestDatabase(kind);

  async function subscribe(phone: string) {
    const result = await optInToSms(
      database.db,
      { firstName: "A", lastName: "B", phone, smsConsent: true, termsConsent: true, source: "opt-in", evidence: NO_EVIDENCE },
      { siteName: "Patriot Investor", dncPolicy: "refuse" },
    );
    expect(result.ok).toBe(true);
  }

  const repliesTo = (e164: string, kind: string) =>
    selectTexts(database.db).where(and(eq(texts.toPhone, e164), eq(texts.kind, kind as "help")));

  it("STOP opts out at once: status, consent event, our DNC list and one confirmation", async () => {
    await subscribe("212-456-2001");
    const messageSid = nextSid();
    const result = await handleInboundSms(database.db, { messageSid, from: "+12124562001", body: "Stop" }, SITE);
    expect(result).toEqual({ intent: "stop", changed: true, replied: true });
    const [subscriber] = await database.db.select().from(subscribers).where(eq(subscribers.phoneE164, "+12124562001"));
    expect(subscriber!.status).toBe("opted_out");
    const events = await database.db.select().from(consentEvents).where(eq(consentEvents.subscriberId, subscriber!.id));
    expect(events.map((e) => e.action)).toEqual(["opt_in", "opt_out"]);
    expect(events[1]).toMatchObject({ inboundMessageSid: messageSid, inboundBody: "Stop" });
    expect(await database.db.select().from(dncNumbers).where(eq(dncNumbers.phone, "2124562001"))).toMatchObject([{ source: "internal" }]);
    const confirmations = await repliesTo("+12124562001", "stop_confirmation");
    expect(confirmations).toHaveLength(1);
    expect(confirmations[0]!.body).toContain("START");
    const linked = await database.db.select({ event: campaignRecipients.consentEventId }).from(campaignRecipients).where(eq(campaignRecipients.address, "+12124562001"));
    // The opt-in's welcome and the STOP's confirmation, each with its own event.
    expect(linked.map((row) => row.event).sort()).toEqual([events[0]!.id, events[1]!.id].sort());

    // The same webhook delivered twice, and a second STOP later: no second confirmation.
    await handleInboundSms(database.db, { messageSid, from: "+12124562001", body: "Stop" }, SITE);
    await handleInboundSms(database.db, { messageSid: nextSid(), from: "+12124562001", body: "STOP" }, SITE);
    expect(await repliesTo("+12124562001", "stop_confirmation")).toHaveLength(1);
  });

  it("a plain-language opt-out works like STOP", async () => {
    await subscribe("212-456-2002");
    const result = await handleInboundSms(database.db, { messageSid: nextSid(), from: "+12124562002", body: "please take me off this list" }, SITE);
    expect(result.intent).toBe("stop");
    const [subscriber] = await database.db.select().from(subscribers).where(eq(subscribers.phoneE164, "+12124562002"));
    expect(subscriber!.status).toBe("opted_out");
  });

  it("does not send its own confirmation when Twilio already answered the keyword", async () => {
    await subscribe("212-456-2003");
    const result = await handleInboundSms(database.db, { messageSid: nextSid(), from: "+12124562003", body: "STOP", optOutType: "STOP" }, SITE);
    expect(result).toEqual({ intent: "stop", changed: true, replied: false });
    expect(await repliesTo("+12124562003", "stop_confirmation")).toHaveLength(0);
  });

  it("STOP from a number we never had still suppresses it", async () => {
    await handleInboundSms(database.db, { messageSid: nextSid(), from: "+12124562004", body: "unsubscribe" }, SITE);
    expect(await database.db.select().from(dncNumbers).where(eq(dncNumbers.phone, "2124562004"))).toHaveLength(1);
  });

  it("HELP answers with brand, contact, frequency, rates and STOP, changes nothing, and is recorded as a consent event its reply is linked to", async () => {
    await subscribe("212-456-2005");
    const messageSid = nextSid();
    const result = await handleInboundSms(database.db, { messageSid, from: "+12124562005", body: "help" }, SITE);
    expect(result).toEqual({ intent: "help", changed: false, replied: true });
    const [reply] = await repliesTo("+12124562005", "help");
    for (const part of ["Patriot Investor", "info@patriotinvestor.example", "1-800-555-0199", "3 msgs/day", "Msg&data rates may apply", "STOP"]) {
      expect(reply!.body).toContain(part);
    }
    const [subscriber] = await database.db.select().from(subscribers).where(eq(subscribers.phoneE164, "+12124562005"));
    expect(subscriber!.status).toBe("active");
    const events = await database.db.select().from(consentEvents).where(eq(consentEvents.subscriberId, subscriber!.id));
    expect(events.map((e) => e.action)).toEqual(["opt_in", "help"]);
    expect(events[1]).toMatchObject({ channel: "sms", source: "sms", inboundMessageSid: messageSid, inboundBody: "help", phoneE164: "+12124562005" });
    const [row] = await database.db.select().from(campaignRecipients).where(eq(campaignRecipients.id, reply!.id));
    expect(row).toMatchObject({ consentEventId: events[1]!.id, subscriberId: subscriber!.id });

    // The same webhook delivered again: no second event, no second reply.
    expect(await handleInboundSms(database.db, { messageSid, from: "+12124562005", body: "help" }, SITE)).toEqual({ intent: "help", changed: false, replied: false });
    expect(await database.db.select().from(consentEvents).where(eq(consentEvents.subscriberId, subscriber!.id))).toHaveLength(2);
    expect(await repliesTo("+12124562005", "help")).toHaveLength(1);
  });

  it("HELP from a number we never had is answered without making it a subscriber", async () => {
    const messageSid = nextSid();
    expect(await handleInboundSms(database.db, { messageSid, from: "+12124562008", body: "INFO" }, SITE)).toEqual({ intent: "help", changed: false, replied: true });
    expect(await database.db.select().from(subscribers).where(eq(subscribers.phoneE164, "+12124562008"))).toHaveLength(0);
    expect(await database.db.select().from(consentEvents).where(eq(consentEvents.inboundMessageSid, messageSid))).toHaveLength(0);
    const [reply] = await database.db.select().from(campaignRecipients).where(eq(campaignRecipients.address, "+12124562008"));
    expect(reply).toMatchObject({ kind: "help", consentEventId: null, subscriberId: null });
    // Redelivered: still one answer.
    await handleInboundSms(database.db, { messageSid, from: "+12124562008", body: "INFO" }, SITE);
    expect(await repliesTo("+12124562008", "help")).toHaveLength(1);
  });

  it("START after STOP opts back in with a new consent event and lifts our DNC entry", async () => {
    await subscribe("212-456-2006");
    await handleInboundSms(database.db, { messageSid: nextSid(), from: "+12124562006", body: "STOP" }, SITE);
    const startSid = nextSid();
    const result = await handleInboundSms(database.db, { messageSid: startSid, from: "+12124562006", body: "START" }, SITE);
    expect(result).toEqual({ intent: "start", changed: true, replied: true });
    const [subscriber] = await database.db.select().from(subscribers).where(eq(subscribers.phoneE164, "+12124562006"));
    expect(subscriber!.status).toBe("active");
    const events = await database.db.select().from(consentEvents).where(eq(consentEvents.subscriberId, subscriber!.id));
    expect(events.map((e) => e.action)).toEqual(["opt_in", "opt_out", "start"]);
    expect(events[2]!.inboundMessageSid).toBe(startSid);
    expect(await database.db.select().from(dncNumbers).where(and(eq(dncNumbers.phone, "2124562006"), eq(dncNumbers.source, "internal")))).toHaveLength(0);
    const [startReply] = await repliesTo("+12124562006", "start_confirmation");
    const [startRow] = await database.db.select().from(campaignRecipients).where(eq(campaignRecipients.id, startReply!.id));
    expect(startRow!.consentEventId).toBe(events[2]!.id);
  });

  it("leaves anything else for a person to read", async () => {
    const result = await handleInboundSms(database.db, { messageSid: nextSid(), from: "+12124562007", body: "What about silver?" }, SITE);
    expect(result).toEqual({ intent: "other", changed: false, replied: false });
  });
});
