import { sql } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { toNumber } from "~/db/client.server";
import type { MachineClickReason } from "~/services/sending/click-judge";
import type { ReportRange } from "./reports.server";

/** One click on the sponsor's offer, as counted: where the visit came from, and whose it was. */
export type OfferClick = {
  /** The local day (ANALYTICS_TIME_ZONE). */
  day: string;
  channel: string;
  source: string;
  medium: string;
  campaign: string;
  /** sub1…sub5, "" where absent. */
  subs: readonly string[];
  /** null for a person's click, else why it was a machine's. */
  machine: MachineClickReason | null;
};

/** Adds one click to its day's row (decision 152): one upsert, made after the redirect was sent. */
export async function recordOfferClick(db: Db, click: OfferClick) {
  const [sub1 = "", sub2 = "", sub3 = "", sub4 = "", sub5 = ""] = click.subs;
  await db.execute(sql`
    INSERT INTO offer_clicks (day, channel, utm_source, utm_medium, utm_campaign, sub1, sub2, sub3, sub4, sub5, machine, clicks)
    VALUES (${click.day}::date, ${click.channel}, ${click.source}, ${click.medium}, ${click.campaign}, ${sub1}, ${sub2}, ${sub3}, ${sub4}, ${sub5}, ${click.machine ?? ""}, 1)
    ON CONFLICT ON CONSTRAINT offer_clicks_pk DO UPDATE SET clicks = offer_clicks.clicks + 1`);
}

/** Offer clicks of a group: by people, and left out (machines, bots). */
export type OfferClickFigures = { key: string[]; people: number; excluded: number };

export type OfferClickReport = {
  /** By channel, source, medium and campaign. */
  bySource: OfferClickFigures[];
  /** By sub-id (`sub1=A`); a click with two sub-ids is in two rows. */
  bySubId: OfferClickFigures[];
  /** The clicks left out, by reason. */
  excluded: { reason: string; clicks: number }[];
};

const figures = (rows: Record<string, unknown>[], width: number): OfferClickFigures[] =>
  rows.map((row) => ({ key: Array.from({ length: width }, (_, index) => String(row[`k${index}`] ?? "")), people: toNumber(row.people), excluded: toNumber(row.excluded) }));

/** The offer clicks of a range of local days. */
export async function offerClickReport(db: Db, range: ReportRange, limit = 50): Promise<OfferClickReport> {
  const within = sql`day BETWEEN ${range.from}::date AND ${range.to}::date`;
  const counted = sql`sum(clicks) FILTER (WHERE machine = '') AS people, sum(clicks) FILTER (WHERE machine <> '') AS excluded`;
  const bySource = await db.execute<Record<string, unknown>>(sql`
    SELECT channel AS k0, utm_source AS k1, utm_medium AS k2, utm_campaign AS k3, ${counted}
    FROM offer_clicks WHERE ${within}
    GROUP BY 1, 2, 3, 4 ORDER BY sum(clicks) FILTER (WHERE machine = '') DESC NULLS LAST, sum(clicks) DESC, 1, 2, 3, 4 LIMIT ${limit}`);
  const bySubId = await db.execute<Record<string, unknown>>(sql`
    SELECT sub.name || '=' || sub.value AS k0, ${counted}
    FROM offer_clicks CROSS JOIN LATERAL (VALUES ('sub1', sub1), ('sub2', sub2), ('sub3', sub3), ('sub4', sub4), ('sub5', sub5)) AS sub(name, value)
    WHERE ${within} AND sub.value <> ''
    GROUP BY 1 ORDER BY sum(clicks) FILTER (WHERE machine = '') DESC NULLS LAST, sum(clicks) DESC, 1 LIMIT ${limit}`);
  const excluded = await db.execute<{ reason: string; clicks: unknown }>(sql`
    SELECT machine AS reason, sum(clicks) AS clicks FROM offer_clicks WHERE ${within} AND machine <> ''
    GROUP BY 1 ORDER BY 2 DESC, 1`);
  return {
    bySource: figures(bySource.rows, 4),
    bySubId: figures(bySubId.rows, 1),
    excluded: excluded.rows.map((row) => ({ reason: row.reason, clicks: toNumber(row.clicks) })),
  };
}
