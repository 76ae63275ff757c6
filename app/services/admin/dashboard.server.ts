import { desc, sql } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { toNumber } from "~/db/client.server";
import { auditLog } from "~/db/schema";
import { dncDataAgeDays, DNC_MAX_AGE_DAYS, latestDncDataDate } from "~/services/dnc.server";

/** "Today" on the staff home is the publication's day, US Eastern time. */
export const DASHBOARD_TIME_ZONE = "America/New_York";

export type PeriodCounts = { today: number; days7: number; days30: number };
export type SentFailed = { sent: number; failed: number };

/** The latest market alert and the latest newsletter that started sending, with their ledger's figures. */
export type CampaignSummary = { kind: "sms" | "email"; name: string; sentAt: string; recipients: number; sent: number; failed: number; href: string };
export async function latestCampaignSummaries(db: Db): Promise<CampaignSummary[]> {
  const result = await db.execute<{ id: string; channel: "sms" | "email"; name: string; started_at: Date | string; planned: unknown; sent: unknown; failed: unknown; issue_id: unknown }>(sql`
    SELECT c.id, c.channel, c.name, c.started_at, coalesce(c.planned_count, 0) AS planned,
      (SELECT count(*) FROM campaign_recipients r WHERE r.campaign_id = c.id AND r.state = 'sent') AS sent,
      (SELECT count(*) FROM campaign_recipients r WHERE r.campaign_id = c.id AND r.state = 'failed') AS failed,
      (SELECT i.id FROM newsletter_issues i WHERE i.campaign_id = c.id) AS issue_id
    FROM (SELECT DISTINCT ON (channel) * FROM campaigns WHERE started_at IS NOT NULL ORDER BY channel, started_at DESC) c
    ORDER BY c.started_at DESC`);
  return result.rows.map((row) => ({
    kind: row.channel,
    name: row.name,
    sentAt: new Date(row.started_at).toISOString(),
    recipients: toNumber(row.planned),
    sent: toNumber(row.sent),
    failed: toNumber(row.failed),
    href: row.channel === "sms" ? `/admin/alerts/${row.id}` : `/admin/newsletter/${toNumber(row.issue_id)}`,
  }));
}

export type Dashboard = {
  newSubscribers: { sms: PeriodCounts; email: PeriodCounts };
  optOuts: { sms: PeriodCounts; email: PeriodCounts };
  last24h: { texts: SentFailed; emails: SentFailed };
  outbox: { texts: number; emails: number };
  dnc: { dataDate: string | null; ageDays: number | null; maxAgeDays: number; stale: boolean };
  unreadInbox: number;
  campaigns: CampaignSummary[];
  audit: { id: number; actor: string | null; action: string; entity: string; occurredAt: string }[];
};

const periods = (row: Record<string, unknown> | undefined, prefix: string): PeriodCounts => ({
  today: toNumber(row?.[`${prefix}_today`] ?? 0),
  days7: toNumber(row?.[`${prefix}_7`] ?? 0),
  days30: toNumber(row?.[`${prefix}_30`] ?? 0),
});

/**
 * The figures an operator reads every morning, from aggregate queries over indexed time ranges
 * (consent_events by time, both outboxes by creation time): a handful of index range scans,
 * whatever the size of the tables (docs/benchmarks.md, staff home).
 *
 * New subscribers and opt-outs come from the consent evidence, so a returning subscriber (START)
 * counts as new again and every opt-out counts once per event.
 */
