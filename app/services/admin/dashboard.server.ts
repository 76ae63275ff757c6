import { desc, sql } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { toNumber } from "~/db/client.server";
import { auditLog } from "~/db/schema";
import { dncDataAgeDays, DNC_MAX_AGE_DAYS, latestDncDataDate } from "~/services/dnc.server";

/** "Today" on the staff home is the publication's day, US Eastern time. */
export const DASHBOARD_TIME_ZONE = "America/New_York";

export type PeriodCounts = { today: number; days7: number; days30: number };
export type SentFailed = { sent: number; failed: number };

/**
 * The campaign and newsletter results the staff home shows once sends exist. Campaigns are not
 * part of this code base yet: the sending engine's results (aggregates over its ledger) are wired
 * in here, and until then there is nothing to show.
 */
export type CampaignSummary = { kind: "sms" | "email"; name: string; sentAt: string; recipients: number; sent: number; failed: number; href: string };
export async function latestCampaignSummaries(_db: Db): Promise<CampaignSummary[]> {
  return [];
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

  const [consent, messages, inbox, dataDate, audit, campaigns] = await Promise.all([
    db.execute<Record<string, unknown>>(sql`
      SELECT ${window("sms_new", sql`channel = 'sms' AND action IN ('opt_in', 'start')`)},
             ${window("email_new", sql`channel = 'email' AND action = 'email_subscribe'`)},
             ${window("sms_out", sql`channel = 'sms' AND action = 'opt_out'`)},
             ${window("email_out", sql`channel = 'email' AND action = 'opt_out'`)}
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
    db.execute<{ n: unknown }>(sql`SELECT count(*) AS n FROM contact_messages WHERE read_at IS NULL`),
    latestDncDataDate(db),
    db.select().from(auditLog).orderBy(desc(auditLog.id)).limit(10),
    latestCampaignSummaries(db),
  ]);

  const row = consent.rows[0];
  const m = messages.rows[0] ?? {};
  const ageDays = dncDataAgeDays(dataDate, now);
  return {
    newSubscribers: { sms: periods(row, "sms_new"), email: periods(row, "email_new") },
    optOuts: { sms: periods(row, "sms_out"), email: periods(row, "email_out") },
    last24h: {
      texts: { sent: toNumber(m.texts_sent), failed: toNumber(m.texts_failed) },
      emails: { sent: toNumber(m.emails_sent), failed: toNumber(m.emails_failed) },
    },
    outbox: { texts: toNumber(m.texts_waiting), emails: toNumber(m.emails_waiting) },
    dnc: { dataDate, ageDays, maxAgeDays: DNC_MAX_AGE_DAYS, stale: ageDays === null || ageDays > DNC_MAX_AGE_DAYS },
    unreadInbox: toNumber(inbox.rows[0]?.n),
    campaigns,
    audit: audit.map((entry) => ({ id: entry.id, actor: entry.actor, action: entry.action, entity: entry.entity, occurredAt: entry.occurredAt.toISOString() })),
  };
}
