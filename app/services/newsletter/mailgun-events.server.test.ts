import { randomBytes } from "node:crypto";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { consentEvents, subscribers } from "~/db/schema";
import { DB_KINDS, useTestDatabase } from "../../../tests/support/test-db";
import { applyMailgunEvent, mailgunSignature, verifyMailgunWebhook } from "./mailgun-events.server";

const KEY = "key-0123456789abcdef0123456789abcdef";

export function signedMailgunEvent(eventData: Record<string, unknown>, key = KEY, timestamp = String(Math.floor(Date.now() / 1000))) {
  const token = randomBytes(25).toString("hex");
  return { signature: { timestamp, token, signature: mailgunSignature(key, timestamp, token) }, "event-data": eventData };
}

describe("Mailgun webhook signature", () => {
  const event = { id: "evt-1", event: "failed", severity: "permanent", recipient: "a@example.com" };

  it("accepts a body signed with the key and refuses a wrong key, a changed token, an old timestamp and a bad shape", () => {
    expect(verifyMailgunWebhook(signedMailgunEvent(event), KEY)).toMatchObject({ ok: true });
    expect(verifyMailgunWebhook(signedMailgunEvent(event, "key-another-key-0000000000000000"), KEY)).toMatchObject({ ok: false, status: 403 });
    const tampered = signedMailgunEvent(event);
    tampered.signature.token = tampered.signature.token.replace(/^./, (c) => (c === "a" ? "b" : "a"));
    expect(verifyMailgunWebhook(tampered, KEY)).toMatchObject({ ok: false, status: 403 });
    const old = signedMailgunEvent(event, KEY, String(Math.floor(Date.now() / 1000) - 13 * 3600));
    expect(verifyMailgunWebhook(old, KEY)).toMatchObject({ ok: false, status: 403 });
    expect(verifyMailgunWebhook({ "event-data": event }, KEY)).toMatchObject({ ok: false, status: 400 });
    expect(verifyMailgunWebhook("nonsense", KEY)).toMatchObject({ ok: false, status: 400 });
  });

  it("an event with a timestamp or message of another shape is still accepted, without them", () => {
    const odd = signedMailgunEvent({ id: "evt-odd", event: "complained", recipient: "b@example.com", timestamp: "yesterday", message: "not an object" });
    const verdict = verifyMailgunWebhook(odd, KEY);
    expect(verdict).toMatchObject({ ok: true });
    expect(verdict.ok && verdict.webhook["event-data"]).toMatchObject({ id: "evt-odd", timestamp: undefined, message: undefined });
  });
});

describe.each(DB_KINDS)("Mailgun events on %s", (kind) => {
  const database = useTestDatabase(kind);
  const add = (email: string, status: "active" | "unsubscribed" = "active") =>
    database.db.insert(subscribers).values({ channel: "email", email, firstName: "A", lastName: "B", status, source: "newsletter", emailToken: randomBytes(32).toString("base64url") });
  const statusOf = async (email: string) => (await database.db.select().from(subscribers).where(eq(subscribers.email, email)))[0]!.status;

  it("a hard bounce and a complaint suppress the address once; a soft bounce and a redelivery change nothing", async () => {
    const { db } = database;
    await add("hard@example.com");
    await add("soft@example.com");
    await add("angry@example.com", "unsubscribed");
    expect(await applyMailgunEvent(db, { id: "b1", event: "failed", severity: "temporary", recipient: "soft@example.com" })).toMatchObject({ applied: false });
    expect(await statusOf("soft@example.com")).toBe("active");
    expect(await applyMailgunEvent(db, { id: "b2", event: "failed", severity: "permanent", recipient: "HARD@example.com" })).toMatchObject({ applied: true, status: "bounced" });
    expect(await applyMailgunEvent(db, { id: "b2", event: "failed", severity: "permanent", recipient: "hard@example.com" })).toMatchObject({ applied: false, reason: "duplicate" });
    expect(await statusOf("hard@example.com")).toBe("bounced");
    // A complaint suppresses even an address that had unsubscribed; a later unsubscribe event does not lift a suppression.
    await applyMailgunEvent(db, { id: "c1", event: "complained", recipient: "angry@example.com" });
    await applyMailgunEvent(db, { id: "u1", event: "unsubscribed", recipient: "angry@example.com" });
    expect(await statusOf("angry@example.com")).toBe("complained");
    const actionsOf = async (email: string) => {
      const [row] = await db.select().from(subscribers).where(eq(subscribers.email, email));
      return (await db.select().from(consentEvents).where(eq(consentEvents.subscriberId, row!.id))).map((event) => event.action);
    };
    expect(await actionsOf("hard@example.com")).toEqual(["email_bounce"]);
    // Every report is the person's record, whether or not it changed the status; a soft bounce is not.
    expect(await actionsOf("angry@example.com")).toEqual(["email_complaint", "email_unsubscribe"]);
    expect(await actionsOf("soft@example.com")).toEqual([]);
  });
});