export async function loadDashboard(db: Db, now = new Date()): Promise<Dashboard> {
  const at = now.toISOString();
  const dayStart = sql`(date_trunc('day', ${at}::timestamptz AT TIME ZONE ${DASHBOARD_TIME_ZONE}) AT TIME ZONE ${DASHBOARD_TIME_ZONE})`;
  const since = (days: number) => sql`${at}::timestamptz - make_interval(days => ${sql.raw(String(days))})`;
  const window = (name: string, condition: ReturnType<typeof sql>) =>
    sql`count(*) FILTER (WHERE ${condition} AND occurred_at >= ${dayStart}) AS ${sql.raw(`${name}_today`)},
        count(*) FILTER (WHERE ${condition} AND occurred_at >= ${since(7)}) AS ${sql.raw(`${name}_7`)},
        count(*) FILTER (WHERE ${condition} AND occurred_at >= ${since(30)}) AS ${sql.raw(`${name}_30`)}`;

  const [consent, messages, campaignMessages, inbox, dataDate, audit, campaigns] = await Promise.all([
    db.execute<Record<string, unknown>>(sql`
      SELECT ${window("sms_new", sql`channel = 'sms' AND action IN ('opt_in', 'start')`)},
             ${window("email_new", sql`channel = 'email' AND action = 'email_subscribe'`)},
             ${window("sms_out", sql`channel = 'sms' AND action = 'opt_out'`)},
             ${window("email_out", sql`channel = 'email' AND action IN ('email_unsubscribe', 'email_complaint')`)}
      FROM consent_events
      WHERE occurred_at >= LEAST(${since(30)}, ${dayStart}) AND occurred_at <= ${at}::timestamptz`),
    db.execute<Record<string, unknown>>(sql`
      SELECT
        (SELECT count(*) FROM sms_messages WHERE created_at >= ${since(1)} AND status = 'sent') AS texts_sent,
        (SELECT count(*) FROM sms_messages WHERE created_at >= ${since(1)} AND status = 'failed') AS texts_failed,
        (SELECT count(*) FROM email_messages WHERE created_at >= ${since(1)} AND status = 'sent') AS emails_sent,
        (SELECT count(*) FROM email_messages WHERE created_at >= ${since(1)} AND status = 'failed') AS emails_failed,
        (SELECT count(*) FROM sms_messages WHERE status IN ('queued', 'sending')) AS texts_waiting,
        (SELECT count(*) FROM email_messages WHERE status IN ('queued', 'sending')) AS emails_waiting`),
    // Alerts and newsletters: their ledger is their outbox.
    db.execute<Record<string, unknown>>(sql`
      SELECT
        count(*) FILTER (WHERE c.channel = 'sms' AND r.state = 'sent' AND r.sent_at >= ${since(1)}) AS texts_sent,
        count(*) FILTER (WHERE c.channel = 'sms' AND r.state = 'failed' AND r.updated_at >= ${since(1)}) AS texts_failed,
        count(*) FILTER (WHERE c.channel = 'email' AND r.state = 'sent' AND r.sent_at >= ${since(1)}) AS emails_sent,
        count(*) FILTER (WHERE c.channel = 'email' AND r.state = 'failed' AND r.updated_at >= ${since(1)}) AS emails_failed,
        count(*) FILTER (WHERE c.channel = 'sms' AND r.state IN ('queued', 'sending') AND c.status IN ('sending', 'paused')) AS texts_waiting,
        count(*) FILTER (WHERE c.channel = 'email' AND r.state IN ('queued', 'sending') AND c.status IN ('sending', 'paused')) AS emails_waiting
      FROM campaign_recipients r JOIN campaigns c ON c.id = r.campaign_id
      WHERE r.updated_at >= ${since(1)} OR (r.state IN ('queued', 'sending') AND c.status IN ('sending', 'paused'))`),
    db.execute<{ n: unknown }>(sql`SELECT count(*) AS n FROM contact_messages WHERE read_at IS NULL`),
    latestDncDataDate(db),
    db.select().from(auditLog).orderBy(desc(auditLog.id)).limit(10),
    latestCampaignSummaries(db),
  ]);

  const row = consent.rows[0];
  const outbox = messages.rows[0] ?? {};
  const ledger = campaignMessages.rows[0] ?? {};
  const m = (key: string) => toNumber(outbox[key]) + toNumber(ledger[key]);
  const ageDays = dncDataAgeDays(dataDate, now);
  return {
    newSubscribers: { sms: periods(row, "sms_new"), email: periods(row, "email_new") },
    optOuts: { sms: periods(row, "sms_out"), email: periods(row, "email_out") },
    last24h: {
      texts: { sent: m("texts_sent"), failed: m("texts_failed") },
      emails: { sent: m("emails_sent"), failed: m("emails_failed") },
    },
    outbox: { texts: m("texts_waiting"), emails: m("emails_waiting") },
    dnc: { dataDate, ageDays, maxAgeDays: DNC_MAX_AGE_DAYS, stale: ageDays === null || ageDays > DNC_MAX_AGE_DAYS },
    unreadInbox: toNumber(inbox.rows[0]?.n),
    campaigns,
    audit: audit.map((entry) => ({ id: entry.id, actor: entry.actor, action: entry.action, entity: entry.entity, occurredAt: entry.occurredAt.toISOString() })),
  };
}
