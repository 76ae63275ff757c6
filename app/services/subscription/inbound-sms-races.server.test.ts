import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { consentEvents, subscribers } from "~/db/schema";
import { useTestDatabase } from "../../../tests/support/test-db";
import { selectTexts, texts } from "../../../tests/support/texts";
import { raceAgainstUncommitted, useSecondHandle } from "../../../tests/support/races";
import { handleInboundSms } from "./inbound-sms.server";

const SITE = { name: "Patriot Investor", email: "info@patriotinvestor.example", phone: "1-800-555-0199" };

/**
 * Texts handled by two processes at once, the race made certain with a transaction of the other
 * process that has written but not committed (PostgreSQL only: the embedded database runs one
 * transaction at a time, so its checks always see the other's row).
 */
describe("inbound texts raced by another process, on postgres", () => {
  const database = useTestDatabase("postgres");
  const other = useSecondHandle(database);

  it("a STOP from a number another process is adding at that moment opts that subscriber out", async () => {
    const { db } = database;
    const e164 = "+12124563101";
    const result = await raceAgainstUncommitted(
      db,
      other.db,
      (tx) => tx.insert(subscribers).values({ channel: "sms", phoneE164: e164, firstName: "A", lastName: "B", status: "active", source: "opt-in" }),
      () => handleInboundSms(db, { messageSid: `SM${"1".repeat(32)}`, from: e164, body: "STOP" }, SITE),
    );
    expect(result).toEqual({ intent: "stop", changed: true, replied: true });
    const rows = await db.select().from(subscribers).where(eq(subscribers.phoneE164, e164));
    expect(rows).toMatchObject([{ status: "opted_out" }]);
  });

  it("the same message delivered to both processes at once counts once and is answered once", async () => {
    const { db } = database;
    const e164 = "+12124563102";
    const messageSid = `SM${"2".repeat(32)}`;
    const [subscriber] = await db
      .insert(subscribers)
      .values({ channel: "sms", phoneE164: e164, firstName: "A", lastName: "B", status: "active", source: "opt-in" })
      .returning({ id: subscribers.id });
    // The other process is handling the same STOP: its opt-out event (with the message's SID) is written, not yet committed.
    const result = await raceAgainstUncommitted(
      db,
      other.db,
      (tx) => tx.insert(consentEvents).values({ subscriberId: subscriber!.id, channel: "sms", action: "opt_out", source: "sms", inboundMessageSid: messageSid, inboundBody: "STOP", phoneE164: e164 }),
      () => handleInboundSms(db, { messageSid, from: e164, body: "STOP" }, SITE),
    );
    expect(result).toEqual({ intent: "stop", changed: false, replied: false });
    expect(await db.select().from(consentEvents).where(eq(consentEvents.inboundMessageSid, messageSid))).toHaveLength(1);
    expect(await selectTexts(db).where(and(eq(texts.toPhone, e164), eq(texts.kind, "stop_confirmation")))).toHaveLength(0);
  });
});
