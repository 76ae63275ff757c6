import { and, eq, inArray, sql } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { auditLog, newsletterIssues } from "~/db/schema";
import { zonedLocalToUtc } from "~/lib/zoned-time";

const MAX_AHEAD_DAYS = 366;

export type ScheduleResult = { ok: true; at: Date } | { ok: false; message: string; field?: "sendAt" | "zone" };

/**
 * Puts a draft (or re-times a scheduled issue) on the schedule: "now", or a wall-clock time in a
 * named zone. The sending job starts it when the time comes, on whichever process gets there first.
 */
export async function scheduleIssue(
  db: Db,
  input: { id: number; actor: string; when: "now" | { local: string; zone: string } },
  now = new Date(),
): Promise<ScheduleResult> {
  let at = now;
  if (input.when !== "now") {
    const parsed = zonedLocalToUtc(input.when.local, input.when.zone);
    if (!parsed) return { ok: false, field: "sendAt", message: "Enter a date and time that exists in the chosen time zone." };
    if (parsed.getTime() < now.getTime() - 60_000) return { ok: false, field: "sendAt", message: "That time has passed: choose a time in the future, or send now." };
    if (parsed.getTime() > now.getTime() + MAX_AHEAD_DAYS * 86_400_000) return { ok: false, field: "sendAt", message: "Schedule at most a year ahead." };
    at = parsed;
  }
  return db.transaction(async (tx) => {
    const [row] = await tx
      .update(newsletterIssues)
      .set({ status: "scheduled", scheduledAt: at, updatedAt: sql`now()` })
      .where(and(eq(newsletterIssues.id, input.id), inArray(newsletterIssues.status, ["draft", "scheduled"])))
      .returning({ id: newsletterIssues.id });
    if (!row) return { ok: false as const, message: "This issue is being sent or was sent already." };
    await tx.insert(auditLog).values({
      actor: input.actor,
      action: input.when === "now" ? "newsletter.send_now" : "newsletter.schedule",
      entity: `newsletter_issue:${input.id}`,
      after: JSON.stringify({ at: at.toISOString(), ...(input.when === "now" ? {} : { local: input.when.local, zone: input.when.zone }) }),
    });
    return { ok: true as const, at };
  });
}

/** Stops an issue that has not gone out to everyone; copies already sent stay sent. */
export async function cancelIssue(db: Db, input: { id: number; actor: string }) {
  return db.transaction(async (tx) => {
    const [row] = await tx
      .update(newsletterIssues)
      .set({ status: "cancelled", updatedAt: sql`now()` })
      .where(and(eq(newsletterIssues.id, input.id), inArray(newsletterIssues.status, ["scheduled", "sending"])))
      .returning({ id: newsletterIssues.id });
    if (!row) return { ok: false as const, message: "Only a scheduled issue or one being sent can be cancelled." };
    await tx.insert(auditLog).values({ actor: input.actor, action: "newsletter.cancel", entity: `newsletter_issue:${input.id}` });
    return { ok: true as const };
  });
}
