import { eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { consentEvents, dncImports, dncNumbers, smsConfig, subscribers } from "~/db/schema";
import { DB_KINDS, NO_EVIDENCE, useTestDatabase } from "../../../tests/support/test-db";
import { selectTexts, texts } from "../../../tests/support/texts";
import { optInToSms, type SmsOptInInput } from "./sms-opt-in.server";
import { smsDisclosureText } from "~/lib/consent-texts";
import { forgetDncDataDate } from "../dnc/dnc.server";

const SETTINGS = { siteName: "Patriot Investor", dncPolicy: "refuse" as const };

function input(overrides: Partial<SmsOptInInput> = {}): SmsOptInInput {
  return {
    firstName: "Betsy",
    lastName: "Ross",
    phone: "(212) 456-7890",
    clickId: "click-123",
    smsConsent: true,
    termsConsent: true,
    source: "opt-in",
    evidence: NO_EVIDENCE,
    ...overrides,
  };
}

describe.each(DB_KINDS)("SMS opt-in on %s", (kind) => {
  const database = useTestDatabase(kind);

  it("stores the subscriber, the consent evidence and the welcome text in one go", async () => {
    const { db } = database;
    const result = await optInToSms(db, input({ phone: "212-456-0001" }), SETTINGS);
    expect(result).toMatchObject({ ok: true, created: true });
    const [subscriber] = await db.select().from(subscribers).where(eq(subscribers.phoneE164, "+12124560001"));
    expect(subscriber).toMatchObject({ channel: "sms", status: "active", firstName: "Betsy", source: "opt-in", clickId: "click-123" });
    const events = await db.select().from(consentEvents).where(eq(consentEvents.subscriberId, subscriber!.id));
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      action: "opt_in",
      phoneE164: "+12124560001",
      phoneRaw: "212-456-0001",
      consentText: smsDisclosureText("Patriot Investor"),
      smsCheckbox: true,
      termsCheckbox: true,
      ip: "203.0.113.7",
      userAgent: "vitest",
      pageUrl: "http://localhost/opt-in",
      clickId: "click-123",
      dncResult: "clear",
    });
    expect(events[0]!.consentTextSha256).toMatch(/^[0-9a-f]{64}$/);
    const [config] = await db.select().from(smsConfig);
    const messages = await selectTexts(db).where(eq(texts.toPhone, "+12124560001"));
    expect(messages).toHaveLength(1);
    expect(messages[0]).toMatchObject({ kind: "welcome", status: "queued", body: config!.welcomeMessage });
  });

  it("queues the welcome text that is current at the time of the opt-in", async () => {
    const { db } = database;
    await db.update(smsConfig).set({ welcomeMessage: "Patriot Investor: welcome aboard! Reply STOP to cancel, HELP for help." });
    await optInToSms(db, input({ phone: "212-456-0002" }), SETTINGS);
    const [message] = await selectTexts(db).where(eq(texts.toPhone, "+12124560002"));
    expect(message!.body).toBe("Patriot Investor: welcome aboard! Reply STOP to cancel, HELP for help.");
  });

  it("is idempotent: 50 concurrent opt-ins of one number make one subscriber and one welcome", async () => {
    const { db } = database;
    const results = await Promise.all(Array.from({ length: 50 }, () => optInToSms(db, input({ phone: "212-456-0003" }), SETTINGS)));
    expect(results.every((r) => r.ok)).toBe(true);
    expect(results.filter((r) => r.ok && r.created)).toHaveLength(1);
    const rows = await db.select().from(subscribers).where(eq(subscribers.phoneE164, "+12124560003"));
    expect(rows).toHaveLength(1);
    expect(await selectTexts(db).where(eq(texts.toPhone, "+12124560003"))).toHaveLength(1);
    expect(await db.select().from(consentEvents).where(eq(consentEvents.subscriberId, rows[0]!.id))).toHaveLength(1);
  });

  it("refuses a number on the Do-Not-Call list, sends nothing and records the decision", async () => {
    const { db } = database;
    await db.insert(dncNumbers).values({ phone: "2124560004", source: "federal" });
    await db.insert(dncImports).values({ fileName: "t.txt", sha256: "x", mode: "add", dataDate: "2026-11-01", lines: 1, changed: 1, badLines: 0 });
    forgetDncDataDate(); // the import command does this; the test wrote the row by hand
    const result = await optInToSms(db, input({ phone: "212-456-0004" }), SETTINGS);
    expect(result).toEqual({ ok: false, code: "dnc" });
    expect(await selectTexts(db).where(eq(texts.toPhone, "+12124560004"))).toHaveLength(0);
    const [subscriber] = await db.select().from(subscribers).where(eq(subscribers.phoneE164, "+12124560004"));
    expect(subscriber!.status).toBe("refused_dnc");
    const [event] = await db.select().from(consentEvents).where(eq(consentEvents.subscriberId, subscriber!.id));
    expect(event).toMatchObject({ action: "refused_dnc", dncResult: "federal", dncDataDate: "2026-11-01", dncPolicy: "refuse" });
  });

  it("accepts a registry number under allow_with_consent, but never one on our own opt-out list", async () => {
    const { db } = database;
    await db.insert(dncNumbers).values([
      { phone: "2124560005", source: "federal" },
      { phone: "2124560006", source: "internal" },
    ]);
    const allowed = await optInToSms(db, input({ phone: "212-456-0005" }), { ...SETTINGS, dncPolicy: "allow_with_consent" });
    expect(allowed).toMatchObject({ ok: true });
    const [event] = await db.select().from(consentEvents).where(eq(consentEvents.phoneE164, "+12124560005"));
    expect(event!.dncResult).toBe("federal");
    const refused = await optInToSms(db, input({ phone: "212-456-0006" }), { ...SETTINGS, dncPolicy: "allow_with_consent" });
    expect(refused).toEqual({ ok: false, code: "dnc" });
  });

  it.each([
    [{ termsConsent: false }, "terms_consent_required"],
    [{ smsConsent: false }, "sms_consent_required"],
    [{ phone: "(212) 555-0123" }, "invalid_phone"],
    [{ phone: "(800) 234-5678" }, "invalid_phone"],
    [{ phone: "(416) 234-5678" }, "invalid_phone"],
  ] as const)("refuses %o with %s and stores nothing", async (overrides, code) => {
    const { db } = database;
    const before = await db.execute<{ n: number }>(sql`SELECT count(*)::int AS n FROM subscribers`);
    const result = await optInToSms(db, input(overrides), SETTINGS);
    expect(result).toMatchObject({ ok: false, code });
    const after = await db.execute<{ n: number }>(sql`SELECT count(*)::int AS n FROM subscribers`);
    expect(after.rows[0]!.n).toBe(before.rows[0]!.n);
  });

  it("keeps consent events append-only", async () => {
    const { db } = database;
    const failure = (promise: Promise<unknown>) =>
      promise.then(
        () => "succeeded",
        (error: Error & { cause?: Error }) => `${error.message} ${error.cause?.message ?? ""}`,
      );
    expect(await failure(db.execute(sql`UPDATE consent_events SET ip = 'x'`))).toMatch(/append-only/);
    expect(await failure(db.execute(sql`DELETE FROM consent_events`))).toMatch(/append-only/);
  });
});
