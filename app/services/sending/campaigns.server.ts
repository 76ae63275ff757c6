import { randomUUID } from "node:crypto";
import { and, desc, eq, sql } from "drizzle-orm";
import { z } from "zod";
import type { Db } from "~/db/client.server";
import { auditLog, campaignRecipients, campaigns } from "~/db/schema";
import { withShortLinkPlaceholders } from "~/lib/short-links";
import { SCHEDULE_ZONES } from "~/lib/zoned-time";
import { checkUsMobile } from "~/lib/phone";
import { enqueueSms } from "./outbox.server";
import { AudienceSchema, countReach, type Audience } from "./audience.server";
import { renderLinks } from "./links.server";
import { nudgeCampaigns, nudgeTexts } from "./signal.server";
import { smsSegments } from "./sms-channel.server";

/** Above this many recipients the admin types the count to confirm (and gives a fresh 2FA code). */
export const CONFIRM_ABOVE = 1_000;

export const CampaignDraftSchema = z.object({
  name: z.string().trim().min(1, "Give the alert a name.").max(100, "The name is at most 100 characters."),
  body: z.string().trim().min(1, "Write the message.").max(1600, "The message is at most 1,600 characters."),
  audience: AudienceSchema,
});

export type CampaignDraft = z.infer<typeof CampaignDraftSchema>;
export type CampaignRow = typeof campaigns.$inferSelect;

type Result<T = object> = ({ ok: true } & T) | { ok: false; code: "not_found" | "stale" | "wrong_state" | "confirm" | "second_factor" | "invalid"; message: string; expected?: number };

const audit = (db: Pick<Db, "insert">, actor: string, action: string, id: string, before: unknown, after: unknown) =>
  db.insert(auditLog).values({ actor, action: `campaign.${action}`, entity: `campaign:${id}`, before: before === undefined ? null : JSON.stringify(before), after: after === undefined ? null : JSON.stringify(after) });

/** Segments of the text as it will be sent (each URL counted as its short link). */
export function estimateSegments(body: string, siteUrl: string) {
  return smsSegments(withShortLinkPlaceholders(body, siteUrl));
}

/** Creates a draft, or updates one (only drafts change; `version` guards against overwriting another admin). */
export async function saveDraft(
  db: Db,
  input: CampaignDraft & { id?: string; version?: number; actor: string; siteUrl: string; pricePerSegment: number },
): Promise<Result<{ campaign: CampaignRow }>> {
  const values = {
    name: input.name,
    body: input.body,
    audience: input.audience,
    segments: estimateSegments(input.body, input.siteUrl),
    pricePerSegment: String(input.pricePerSegment),
  };
  if (!input.id) {
    const [campaign] = await db.insert(campaigns).values({ ...values, channel: "sms", createdBy: input.actor }).returning();
    await audit(db, input.actor, "draft_created", campaign!.id, undefined, values);
    return { ok: true, campaign: campaign! };
  }
  return db.transaction(async (tx) => {
    const [before] = await tx.select().from(campaigns).where(eq(campaigns.id, input.id!)).for("update");
    if (!before) return { ok: false as const, code: "not_found" as const, message: "That alert no longer exists." };
    if (before.status !== "draft") return { ok: false as const, code: "wrong_state" as const, message: "Only a draft can be edited." };
    if (input.version !== undefined && before.version !== input.version) {
      return { ok: false as const, code: "stale" as const, message: "Someone else changed this draft since you opened it. Reload it, then make your change again." };
    }
    const [campaign] = await tx
      .update(campaigns)
      .set({ ...values, version: before.version + 1, updatedAt: sql`now()` })
      .where(eq(campaigns.id, input.id!))
      .returning();
    await audit(tx, input.actor, "draft_saved", before.id, { name: before.name, body: before.body, audience: before.audience }, values);
    return { ok: true as const, campaign: campaign! };
  });
}

export const ScheduleSchema = z.discriminatedUnion("when", [
  z.object({ when: z.literal("now") }),
  z.object({ when: z.literal("later"), at: z.date(), zone: z.enum(SCHEDULE_ZONES.map((zone) => zone.zone) as [string, ...string[]]) }),
]);

/**
 * Schedules a draft (or sends it now). Over CONFIRM_ABOVE recipients the typed count must match
 * the count the admin was shown, and that count must still be right within 1% (new opt-ins).
 */
