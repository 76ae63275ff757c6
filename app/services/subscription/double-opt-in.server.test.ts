import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { consentEvents, conversionPostbacks, dncNumbers, smsConfig, subscribers } from "~/db/schema";
import { DB_KINDS, NO_EVIDENCE, useTestDatabase } from "../../../tests/support/test-db";
import { selectTexts, sendQueuedTexts, texts as textColumns } from "../../../tests/support/texts";
import { DOI_CONFIRM_HOURS, doubleOptInRequest, expirePendingOptIns, isConfirmReply } from "./double-opt-in.server";
import { handleInboundSms } from "./inbound-sms.server";
import { optInToSms } from "./sms-opt-in.server";
import { subscribeToNewsletter } from "./newsletter-sign-up.server";

const SITE = { name: "Patriot Investor", email: "info@patriotinvestor.example", phone: "1-800-555-0199" };
const POSTBACK = "http://127.0.0.1:9/postback?cid={clickId}&event={event}&ts={timestamp}";
/** A fixed clock: the opt-in happens at T0; the expiry job is run at chosen hours after it. */
const T0 = new Date("2026-11-20T15:00:00Z");
const hoursAfter = (hours: number) => new Date(T0.getTime() + hours * 3_600_000);
const SETTINGS = { siteName: "Patriot Investor", dncPolicy: "refuse" as const, doubleOptIn: true, postbackUrl: POSTBACK, now: () => T0 };
let sid = 0;
const nextSid = () => `SM${String(++sid).padStart(32, "d")}`;

describe("the double opt-in texts", () => {
  it("asks for Y in one GSM-7 segment with brand, frequency, rates, HELP and STOP", () => {
    const text = doubleOptInRequest("Patriot Investor");
    expect(text).toBe(
      "Patriot Investor: Reply Y to confirm market alert texts (up to 3 msgs/day). Msg&data rates may apply. Reply HELP for help, STOP to cancel.",
    );
    expect(text.length).toBeLessThanOrEqual(160);
  });

  it.each([
    ["Y", true],
    ["y", true],
    [" Yes! ", true],
    ["YES.", true],
    ["yeah", false],
    ["N", false],
    ["Y STOP", false],
  ])("reads %j as a confirmation: %s", (body, expected) => {
    expect(isConfirmReply(body)).toBe(expected);
  });
});

