import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { campaignRecipients, campaigns, subscribers } from "~/db/schema";
import { DB_KINDS, useTestDatabase } from "../../../tests/support/test-db";
import { recordDeliveryStatus } from "./delivery-status.server";
import { enqueueSms } from "./outbox.server";

describe.each(DB_KINDS)("delivery status callbacks on %s", (kind) => {
  const database = useTestDatabase(kind);

  async function sentMessage(sid: string) {
    const id = await enqueueSms(database.db, { toPhone: "+13125550123", body: "Hi", kind: "welcome", dedupeKey: `status-${sid}` });
    await database.db.update(campaignRecipients).set({ state: "sent", providerId: sid, providerStatus: "queued" }).where(eq(campaignRecipients.id, id!));
    return async () => (await database.db.select().from(campaignRecipients).where(eq(campaignRecipients.id, id!)))[0]!;
  }

  it("moves forward through the states", async () => {
    const read = await sentMessage("SM-forward");
    expect(await recordDeliveryStatus(database.db, { messageSid: "SM-forward", status: "sent" })).toBe(true);
    expect(await recordDeliveryStatus(database.db, { messageSid: "SM-forward", status: "delivered" })).toBe(true);
    expect((await read()).providerStatus).toBe("delivered");
  });

  it("ignores a late callback of an earlier state, and a second final state", async () => {
    const read = await sentMessage("SM-late");
    await recordDeliveryStatus(database.db, { messageSid: "SM-late", status: "undelivered", errorCode: "30003" });
    expect(await recordDeliveryStatus(database.db, { messageSid: "SM-late", status: "sent" })).toBe(false);
    expect(await recordDeliveryStatus(database.db, { messageSid: "SM-late", status: "delivered" })).toBe(false);
    const message = await read();
    expect(message.providerStatus).toBe("undelivered");
    expect(message.error).toBe("Twilio error 30003");
  });

  it("records the callbacks of campaign texts in the campaign ledger", async () => {
    const { db } = database;
    const [person] = await db.insert(subscribers).values({ channel: "sms", phoneE164: "+13125550124", firstName: "A", lastName: "B", status: "active", source: "opt-in" }).returning();
    const [campaign] = await db.insert(campaigns).values({ channel: "sms", name: "c", body: "b", status: "sending" }).returning();
    const [row] = await db
      .insert(campaignRecipients)
      .values({ campaignId: campaign!.id, subscriberId: person!.id, address: person!.phoneE164!, state: "sent", providerId: "SM-campaign", providerStatus: "queued" })
      .returning();
    expect(await recordDeliveryStatus(db, { messageSid: "SM-campaign", status: "delivered" })).toBe(true);
    expect(await recordDeliveryStatus(db, { messageSid: "SM-campaign", status: "sent" })).toBe(false);
    const [after] = await db.select().from(campaignRecipients).where(eq(campaignRecipients.id, row!.id));
    expect(after!.providerStatus).toBe("delivered");
  });

  it("ignores unknown statuses and unknown messages", async () => {
    const read = await sentMessage("SM-unknown");
    expect(await recordDeliveryStatus(database.db, { messageSid: "SM-unknown", status: "teleported" })).toBe(false);
    expect(await recordDeliveryStatus(database.db, { messageSid: "SM-nobody", status: "delivered" })).toBe(false);
    expect((await read()).providerStatus).toBe("queued");
  });
});
