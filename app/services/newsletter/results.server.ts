import { sql } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { campaignResults, OPT_OUT_WINDOW_DAYS } from "../sending/results.server";

/**
 * An issue's results: the engine's ledger figures (planned, sent, failed and skipped with reasons,
 * clicks, rate) plus what the people did within 7 days of their copy: hard bounces and complaints
 * reported by the provider, and unsubscribes (one-click, preferences page or provider).
 */
export async function newsletterResults(db: Db, campaignId: string) {
  const [base, after] = await Promise.all([
    campaignResults(db, campaignId, 0),
    db.execute<{ bounced: number | string; complained: number | string; unsubscribed: number | string }>(sql`
      SELECT count(DISTINCT r.subscriber_id) FILTER (WHERE e.action = 'email_bounce')::int AS bounced,
        count(DISTINCT r.subscriber_id) FILTER (WHERE e.action = 'email_complaint')::int AS complained,
        count(DISTINCT r.subscriber_id) FILTER (WHERE e.action = 'email_unsubscribe')::int AS unsubscribed
      FROM campaign_recipients r
      JOIN consent_events e ON e.subscriber_id = r.subscriber_id AND e.channel = 'email'
        AND e.action IN ('email_bounce', 'email_complaint', 'email_unsubscribe')
        AND e.occurred_at >= r.sent_at AND e.occurred_at < r.sent_at + make_interval(days => ${OPT_OUT_WINDOW_DAYS})
      WHERE r.campaign_id = ${campaignId} AND r.state IN ('sent', 'failed')`),
  ]);
  const row = after.rows[0];
  return {
    planned: base.planned,
    queued: base.queued,
    sending: base.sending,
    sent: base.sent,
    failed: base.failed,
    skipped: base.skipped,
    cancelled: base.cancelled,
    failedReasons: base.failedReasons,
    skippedReasons: base.skippedReasons,
    bounced: Number(row?.bounced ?? 0),
    complained: Number(row?.complained ?? 0),
    unsubscribed: Number(row?.unsubscribed ?? 0),
    clicks: base.clicks,
    uniqueClickers: base.uniqueClickers,
    currentRate: base.currentRate,
  };
}

export type NewsletterResults = Awaited<ReturnType<typeof newsletterResults>>;
