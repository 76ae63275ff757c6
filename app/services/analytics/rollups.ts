import { LEAD_PAGE_PATH } from "./lead-gen";
import type { ExcludedRow, ViewRow } from "./writer";

/**
 * The dimensions of the rollup tables (analytics_daily, analytics_hourly) and how a view signature
 * spreads over them. A value is the dimension's own text, or a JSON array for combinations.
 */
export const ANALYTICS_DIMENSIONS = [
  /** Every human view; value "". */
  "all",
  "path",
  "channel",
  /** The referring host ("" is not stored: direct and internal views have none). */
  "referrer",
  "source",
  "medium",
  "campaign",
  /** ["source","medium","campaign"] of a view that carried any of them. */
  "utm",
  /** gclid, gbraid, wbraid, fbclid, msclkid, ttclid: views whose address carried one. */
  "click-id",
  "sub1",
  "sub2",
  "sub3",
  "sub4",
  "sub5",
  "device",
  /** [path, channel] of a view that came from outside the site: the pages people enter by. */
  "landing",
  /** Views not counted as a person's, by reason (EXCLUSION_REASONS). */
  "excluded",
  /** ["source","campaign","sub1",…,"sub5"] of each view of the ad landing page (decision 154). */
  "lead-landing",
] as const;
export type AnalyticsDimension = (typeof ANALYTICS_DIMENSIONS)[number];

export type DimensionValue = [AnalyticsDimension, string];

/** The (dimension, value) pairs one view signature adds its count to. */
export function dimensionsOf(row: ViewRow): DimensionValue[] {
  const pairs: DimensionValue[] = [
    ["all", ""],
    ["path", row.path],
    ["channel", row.channel],
    ["device", row.device],
  ];
  if (row.referrer) pairs.push(["referrer", row.referrer]);
  if (row.source) pairs.push(["source", row.source]);
  if (row.medium) pairs.push(["medium", row.medium]);
  if (row.campaign) pairs.push(["campaign", row.campaign]);
  if (row.source || row.medium || row.campaign) pairs.push(["utm", JSON.stringify([row.source, row.medium, row.campaign])]);
  for (const name of row.clickIds) pairs.push(["click-id", name]);
  row.subs.forEach((value, index) => {
    if (value) pairs.push([`sub${index + 1}` as AnalyticsDimension, value]);
  });
  if (row.channel !== "internal") pairs.push(["landing", JSON.stringify([row.path, row.channel])]);
  if (row.path === LEAD_PAGE_PATH) pairs.push(["lead-landing", JSON.stringify([row.source, row.campaign, ...row.subs])]);
  return pairs;
}

export type RollupRow = { period: string; dimension: string; value: string; views: number };

/**
 * The interval's views summed per period (day or hour), dimension and value: the rows one
 * upsert adds to a rollup table, each key once (an upsert may touch a row only once).
 */
export function rollupRows(views: ViewRow[], excluded: ExcludedRow[], period: "day" | "hour"): RollupRow[] {
  const sums = new Map<string, RollupRow>();
  const add = (at: string, dimension: string, value: string, count: number) => {
    const key = `${at}\u0001${dimension}\u0001${value}`;
    const row = sums.get(key);
    if (row) row.views += count;
    else sums.set(key, { period: at, dimension, value, views: count });
  };
  for (const row of views) for (const [dimension, value] of dimensionsOf(row)) add(row[period], dimension, value, row.views);
  for (const row of excluded) add(row[period], "excluded", row.reason, row.views);
  return [...sums.values()];
}
