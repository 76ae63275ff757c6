import { eq, sql } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { auditLog, campaigns, newsletterIssues } from "~/db/schema";
import { zonedTimeToUtc } from "~/lib/zoned-time";
import { controlCampaign } from "../sending/campaigns.server";
import { nudgeCampaigns } from "../sending/signal.server";

const MAX_AHEAD_DAYS = 366;
/** A newsletter copy not sent within this long after the issue started is dropped, not sent days late. */
const NEWSLETTER_TTL_HOURS = 72;

export type ScheduleResult = { ok: true; at: Date } | { ok: false; message: string; field?: "sendAt" | "zone" };

/**
 * Puts an issue on the schedule ("now", or a wall-clock time in a named zone) as an e-mail
 * campaign of the send engine, which starts it when the time comes on whichever process gets
 * there first, plans every confirmed subscriber and sends each one copy. A scheduled issue can be
 * re-timed until it starts.
 */
export async function scheduleIssue(
  db: Db,
  input: { id: number; actor: string; when: "now" | { local: string; zone: string } },
  now = new Date(),
): Promise<ScheduleResult> {
  let at = now;
  if (input.when !== "now") {
    const parsed = zonedTimeToUtc(input.when.local, input.when.zone);
    if (!parsed) return { ok: false, field: "sendAt", message: "Enter a date and time that exists in the chosen time zone." };
    if (parsed.getTime() < now.getTime() - 60_000) return { ok: false, field: "sendAt", message: "That time has passed: choose a time in the future, or send now." };
    if (parsed.getTime() > now.getTime() + MAX_AHEAD_DAYS * 86_400_000) return { ok: false, field: "sendAt", message: "Schedule at most a year ahead." };
    at = parsed;
  }
  const zone = input.when === "now" ? null : input.when.zone;
  const result = await db.transaction(async (tx) => {
    const [issue] = await tx.select().from(newsletterIssues).where(eq(newsletterIssues.id, input.id)).for("update");
    if (!issue) return { ok: false as const, message: "No such issue." };
    const values = { name: issue.subject, scheduledAt: at, scheduleZone: zone, expiresAt: new Date(at.getTime() + NEWSLETTER_TTL_HOURS * 3_600_000), updatedAt: sql`now()` };
    if (issue.campaignId) {
      const [retimed] = await tx
        .update(campaigns)
        .set({ ...values, version: sql`${campaigns.version} + 1` })
        .where(sql`${campaigns.id} = ${issue.campaignId} AND ${campaigns.status} = 'scheduled'`)
        .returning({ id: campaigns.id });
      if (!retimed) return { ok: false as const, message: "This issue is being sent or was sent already." };
    } else {
      const [campaign] = await tx
        .insert(campaigns)
        .values({ ...values, channel: "email", body: String(issue.id), audience: {}, status: "scheduled", pricePerSegment: "0", createdBy: input.actor })
        .returning({ id: campaigns.id });
      await tx.update(newsletterIssues).set({ campaignId: campaign!.id, updatedAt: sql`now()` }).where(eq(newsletterIssues.id, issue.id));
    }
    await tx.insert(auditLog).values({
      actor: input.actor,
      action: input.when === "now" ? "newsletter.send_now" : "newsletter.schedule",
      entity: `newsletter_issue:${input.id}`,
      after: JSON.stringify({ at: at.toISOString(), zone }),
    });
    return { ok: true as const, at };
  });
  if (result.ok && input.when === "now") nudgeCampaigns();
  return result;
}

/** Stops an issue that has not gone out to everyone: queued copies are cancelled, sent ones stay sent. */
export async function cancelIssue(db: Db, input: { id: number; actor: string }) {
  const [issue] = await db.select({ campaignId: newsletterIssues.campaignId }).from(newsletterIssues).where(eq(newsletterIssues.id, input.id));
  if (!issue?.campaignId) return { ok: false as const, message: "This issue is not scheduled." };
  const result = await controlCampaign(db, { id: issue.campaignId, action: "cancel", actor: input.actor });
  if (!result.ok) return { ok: false as const, message: result.message };
  await db.insert(auditLog).values({ actor: input.actor, action: "newsletter.cancel", entity: `newsletter_issue:${input.id}` });
  return { ok: true as const };
}
