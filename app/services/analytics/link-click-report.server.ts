import { sql } from "drizzle-orm";
import { toNumber, type Db } from "~/db/client.server";
import type { ReportRange } from "./reports.server";

/**
 * Clicks on the links of the alerts (SMS) and newsletter issues (e-mail) made in a range of local
 * days, per campaign: people's clicks and the people who clicked, and machines' fetches apart
 * (decision 151), as each campaign's results page counts them, limited to the range.
 */
export type LinkClickRow = { campaignId: string; channel: "sms" | "email"; name: string; clicks: number; clickers: number; machineFetches: number };

export async function linkClickFigures(db: Db, range: ReportRange, options: { timeZone: string; limit?: number }): Promise<LinkClickRow[]> {
  const start = sql`((${range.from}::date)::timestamp AT TIME ZONE ${options.timeZone})`;
  const end = sql`((${range.to}::date + 1)::timestamp AT TIME ZONE ${options.timeZone})`;
  const result = await db.execute<{ campaign_id: string; channel: "sms" | "email"; name: string; clicks: unknown; clickers: unknown; machine: unknown }>(sql`
    SELECT c.id AS campaign_id, c.channel, coalesce(i.subject, c.name) AS name,
      count(*) FILTER (WHERE l.machine IS NULL) AS clicks,
      count(DISTINCT l.visitor) FILTER (WHERE l.machine IS NULL) AS clickers,
      count(*) FILTER (WHERE l.machine IS NOT NULL) AS machine
    FROM link_clicks l
    JOIN campaigns c ON c.id = l.campaign_id
    LEFT JOIN newsletter_issues i ON i.campaign_id = c.id
    WHERE l.clicked_at >= ${start} AND l.clicked_at < ${end}
    GROUP BY c.id, c.channel, coalesce(i.subject, c.name)
    ORDER BY count(*) FILTER (WHERE l.machine IS NULL) DESC, count(*) DESC, coalesce(i.subject, c.name)
    LIMIT ${options.limit ?? 50}`);
  return result.rows.map((row) => ({ campaignId: row.campaign_id, channel: row.channel, name: row.name, clicks: toNumber(row.clicks), clickers: toNumber(row.clickers), machineFetches: toNumber(row.machine) }));
}
