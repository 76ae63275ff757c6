import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { auditLog, smsConfig } from "~/db/schema";
import { DB_KINDS, useTestDatabase } from "../../../tests/support/test-db";
import { selectTexts, texts } from "../../../tests/support/texts";
import { saveWelcomeMessage, sendWelcomeTest } from "./welcome-message.server";

describe.each(DB_KINDS)("saving the welcome message on %s", (kind) => {
  const database = useTestDatabase(kind);

  it("saves the trimmed text, bumps the version and writes the audit log", async () => {
    const { db } = database;
    const [before] = await db.select().from(smsConfig);
    const result = await saveWelcomeMessage(db, { text: "  New text. Reply STOP to cancel.  ", expectedVersion: before!.version, actor: "ann@example.com" });
    expect(result).toEqual({ ok: true, version: before!.version + 1, message: "New text. Reply STOP to cancel." });
    const [after] = await db.select().from(smsConfig);
    expect(after).toMatchObject({ welcomeMessage: "New text. Reply STOP to cancel.", updatedBy: "ann@example.com" });
    const [entry] = await db.select().from(auditLog).where(eq(auditLog.action, "welcome_message.update"));
    expect(entry).toMatchObject({ actor: "ann@example.com", before: before!.welcomeMessage, after: "New text. Reply STOP to cancel." });
  });

  it("refuses a save based on a stale version and keeps the other person's text", async () => {
    const { db } = database;
    const [current] = await db.select().from(smsConfig);
    const first = await saveWelcomeMessage(db, { text: "First editor", expectedVersion: current!.version, actor: "a@example.com" });
    const second = await saveWelcomeMessage(db, { text: "Second editor", expectedVersion: current!.version, actor: "b@example.com" });
    expect(first.ok).toBe(true);
    expect(second).toMatchObject({ ok: false, code: "stale" });
    const [after] = await db.select().from(smsConfig);
    expect(after!.welcomeMessage).toBe("First editor");
    expect(await db.select().from(auditLog).where(eq(auditLog.action, "welcome_message.conflict"))).toHaveLength(1);
  });

  it("refuses an empty text", async () => {
    const [current] = await database.db.select().from(smsConfig);
    expect(await saveWelcomeMessage(database.db, { text: " \n ", expectedVersion: current!.version, actor: "a@example.com" })).toEqual({ ok: false, code: "empty" });
  });

  it("queues the saved text as a test to a typed phone, and refuses a number that cannot get texts", async () => {
    const { db } = database;
    const [config] = await db.select().from(smsConfig);
    expect(await sendWelcomeTest(db, "(212) 456-7777")).toEqual({ ok: true });
    expect(await selectTexts(db).where(eq(texts.toPhone, "+12124567777"))).toMatchObject([
      { kind: "test", status: "queued", body: config!.welcomeMessage },
    ]);
    expect(await sendWelcomeTest(db, "800-234-5678")).toMatchObject({ ok: false, message: expect.stringContaining("Toll-free") });
  });
});
