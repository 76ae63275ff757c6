import { sql } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { campaignResults, OPT_OUT_WINDOW_DAYS } from "../sending/results.server";

/**
 * An issue's results. Each figure has one definition (the results panel says it to staff):
 * planned, sent (accepted by the mail server), failed (not accepted: refused or given up),
 * skipped and clicks come from the engine's ledger; bounced counts the addresses whose mailbox
 * does not exist, whether the receiving server refused the copy at once (550 5.1.x, also under
 * failed) or the provider reported a hard bounce within 7 days of an accepted copy; complained and
 * unsubscribed count what people did within 7 days of their copy.
 */
export async function newsletterResults(db: Db, campaignId: string) {
  const [base, after] = await Promise.all([
    campaignResults(db, campaignId, 0),
    db.execute<{ bounced: number | string; complained: number | string; unsubscribed: number | string }>(sql`
      SELECT count(DISTINCT r.subscriber_id) FILTER (WHERE (r.state = 'failed' AND r.reason = 'mailbox_rejected') OR e.action = 'email_bounce')::int AS bounced,
        count(DISTINCT r.subscriber_id) FILTER (WHERE e.action = 'email_complaint')::int AS complained,
        count(DISTINCT r.subscriber_id) FILTER (WHERE e.action = 'email_unsubscribe')::int AS unsubscribed
      FROM campaign_recipients r
      LEFT JOIN consent_events e ON r.state = 'sent' AND e.subscriber_id = r.subscriber_id AND e.channel = 'email'
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
    machineFetches: base.machineFetches,
    machineReasons: base.machineReasons,
    rate: base.rate,
  };
}

export type NewsletterResults = Awaited<ReturnType<typeof newsletterResults>>;
