import { sql } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { toNumber } from "~/db/client.server";
import { SUB_PARAMS } from "./landing";
import { LEAD_SUB_ID } from "./lead-gen";
import type { ReportRange } from "./reports.server";
import { signUpFigures } from "./sign-up-reports.server";

/**
 * One row of the lead-gen report (decision 154): the ad landing page's traffic and opt-ins of a
 * source, campaign and sub-id over a range, with what was paid for it. `total`: the source's
 * row over all its campaigns and sub-ids, whose cost is every cost entered for the source.
 */
export type LeadRow = {
  source: string;
  campaign: string;
  subId: string;
  total: boolean;
  /** Views of the landing page by people (bots excluded, decision 142). */
  visits: number;
  /** Sign-ups made on the landing page (both lists). */
  optIns: number;
  confirmed: number;
  /** Opt-ins at least 7 days old, and of them those who left (STOP or unsubscribe) within 7 days. */
  aged7: number;
  left7: number;
  costCents: number;
};

const keyOf = (source: string, campaign: string, subId: string) => JSON.stringify([source, campaign, subId]);

/**
 * The lead-gen figures of a range of local days: landing visits from the `lead-landing` rollup,
 * opt-ins and their fate from the attributions (as the sign-up reports count them), costs from
 * `ad_costs`. A cost belongs to the row of exactly its source, campaign and sub-id (a cost entered
 * for a whole source has its own row, campaign and sub-id empty) and to its source's total.
 */
export async function leadGenFigures(db: Db, range: ReportRange, options: { timeZone: string; now?: Date }): Promise<LeadRow[]> {
  const subIndex = 2 + SUB_PARAMS.indexOf(LEAD_SUB_ID);
  const visits = await db.execute<{ source: string | null; campaign: string | null; sub_id: string | null; views: unknown }>(sql`
    SELECT value::json->>0 AS source, value::json->>1 AS campaign, value::json->>${sql.raw(String(subIndex))} AS sub_id, sum(views) AS views
    FROM analytics_daily
    WHERE dimension = 'lead-landing' AND day BETWEEN ${range.from}::date AND ${range.to}::date
    GROUP BY 1, 2, 3`);
  const costs = await db.execute<{ source: string; campaign: string; sub_id: string; cents: unknown }>(sql`
    SELECT source, campaign, sub_id, sum(amount_cents) AS cents FROM ad_costs
    WHERE day BETWEEN ${range.from}::date AND ${range.to}::date
    GROUP BY 1, 2, 3`);
  const signUps = await signUpFigures(db, range, { timeZone: options.timeZone, now: options.now, grouping: "lead", limit: 10_000 });

  const rows = new Map<string, LeadRow>();
  const row = (source: string, campaign: string, subId: string, total = false) => {
    const key = total ? JSON.stringify([source]) : keyOf(source, campaign, subId);
    let found = rows.get(key);
    if (!found) {
      found = { source, campaign, subId, total, visits: 0, optIns: 0, confirmed: 0, aged7: 0, left7: 0, costCents: 0 };
      rows.set(key, found);
    }
    return found;
  };
  const both = (source: string, campaign: string, subId: string, add: (target: LeadRow) => void) => {
    add(row(source, campaign, subId));
    add(row(source, "", "", true));
  };
  for (const visit of visits.rows) both(visit.source ?? "", visit.campaign ?? "", visit.sub_id ?? "", (target) => (target.visits += toNumber(visit.views)));
  for (const cost of costs.rows) both(cost.source, cost.campaign, cost.sub_id, (target) => (target.costCents += toNumber(cost.cents)));
  for (const group of signUps) {
    const [source = "", campaign = "", subId = ""] = group.key;
    both(source, campaign, subId, (target) => {
      target.optIns += group.signUps;
      target.confirmed += group.confirmed;
      target.aged7 += group.aged7;
      target.left7 += group.agedLeft7;
    });
  }

  // Sources by what they cost, then what they brought; each source's total first, then its rows.
  const all = [...rows.values()];
  const rank = (a: LeadRow, b: LeadRow) => b.costCents - a.costCents || b.optIns - a.optIns || b.visits - a.visits;
  const totals = all.filter((entry) => entry.total).sort((a, b) => rank(a, b) || a.source.localeCompare(b.source));
  return totals.flatMap((total) => [
    total,
    ...all
      .filter((entry) => !entry.total && entry.source === total.source)
      .sort((a, b) => rank(a, b) || a.campaign.localeCompare(b.campaign) || a.subId.localeCompare(b.subId)),
  ]);
}