describe.each(DB_KINDS)("double opt-in on %s", (kind) => {
  const database = useTestDatabase(kind);

  async function optIn(phone: string, clickId: string | null = null) {
    const result = await optInToSms(
      database.db,
      { firstName: "Nathan", lastName: "Hale", phone, clickId, smsConsent: true, termsConsent: true, source: "opt-in", evidence: NO_EVIDENCE },
      SETTINGS,
    );
    if (!result.ok) throw new Error(`opt-in failed: ${result.code}`);
    return result;
  }
  const subscriber = async (e164: string) => (await database.db.select().from(subscribers).where(eq(subscribers.phoneE164, e164)))[0]!;
  const events = async (id: string) =>
    (await database.db.select().from(consentEvents).where(eq(consentEvents.subscriberId, id)).orderBy(consentEvents.id)).map((e) => e.action);
  const texts = (e164: string) => selectTexts(database.db).where(eq(textColumns.toPhone, e164)).orderBy(textColumns.id);
  const postbacks = (id: string) => database.db.select().from(conversionPostbacks).where(eq(conversionPostbacks.subscriberId, id));
  const reply = (from: string, body: string, extra: { optOutType?: string } = {}) =>
    handleInboundSms(database.db, { messageSid: nextSid(), from, body, ...extra }, SITE, { postbackUrl: POSTBACK, now: () => hoursAfter(1) });

  it("makes the subscriber pending and texts only the request for a Y", async () => {
    const result = await optIn("212-457-0001", "click-doi-1");
    expect(result).toMatchObject({ ok: true, created: true, pending: true });
    const row = await subscriber("+12124570001");
    expect(row).toMatchObject({ status: "pending", clickId: "click-doi-1" });
    expect(row.confirmBy).toEqual(hoursAfter(DOI_CONFIRM_HOURS));
    expect(await events(row.id)).toEqual(["opt_in"]);
    expect((await texts("+12124570001")).map((m) => [m.kind, m.body])).toEqual([["doi_request", doubleOptInRequest("Patriot Investor")]]);
    // The conversion is the confirmation, so no postback yet.
    expect(await postbacks(row.id)).toHaveLength(0);
    // A second submit while pending is the same answer and no reminder.
    expect(await optIn("212-457-0001", "click-doi-1")).toMatchObject({ ok: true, created: false, pending: true });
    expect(await texts("+12124570001")).toHaveLength(1);
  });

  it("the send engine sends the request while the opt-in is pending", async () => {
    await optIn("212-457-0009");
    const sent = await sendQueuedTexts(database.db);
    expect(sent.filter((m) => m.to === "+12124570009")).toHaveLength(1);
    expect(await texts("+12124570009")).toMatchObject([{ kind: "doi_request", status: "sent" }]);
  });

  it.each(["Y", "yes"])("%s confirms: evidence with the inbound SID and body, then the welcome and the postback", async (body) => {
    const phone = body === "Y" ? "+12124570002" : "+12124570003";
    await optIn(phone, `click-${body}`);
    const messageSid = nextSid();
    const result = await handleInboundSms(database.db, { messageSid, from: phone, body }, SITE, { postbackUrl: POSTBACK, now: () => hoursAfter(2) });
    expect(result).toEqual({ intent: "confirm", changed: true, replied: true });
    const row = await subscriber(phone);
    expect(row.status).toBe("active");
    expect(row.confirmBy).toBeNull();
    const [confirmed] = await database.db
      .select()
      .from(consentEvents)
      .where(and(eq(consentEvents.subscriberId, row.id), eq(consentEvents.action, "doi_confirmed")));
    expect(confirmed).toMatchObject({ inboundMessageSid: messageSid, inboundBody: body, phoneE164: phone });
    const [config] = await database.db.select().from(smsConfig);
    expect((await texts(phone)).map((m) => m.kind)).toEqual(["doi_request", "welcome"]);
    expect((await texts(phone))[1]!.body).toBe(config!.welcomeMessage);
    const [postback] = await postbacks(row.id);
    expect(postback).toMatchObject({ clickId: `click-${body}`, event: "doi_confirmed", status: "queued" });
    expect(postback!.url).toBe(
      `http://127.0.0.1:9/postback?cid=click-${body}&event=doi_confirmed&ts=${Math.floor(hoursAfter(2).getTime() / 1000)}`,
    );

    // The same webhook delivered again, and a second Y: nothing more.
    await handleInboundSms(database.db, { messageSid, from: phone, body }, SITE, { postbackUrl: POSTBACK });
    await reply(phone, "Y");
    expect(await texts(phone)).toHaveLength(2);
    expect(await postbacks(row.id)).toHaveLength(1);
  });

  it("START from a pending number confirms it too (consent by text), with the postback", async () => {
    await optIn("212-457-0011", "click-start");
    expect(await reply("+12124570011", "START")).toEqual({ intent: "confirm", changed: true, replied: true });
    const row = await subscriber("+12124570011");
    expect(row.status).toBe("active");
    expect(await events(row.id)).toEqual(["opt_in", "doi_confirmed"]);
    expect(await postbacks(row.id)).toMatchObject([{ event: "doi_confirmed", clickId: "click-start" }]);
  });

  it("a YES that Twilio already answered confirms without a second reply from us", async () => {
    await optIn("212-457-0004");
    const result = await reply("+12124570004", "YES", { optOutType: "START" });
    expect(result).toEqual({ intent: "confirm", changed: true, replied: false });
    expect((await subscriber("+12124570004")).status).toBe("active");
    expect((await texts("+12124570004")).map((m) => m.kind)).toEqual(["doi_request"]);
  });

  it.each(["N", "STOP"])("%s declines: an opt-out with one confirmation, no welcome, no postback", async (body) => {
    const phone = body === "N" ? "+12124570005" : "+12124570006";
    await optIn(phone, "click-declined");
    const result = await reply(phone, body);
    expect(result).toEqual({ intent: "decline", changed: true, replied: true });
    const row = await subscriber(phone);
    expect(row.status).toBe("declined");
    expect(await events(row.id)).toEqual(["opt_in", "doi_declined"]);
    expect((await texts(phone)).map((m) => m.kind)).toEqual(["doi_request", "stop_confirmation"]);
    expect(await database.db.select().from(dncNumbers).where(eq(dncNumbers.phone, phone.slice(2)))).toMatchObject([{ source: "internal" }]);
    expect(await postbacks(row.id)).toHaveLength(0);
    // A later Y does not bring back a declined opt-in.
    expect(await reply(phone, "Y")).toMatchObject({ intent: "other", changed: false });
    expect((await subscriber(phone)).status).toBe("declined");
  });

  it("expires an opt-in with no reply after 72 hours (fixed clock), and only then", async () => {
    await optIn("212-457-0007", "click-late");
    expect(await expirePendingOptIns(database.db, hoursAfter(DOI_CONFIRM_HOURS - 0.01))).toBe(0);
    expect((await subscriber("+12124570007")).status).toBe("pending");
    expect(await expirePendingOptIns(database.db, hoursAfter(DOI_CONFIRM_HOURS))).toBeGreaterThanOrEqual(1);
    const row = await subscriber("+12124570007");
    expect(row.status).toBe("expired");
    expect(await events(row.id)).toEqual(["opt_in", "doi_expired"]);
    // No reminder, and a Y after the deadline does not subscribe.
    expect((await texts("+12124570007")).map((m) => m.kind)).toEqual(["doi_request"]);
    expect(await reply("+12124570007", "Y")).toMatchObject({ intent: "other", changed: false });
    expect((await subscriber("+12124570007")).status).toBe("expired");
    expect(await expirePendingOptIns(database.db, hoursAfter(500))).toBe(0);
    // A new web opt-in asks again.
    expect(await optIn("212-457-0007")).toMatchObject({ ok: true, created: false, pending: true });
    expect((await texts("+12124570007")).map((m) => m.kind)).toEqual(["doi_request", "doi_request"]);
  });

  it("the newsletter's SMS box goes through the same double opt-in", async () => {
    const result = await subscribeToNewsletter(
      database.db,
      { firstName: "A", lastName: "B", email: "doi@example.com", phone: "212-457-0010", smsConsent: true, termsConsent: true, evidence: NO_EVIDENCE },
      { ...SETTINGS, siteUrl: "http://localhost:3000" },
    );
    expect(result).toMatchObject({ ok: true, sms: { ok: true, pending: true } });
    expect((await subscriber("+12124570010")).status).toBe("pending");
    expect((await texts("+12124570010")).map((m) => m.kind)).toEqual(["doi_request"]);
  });

  it("single opt-in stays the default: active at once, welcome, postback for a click id", async () => {
    const result = await optInToSms(
      database.db,
      { firstName: "A", lastName: "B", phone: "212-457-0008", clickId: "click-single", smsConsent: true, termsConsent: true, source: "opt-in", evidence: NO_EVIDENCE },
      { siteName: "Patriot Investor", dncPolicy: "refuse", postbackUrl: POSTBACK, now: () => T0 },
    );
    expect(result).toMatchObject({ ok: true, pending: false });
    const row = await subscriber("+12124570008");
    expect(row.status).toBe("active");
    expect((await texts("+12124570008")).map((m) => m.kind)).toEqual(["welcome"]);
    const [postback] = await postbacks(row.id);
    expect(postback).toMatchObject({ event: "opt_in", clickId: "click-single" });
    expect(postback!.url).toBe(`http://127.0.0.1:9/postback?cid=click-single&event=opt_in&ts=${T0.getTime() / 1000}`);
  });
});
