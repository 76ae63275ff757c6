import { and, eq, sql } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { campaignRecipients } from "~/db/schema";

/**
 * Twilio's delivery states in the order a message passes through them. Callbacks can arrive out of
 * order ("sent" after "delivered"), so a status only replaces one of a lower rank. The final
 * states share the top rank: the first one reported stands.
 */
const STATUS_RANK: Record<string, number> = {
  logged: 1,
  accepted: 1,
  scheduled: 1,
  queued: 1,
  sending: 2,
  sent: 3,
  delivered: 4,
  undelivered: 4,
  failed: 4,
  read: 4,
  canceled: 4,
};

const rankOf = (status: string) => STATUS_RANK[status.toLowerCase()] ?? 0;

const currentRank = sql.raw(
  `CASE lower(coalesce(provider_status, '')) ${Object.entries(STATUS_RANK)
    .map(([status, rank]) => `WHEN '${status}' THEN ${rank}`)
    .join(" ")} ELSE 0 END`,
);

export type DeliveryReport = { messageSid: string; status: string; errorCode?: string | null };

/** Records a provider status callback; returns whether it changed the message. */
export async function recordDeliveryStatus(db: Db, report: DeliveryReport) {
  const rank = rankOf(report.status);
  if (rank === 0) return false;
  // Campaign texts and texts of their own (welcomes, replies, codes) share the engine's ledger
  // (decision 068); the provider's id finds either.
  const campaignRow = await db
    .update(campaignRecipients)
    .set({
      providerStatus: report.status.toLowerCase(),
      ...(report.errorCode ? { error: `Twilio error ${report.errorCode.slice(0, 10)}` } : {}),
    })
    .where(and(eq(campaignRecipients.providerId, report.messageSid), sql`${currentRank} < ${rank}`))
    .returning({ id: campaignRecipients.id });
  return campaignRow.length > 0;
}
