import { and, eq, sql } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { auditLog, smsConfig } from "~/db/schema";
import { SMS_CONFIG_ID } from "~/db/seed.server";
import { checkUsMobile } from "~/lib/phone";
import { enqueueSms } from "../sending/outbox.server";
import { nudgeTexts } from "../sending/signal.server";
import { getWelcomeConfig } from "../subscription/sms-config.server";

export const WELCOME_MESSAGE_MAX = 1600;

export type SaveWelcomeResult =
  | { ok: true; version: number; message: string }
  | { ok: false; code: "empty" | "too_long" | "stale"; currentVersion?: number };

/**
 * Saves the trimmed welcome text if nobody saved since `expectedVersion` was loaded; the change
 * and its author go to the audit log in the same transaction.
 */
export async function saveWelcomeMessage(
  db: Db,
  input: { text: string; expectedVersion: number; actor: string },
): Promise<SaveWelcomeResult> {
  const message = input.text.trim();
  if (!message) return { ok: false, code: "empty" };
  if (message.length > WELCOME_MESSAGE_MAX) return { ok: false, code: "too_long" };
  return db.transaction(async (tx) => {
    const [current] = await tx.select().from(smsConfig).where(eq(smsConfig.id, SMS_CONFIG_ID)).for("update");
    if (!current) throw new Error("sms_config has no row");
    if (current.version !== input.expectedVersion) {
      await tx.insert(auditLog).values({
        actor: input.actor,
        action: "welcome_message.conflict",
        entity: "sms_config",
        before: current.welcomeMessage,
        after: message,
      });
      return { ok: false as const, code: "stale" as const, currentVersion: current.version };
    }
    const [updated] = await tx
      .update(smsConfig)
      .set({ welcomeMessage: message, version: sql`${smsConfig.version} + 1`, updatedAt: sql`now()`, updatedBy: input.actor })
      .where(and(eq(smsConfig.id, SMS_CONFIG_ID), eq(smsConfig.version, input.expectedVersion)))
      .returning({ version: smsConfig.version });
    await tx.insert(auditLog).values({
      actor: input.actor,
      action: "welcome_message.update",
      entity: "sms_config",
      before: current.welcomeMessage,
      after: message,
    });
    return { ok: true as const, version: updated!.version, message };
  });
}

/** Queues the saved welcome text to a phone an admin typed (a "test" text: no subscriber behind it). */
export async function sendWelcomeTest(db: Db, phoneInput: string): Promise<{ ok: true } | { ok: false; message: string }> {
  const phone = checkUsMobile(phoneInput);
  if (!phone.ok) return { ok: false, message: phone.message };
  const config = await getWelcomeConfig(db);
  await enqueueSms(db, { toPhone: phone.e164, body: config.welcomeMessage, kind: "test", dedupeKey: `test:${crypto.randomUUID()}` });
  nudgeTexts();
  return { ok: true };
}
