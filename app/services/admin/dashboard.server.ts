import { sql } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { toNumber } from "~/db/client.server";
import { dncDataAgeDays, DNC_MAX_AGE_DAYS, latestDncDataDate } from "~/services/dnc/dnc.server";
import { LIST_EVENTS, OPT_OUT_EVENTS } from "./dashboard-figures";
import { loadRecentChanges, type RecentChange } from "./recent-changes.server";

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
  audit: RecentChange[];
};

const periods = (row: Record<string, unknown> | undefined, prefix: string): PeriodCounts => ({
  today: toNumber(row?.[`${prefix}_today`] ?? 0),
  days7: toNumber(row?.[`${prefix}_7`] ?? 0),
  days30: toNumber(row?.[`${prefix}_30`] ?? 0),
});

/** LIST_EVENTS as an SQL table (channel, action, state after it, whether it is an opt-out): constants only. */
const LIST_EVENT_ROWS = Object.entries(LIST_EVENTS)
  .flatMap(([channel, events]) =>
    Object.entries(events).map(([action, state]) => {
      const optOut = (OPT_OUT_EVENTS[channel as keyof typeof OPT_OUT_EVENTS] as readonly string[]).includes(action);
      return `('${channel}', '${action}', '${state}', ${optOut})`;
    }),
  )
  .join(", ");
if (!/^[a-z_(), ']+$/.test(LIST_EVENT_ROWS)) throw new Error("LIST_EVENTS holds a name that is not a plain identifier");
const listEvents = (alias: string) => sql.raw(`(VALUES ${LIST_EVENT_ROWS}) AS ${alias}(channel, action, state, opt_out)`);

/**
 * The figures an operator reads every morning, each as DASHBOARD_FIGURES defines it, from
 * aggregate queries over indexed time ranges (consent_events by time, both outboxes by creation
 * time): a handful of index range scans, whatever the size of the tables (docs/benchmarks.md).
 *
 * New subscribers and opt-outs are changes of a person's place on a list, read from the consent
 * evidence: each list event of the period is compared with the same person's list event before it
 * (LIST_EVENTS). A join counts when the person was not on the list (no earlier event, or an
 * opt-out); an opt-out counts when they were on it. So the same address signing up twice is one
 * subscriber, a second STOP is not a second opt-out, and someone who leaves and returns counts again.
 */
export async function loadDashboard(db: Db, now = new Date()): Promise<Dashboard> {
  const at = now.toISOString();
  const dayStart = sql`(date_trunc('day', ${at}::timestamptz AT TIME ZONE ${DASHBOARD_TIME_ZONE}) AT TIME ZONE ${DASHBOARD_TIME_ZONE})`;
  const since = (days: number) => sql`${at}::timestamptz - make_interval(days => ${sql.raw(String(days))})`;
  const window = (name: string, condition: ReturnType<typeof sql>) =>
    sql`count(*) FILTER (WHERE ${condition} AND occurred_at >= ${dayStart}) AS ${sql.raw(`${name}_today`)},
        count(*) FILTER (WHERE ${condition} AND occurred_at >= ${since(7)}) AS ${sql.raw(`${name}_7`)},
        count(*) FILTER (WHERE ${condition} AND occurred_at >= ${since(30)}) AS ${sql.raw(`${name}_30`)}`;
  const joined = sql`state = 'in' AND coalesce(before, 'out') = 'out'`;
  const left = sql`opt_out AND before = 'in'`;

  const [consent, messages, campaignMessages, inbox, dataDate, audit, campaigns] = await Promise.all([
    db.execute<Record<string, unknown>>(sql`
      WITH recent AS (
        SELECT e.id, e.subscriber_id, e.channel, e.occurred_at, l.state, l.opt_out
        FROM consent_events e JOIN ${listEvents("l")} ON l.channel = e.channel AND l.action = e.action
        WHERE e.occurred_at >= LEAST(${since(30)}, ${dayStart}) AND e.occurred_at <= ${at}::timestamptz
      ),
      changes AS (
        SELECT r.*, (
          SELECT pl.state FROM consent_events p JOIN ${listEvents("pl")} ON pl.channel = p.channel AND pl.action = p.action
          WHERE p.subscriber_id = r.subscriber_id AND p.channel = r.channel AND (p.occurred_at, p.id) < (r.occurred_at, r.id)
          ORDER BY p.occurred_at DESC, p.id DESC LIMIT 1
        ) AS before
        FROM recent r
      )
      SELECT ${window("sms_new", sql`channel = 'sms' AND ${joined}`)},
             ${window("email_new", sql`channel = 'email' AND ${joined}`)},
             ${window("sms_out", sql`channel = 'sms' AND ${left}`)},
             ${window("email_out", sql`channel = 'email' AND ${left}`)}
      FROM changes`),
    db.execute<Record<string, unknown>>(sql`
      SELECT
        -- Texts of their own (welcomes, replies, codes, tests; decision 068): campaign_recipients_texts_created_idx.
        (SELECT count(*) FROM campaign_recipients WHERE campaign_id IS NULL AND created_at >= ${since(1)} AND state = 'sent') AS texts_sent,
        (SELECT count(*) FROM campaign_recipients WHERE campaign_id IS NULL AND created_at >= ${since(1)} AND state = 'failed') AS texts_failed,
        (SELECT count(*) FROM email_messages WHERE created_at >= ${since(1)} AND status = 'sent') AS emails_sent,
        (SELECT count(*) FROM email_messages WHERE created_at >= ${since(1)} AND status = 'failed') AS emails_failed,
        -- Two counts, so each reads its own partial index (texts due, rows in flight).
        (SELECT count(*) FROM campaign_recipients WHERE campaign_id IS NULL AND state = 'queued')
          + (SELECT count(*) FROM campaign_recipients WHERE campaign_id IS NULL AND state = 'sending') AS texts_waiting,
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
    loadRecentChanges(db, 10),
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
    audit,
  };
}
