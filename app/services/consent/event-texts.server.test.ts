import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { asc, eq, isNull, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { campaignRecipients, consentEvents, subscribers } from "~/db/schema";
import { DB_KINDS, NO_EVIDENCE, useTestDatabase } from "../../../tests/support/test-db";
import { handleInboundSms } from "../subscription/inbound-sms.server";
import { optInToSms } from "../subscription/sms-opt-in.server";
import { textsOfConsentEvents } from "./event-texts.server";

const SITE = { name: "Patriot Investor", email: "info@patriotinvestor.example", phone: "1-800-555-0199" };
const SETTINGS = { siteName: "Patriot Investor", dncPolicy: "refuse" as const };

/** The hand-written statements of the migration that added the link: those that fill it in for older texts. */
function backfillStatements() {
  const folder = path.resolve("drizzle");
  const file = readdirSync(folder).find((name) => name.endsWith("_consent_reply_texts.sql"));
  return readFileSync(path.join(folder, file!), "utf8")
    .split("--> statement-breakpoint")
    .map((statement) => statement.replace(/^\s*--.*$/gm, "").trim())
    .filter((statement) => statement.startsWith("UPDATE"));
}

describe.each(DB_KINDS)("texts of consent events on %s", (kind) => {
  const database = useTestDatabase(kind);

  it("finds each event's texts by its id, and the migration links texts queued before the column by their dedupe keys", async () => {
    const { db } = database;
    for (const [phone, doubleOptIn] of [
      ["(212) 456-7101", false],
      ["(212) 456-7102", true],
    ] as const) {
      const result = await optInToSms(
        db,
        {
          firstName: "Ann",
          lastName: "Lee",
          phone,
          smsConsent: true,
          termsConsent: true,
          source: "opt-in",
          evidence: NO_EVIDENCE,
        },
        { ...SETTINGS, doubleOptIn },
      );
      expect(result).toMatchObject({ ok: true });
    }
    await handleInboundSms(db, { messageSid: `SM${"1".repeat(32)}`, from: "+12124567101", body: "HELP" }, SITE);
    await handleInboundSms(db, { messageSid: `SM${"2".repeat(32)}`, from: "+12124567101", body: "STOP" }, SITE);
    await handleInboundSms(db, { messageSid: `SM${"3".repeat(32)}`, from: "+12124567101", body: "START" }, SITE);
    await handleInboundSms(db, { messageSid: `SM${"4".repeat(32)}`, from: "+12124567102", body: "Y" }, SITE);
    // A number we never had: its answer belongs to no event.
    await handleInboundSms(db, { messageSid: `SM${"5".repeat(32)}`, from: "+12124567103", body: "HELP" }, SITE);

    const events = await db.select().from(consentEvents).orderBy(asc(consentEvents.id));
    expect(events.map((event) => event.action)).toEqual([
      "opt_in",
      "opt_in",
      "help",
      "opt_out",
      "start",
      "doi_confirmed",
    ]);
    const texts = await textsOfConsentEvents(
      db,
      events.map((event) => event.id),
    );
    expect(events.map((event) => (texts.get(event.id) ?? []).map((text) => text.kind))).toEqual([
      ["welcome"],
      ["doi_request"],
      ["help"],
      ["stop_confirmation"],
      ["start_confirmation"],
      ["welcome"],
    ]);
    expect(await textsOfConsentEvents(db, [])).toEqual(new Map());

    // As the rows stood before the column: the migration's statements link them again, the same way.
    const linked = async () =>
      (
        await db
          .select({ key: campaignRecipients.dedupeKey, event: campaignRecipients.consentEventId })
          .from(campaignRecipients)
          .orderBy(asc(campaignRecipients.id))
      ).map((row) => `${row.key} -> ${row.event}`);
    const before = await linked();
    await db.update(campaignRecipients).set({ consentEventId: null });
    expect(await db.select().from(campaignRecipients).where(isNull(campaignRecipients.consentEventId))).toHaveLength(7);
    const statements = backfillStatements();
    expect(statements).toHaveLength(2);
    for (const statement of statements) await db.execute(sql.raw(statement));
    expect(await linked()).toEqual(before);
    expect(before.at(-1)).toBe(`help:SM${"5".repeat(32)} -> null`);
    expect(await db.select().from(subscribers).where(eq(subscribers.phoneE164, "+12124567103"))).toHaveLength(0);
  });
});
