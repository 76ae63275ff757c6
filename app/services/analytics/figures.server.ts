import type { Db } from "~/db/client.server";
import { figureLinks } from "./figure-links";
import { analyticsReport, parseRange } from "./reports.server";
import { liveFigures } from "./live.server";
import { ADMIN_TABLES, REPORT_TABLES, reportTable } from "./report-tables";
import { createSiteClock } from "./site-clock";

/**
 * The figures of /admin/analytics for a date range, as the page shows them and the JSON API returns
 * them (one source for both): an editor gets the content tables only (decision 146). `live`: the
 * last 30 minutes, whatever the range (decision 156); `flushSeconds` is how far it may lag.
 */
export async function analyticsFigures(db: Db, params: URLSearchParams, options: { admin: boolean; timeZone: string; flushSeconds: number }) {
  const parsed = parseRange(params, createSiteClock(options.timeZone)().day);
  if (!parsed.ok) return { ok: false as const, error: parsed.error };
  const report = await analyticsReport(db, parsed.range, options);
  // Each count of sign-ups opens its list (decision 157): the list is for admins, so only they get the links.
  const tables = REPORT_TABLES.filter((table) => options.admin || !ADMIN_TABLES.has(table)).map((table) => {
    const links = options.admin ? figureLinks(report, table) : undefined;
    return { table, ...reportTable(report, table), ...(links ? { links } : {}) };
  });
  const excluded = (report.excluded ?? []).reduce((sum, row) => sum + row.views, 0);
  return {
    ok: true as const,
    figures: {
      admin: options.admin,
      range: report.range,
      days: report.days,
      views: report.views,
      averageDailyVisitors: report.averageDailyVisitors,
      previous: report.previous,
      excluded,
      tables,
      live: await liveFigures(db, options),
    },
  };
}

export type AnalyticsFigures = Extract<Awaited<ReturnType<typeof analyticsFigures>>, { ok: true }>["figures"];