export async function scheduleCampaign(
  db: Db,
  input: {
    id: string;
    schedule: z.infer<typeof ScheduleSchema>;
    typedCount?: number;
    shownCount?: number;
    actor: string;
    dncPolicy: "refuse" | "allow_with_consent";
    now?: Date;
    /** Above this many recipients the typed count (and the second factor) is required; default CONFIRM_ABOVE. */
    confirmAbove?: number;
    /** For admins with two-factor sign-in: a fresh code, asked for only above the threshold. */
    verifySecondFactor?: () => Promise<boolean>;
  },
): Promise<Result<{ reachable: number }>> {
  const now = input.now ?? new Date();
  const [campaign] = await db.select().from(campaigns).where(eq(campaigns.id, input.id));
  if (!campaign) return { ok: false, code: "not_found", message: "That alert no longer exists." };
  if (campaign.status !== "draft") return { ok: false, code: "wrong_state", message: `This alert is ${campaign.status}; only a draft can be scheduled.` };
  if (input.schedule.when === "later" && input.schedule.at.getTime() <= now.getTime()) {
    return { ok: false, code: "invalid", message: "Pick a time in the future, or send now." };
  }
  const reach = await countReach(db, AudienceSchema.parse(campaign.audience), input.dncPolicy, now);
  if (reach.reachable === 0) return { ok: false, code: "invalid", message: "Nobody can be reached with these filters." };
  if (reach.reachable > (input.confirmAbove ?? CONFIRM_ABOVE)) {
    const shown = input.shownCount ?? -1;
    if (input.typedCount !== shown || Math.abs(reach.reachable - shown) > Math.max(1, reach.reachable * 0.01)) {
      return { ok: false, code: "confirm", message: `Type the number of recipients (${reach.reachable.toLocaleString("en-US")}) to confirm.`, expected: reach.reachable };
    }
    if (input.verifySecondFactor && !(await input.verifySecondFactor())) {
      return { ok: false, code: "second_factor", message: "Enter a current code from your authenticator app." };
    }
  }
  const scheduledAt = input.schedule.when === "now" ? now : input.schedule.at;
  const updated = await db
    .update(campaigns)
    .set({ status: "scheduled", scheduledAt, scheduleZone: input.schedule.when === "later" ? input.schedule.zone : null, version: sql`${campaigns.version} + 1`, updatedAt: sql`now()` })
    .where(and(eq(campaigns.id, input.id), eq(campaigns.status, "draft")))
    .returning({ id: campaigns.id });
  if (updated.length === 0) return { ok: false, code: "wrong_state", message: "This alert changed meanwhile; reload it." };
  await audit(db, input.actor, input.schedule.when === "now" ? "send_now" : "scheduled", input.id, { status: "draft" }, { status: "scheduled", scheduledAt, zone: input.schedule.when === "later" ? input.schedule.zone : null, reachable: reach.reachable });
  if (input.schedule.when === "now") nudgeCampaigns();
  return { ok: true, reachable: reach.reachable };
}

const TRANSITIONS = {
  pause: { from: ["sending"], to: "paused" },
  resume: { from: ["paused"], to: "sending" },
  cancel: { from: ["scheduled", "sending", "paused"], to: "cancelled" },
  unschedule: { from: ["scheduled"], to: "draft" },
} as const;

export type CampaignControl = keyof typeof TRANSITIONS;

/** Pause, resume, cancel (queued messages are cancelled; one already with the provider finishes) or unschedule. */
export async function controlCampaign(db: Db, input: { id: string; action: CampaignControl; actor: string }): Promise<Result> {
  const rule = TRANSITIONS[input.action];
  return db.transaction(async (tx) => {
    const [campaign] = await tx.select({ status: campaigns.status }).from(campaigns).where(eq(campaigns.id, input.id)).for("update");
    if (!campaign) return { ok: false as const, code: "not_found" as const, message: "That alert no longer exists." };
    if (!(rule.from as readonly string[]).includes(campaign.status)) {
      return { ok: false as const, code: "wrong_state" as const, message: `A ${campaign.status} alert cannot be ${input.action === "cancel" ? "cancelled" : `${input.action}d`}.` };
    }
    await tx
      .update(campaigns)
      .set({ status: rule.to, updatedAt: sql`now()`, version: sql`${campaigns.version} + 1`, ...(rule.to === "cancelled" ? { finishedAt: sql`now()` } : {}) })
      .where(eq(campaigns.id, input.id));
    if (rule.to === "cancelled") {
      await tx
        .update(campaignRecipients)
        .set({ state: "cancelled", reason: "cancelled", updatedAt: sql`now()` })
        .where(and(eq(campaignRecipients.campaignId, input.id), eq(campaignRecipients.state, "queued")));
    }
    await audit(tx, input.actor, input.action, input.id, { status: campaign.status }, { status: rule.to });
    if (rule.to === "sending") nudgeCampaigns();
    return { ok: true as const };
  });
}

export async function listCampaigns(db: Db, limit = 50) {
  return db
    .select({ id: campaigns.id, name: campaigns.name, status: campaigns.status, scheduledAt: campaigns.scheduledAt, scheduleZone: campaigns.scheduleZone, plannedCount: campaigns.plannedCount, createdAt: campaigns.createdAt, createdBy: campaigns.createdBy })
    .from(campaigns)
    .where(eq(campaigns.channel, "sms"))
    .orderBy(desc(campaigns.createdAt))
    .limit(limit);
}

export async function getCampaign(db: Db, id: string) {
  if (!z.uuid().safeParse(id).success) return null;
  const [campaign] = await db.select().from(campaigns).where(eq(campaigns.id, id));
  return campaign ? { ...campaign, audience: AudienceSchema.parse(campaign.audience) as Audience } : null;
}

/** Texts the alert, with its real short links, to a staff phone through the outbox (not counted in results). */
export async function sendCampaignTest(db: Db, input: { id: string; phone: string; actor: string; siteUrl: string }): Promise<Result> {
  const phone = checkUsMobile(input.phone);
  if (!phone.ok) return { ok: false, code: "invalid", message: phone.message };
  const [campaign] = await db.select({ body: campaigns.body }).from(campaigns).where(eq(campaigns.id, input.id));
  if (!campaign) return { ok: false, code: "not_found", message: "That alert no longer exists." };
  const body = await renderLinks(db, input.id, campaign.body, input.siteUrl);
  await enqueueSms(db, { toPhone: phone.e164, body, kind: "test", dedupeKey: `campaign-test:${randomUUID()}` });
  await audit(db, input.actor, "test_sent", input.id, undefined, { to: phone.e164 });
  nudgeTexts();
  return { ok: true };
}
