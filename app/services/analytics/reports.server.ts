import { sql } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { toNumber } from "~/db/client.server";
import { linkClickFigures, type LinkClickRow } from "./link-click-report.server";
import { dayBefore } from "./site-clock";
import { offerClickReport, type OfferClickReport } from "./offer-clicks.server";
import { leadGenFigures, type LeadRow } from "./lead-gen-report.server";
import { signUpFigures, type SignUpFigures } from "./sign-up-reports.server";

/** The longest range one report covers. */
export const REPORT_MAX_DAYS = 366;
export const REPORT_TOP = 50;

export type ReportRange = { from: string; to: string };

const DAY = /^\d{4}-\d{2}-\d{2}$/;

function isDay(text: string) {
  if (!DAY.test(text)) return false;
  const date = new Date(`${text}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === text;
}

function daysBetween(from: string, to: string) {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000) + 1;
}

/**
 * The range of `?from=&to=` (local days, inclusive): the last 30 days up to `today` when both are
 * absent; a clear refusal for a bad one.
 */
export function parseRange(params: URLSearchParams, today: string): { ok: true; range: ReportRange } | { ok: false; error: string } {
  const from = params.get("from")?.trim() || "";
  const to = params.get("to")?.trim() || "";
  if (!from && !to) return { ok: true, range: { from: dayBefore(today, 29), to: today } };
  const end = to || today;
  const start = from || dayBefore(end, 29);
  if (!isDay(start) || !isDay(end)) return { ok: false, error: "Dates must be written YYYY-MM-DD, e.g. 2026-03-01." };
  if (start > end) return { ok: false, error: "The first day must not be after the last day." };
  if (daysBetween(start, end) > REPORT_MAX_DAYS) return { ok: false, error: `A report covers at most ${REPORT_MAX_DAYS} days.` };
  return { ok: true, range: { from: start, to: end } };
}

export type DayFigures = { day: string; views: number; visitors: number };
export type Ranked = { value: string; views: number; visitors?: number };

export type PeriodTotals = { range: ReportRange; views: number; averageDailyVisitors: number };

export type AnalyticsReport = {
  range: ReportRange;
  days: DayFigures[];
  views: number;
  /** The mean of the days' unique visitors: never their sum (a person seen on two days is two daily visitors). */
  averageDailyVisitors: number;
  /** The same number of days just before the range, to compare with. */
  previous: PeriodTotals;
  pages: Ranked[];
  channels: Ranked[];
  landings: Ranked[];
  referrers: Ranked[];
  /** Sign-ups of the range by the page that held the form, with their quality figures (decision 150). */
  signUpsByPage: SignUpFigures[];
  signUpsByEntry: SignUpFigures[];
  /** Admins only: campaign, sub-id and exclusion figures, and sign-ups by source and by sub-id. */
  campaigns?: Ranked[];
  subIds?: Ranked[];
  clickIds?: Ranked[];
  excluded?: Ranked[];
  signUpsBySource?: SignUpFigures[];
  signUpsBySubId?: SignUpFigures[];
  /** Admins only: clicks on the sponsor's offer by source and sub-id, people and left out (decision 152). */
  offerClicks?: OfferClickReport;
  /** The ad landing page as a lead-gen report, with costs (decision 154). */
  leads?: LeadRow[];
  /** Clicks on the alerts' and newsletter issues' links, people and machines apart (decision 151). */
  linkClicks?: LinkClickRow[];
};

async function ranked(db: Db, dimension: string, range: ReportRange, limit = REPORT_TOP, withVisitors = false): Promise<Ranked[]> {
  const result = await db.execute<{ value: string; views: unknown; visitors: unknown }>(sql`
    SELECT value, sum(views) AS views, sum(visitors) AS visitors FROM analytics_daily
    WHERE dimension = ${dimension} AND day BETWEEN ${range.from}::date AND ${range.to}::date
    GROUP BY value ORDER BY sum(views) DESC, value LIMIT ${limit}`);
  return result.rows.map((row) => ({ value: row.value, views: toNumber(row.views), ...(withVisitors ? { visitors: toNumber(row.visitors) } : {}) }));
}

/**
 * The figures of /admin/analytics for a range. Content figures (sign-ups by page among them) for
 * every staff member; the campaign, sub-id, click-id and exclusion figures and the sign-ups by
 * source and by sub-id only with `admin` (decisions 146, 150). `timeZone`: the site's days.
 */
export async function analyticsReport(db: Db, range: ReportRange, options: { admin: boolean; timeZone: string; now?: Date }): Promise<AnalyticsReport> {
  const signUps = { timeZone: options.timeZone, now: options.now };
  const length = daysBetween(range.from, range.to);
  const previousRange = { from: dayBefore(range.from, length), to: dayBefore(range.from, 1) };
  // One read for the range and the period before it.
  const perDay = await db.execute<{ day: string; views: unknown; visitors: unknown }>(sql`
    SELECT day::text AS day, views, visitors FROM analytics_daily
    WHERE dimension = 'all' AND value = '' AND day BETWEEN ${previousRange.from}::date AND ${range.to}::date`);
  const found = new Map(perDay.rows.map((row) => [row.day, { views: toNumber(row.views), visitors: toNumber(row.visitors) }]));
  const daysOf = (period: ReportRange) => {
    const days: DayFigures[] = [];
    for (let day = period.from; day <= period.to; day = dayBefore(day, -1)) days.push({ day, ...(found.get(day) ?? { views: 0, visitors: 0 }) });
    return days;
  };
  const totals = (days: DayFigures[]) => ({
    views: days.reduce((sum, day) => sum + day.views, 0),
    averageDailyVisitors: Math.round(days.reduce((sum, day) => sum + day.visitors, 0) / days.length),
  });
  const days = daysOf(range);
  const report: AnalyticsReport = {
    range,
    days,
    ...totals(days),
    previous: { range: previousRange, ...totals(daysOf(previousRange)) },
    pages: await ranked(db, "path", range, REPORT_TOP, true),
    channels: await ranked(db, "channel", range),
    landings: await ranked(db, "landing", range),
    referrers: await ranked(db, "referrer", range),
    signUpsByPage: await signUpFigures(db, range, { ...signUps, grouping: "page" }),
    signUpsByEntry: await signUpFigures(db, range, { ...signUps, grouping: "entry" }),
  };
  if (options.admin) {
    report.campaigns = await ranked(db, "utm", range);
    report.subIds = [];
    for (const name of ["sub1", "sub2", "sub3", "sub4", "sub5"]) {
      for (const row of await ranked(db, name, range, 20)) report.subIds.push({ value: `${name}=${row.value}`, views: row.views });
    }
    report.clickIds = await ranked(db, "click-id", range);
    report.excluded = await ranked(db, "excluded", range);
    report.signUpsBySource = await signUpFigures(db, range, { ...signUps, grouping: "source" });
    report.signUpsBySubId = await signUpFigures(db, range, { ...signUps, grouping: "subId" });
    report.offerClicks = await offerClickReport(db, range);
    report.leads = await leadGenFigures(db, range, signUps);
    report.linkClicks = await linkClickFigures(db, range, signUps);
  }
  return report;
}
