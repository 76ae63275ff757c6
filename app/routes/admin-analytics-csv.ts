import { data } from "react-router";
import type { Route } from "./+types/admin-analytics-csv";
import { ADMIN_ROLE } from "~/auth/auth.server";
import { requireEditor } from "~/auth/guards.server";
import { getDb } from "~/db/database.server";
import { getEnv } from "~/http/env.server";
import { csvField } from "~/services/admin/csv-export.server";
import { analyticsReport, parseRange } from "~/services/analytics/reports.server";
import { ADMIN_TABLES, REPORT_TABLES, reportTable, type ReportTable } from "~/services/analytics/report-tables";
import { createSiteClock } from "~/services/analytics/site-clock";

/** GET /admin/analytics.csv?table=…&from=…&to=…: one table of /admin/analytics as CSV (formula-safe). */
export async function loader({ request }: Route.LoaderArgs) {
  const user = await requireEditor(request);
  const admin = user.role === ADMIN_ROLE;
  const params = new URL(request.url).searchParams;
  const table = params.get("table") as ReportTable;
  if (!REPORT_TABLES.includes(table)) throw data({ message: `table must be one of ${REPORT_TABLES.join(", ")}` }, { status: 400 });
  if (ADMIN_TABLES.has(table) && !admin) throw data({ message: "This table is for admins only." }, { status: 403 });
  const timeZone = getEnv().ANALYTICS_TIME_ZONE;
  const parsed = parseRange(params, createSiteClock(timeZone)().day);
  if (!parsed.ok) throw data({ message: parsed.error }, { status: 400 });
  const { columns, rows } = reportTable(await analyticsReport(await getDb(), parsed.range, { admin, timeZone }), table);
  const text = [columns, ...rows].map((row) => row.map(csvField).join(",")).join("\r\n");
  return new Response(`${text}\r\n`, {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="analytics-${table}-${parsed.range.from}-${parsed.range.to}.csv"`,
      "Cache-Control": "private, no-store",
    },
  });
}
