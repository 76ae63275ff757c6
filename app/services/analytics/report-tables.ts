import { ANALYTICS_TEXTS as T } from "~/lib/analytics-texts";
import { MACHINE_CLICK_LABELS } from "~/lib/click-texts";
import type { AnalyticsReport } from "./reports.server";
import type { SignUpFigures } from "./sign-up-reports.server";
import { centsPer, formatCents } from "./ad-costs";
import type { LeadRow } from "./lead-gen-report.server";

/** The tables of /admin/analytics, each exportable as CSV; `admin`: not shown to editors. */
export const REPORT_TABLES = [
  "days",
  "pages",
  "channels",
  "landings",
  "referrers",
  "signUpsByPage",
  "signUpsByEntry",
  "campaigns",
  "subIds",
  "clickIds",
  "excluded",
  "signUpsBySource",
  "signUpsBySubId",
  "offerClicksBySource",
  "offerClicksBySubId",
  "offerClicksExcluded",
  "leads",
  "linkClicks",
] as const;
export type ReportTable = (typeof REPORT_TABLES)[number];
/** Bought traffic and partners' figures (decisions 146, 150); sign-ups by page are content figures, for editors too. */
export const ADMIN_TABLES: ReadonlySet<ReportTable> = new Set([
  "campaigns",
  "subIds",
  "clickIds",
  "excluded",
  "signUpsBySource",
  "signUpsBySubId",
  "offerClicksBySource",
  "offerClicksBySubId",
  "offerClicksExcluded",
  "leads",
  "linkClicks",
]);

/** The sign-up tables, shown in their own section; each ends with SIGN_UP_FIGURE_COLUMNS figures. */
export const SIGN_UP_TABLES: ReadonlySet<ReportTable> = new Set(["signUpsByPage", "signUpsByEntry", "signUpsBySource", "signUpsBySubId"]);
export const SIGN_UP_FIGURE_COLUMNS = 7;

/** The sponsor's offer clicks (decision 152), shown in their own section. */
export const OFFER_TABLES: ReadonlySet<ReportTable> = new Set(["offerClicksBySource", "offerClicksBySubId", "offerClicksExcluded"]);
/** The lead-gen table (decision 154), in its own section; its figures start after the source, campaign and sub-id. */
export const LEAD_KEY_COLUMNS = 3;

/** A share as a percentage with one decimal; "" when there is nothing to divide by. */
const percent = (part: number, whole: number) => (whole > 0 ? `${(Math.round((part / whole) * 1000) / 10).toFixed(1)}%` : "");
const money = (cents: number | null) => (cents === null ? "" : formatCents(cents));

function leadRow(row: LeadRow): (string | number)[] {
  const key = row.total ? [row.source || T.leads.noSource, T.leads.allCampaigns, ""] : [row.source || T.leads.noSource, row.campaign, row.subId];
  const cost = row.costCents > 0 ? row.costCents : null;
  return [
    ...key,
    row.visits,
    row.optIns,
    row.confirmed,
    percent(row.optIns, row.visits),
    money(cost),
    cost === null ? "" : money(centsPer(cost, row.optIns)),
    cost === null ? "" : money(centsPer(cost, row.confirmed)),
    row.aged7,
    percent(row.left7, row.aged7),
  ];
}

const quality = (row: SignUpFigures) => [row.signUps, row.confirmed, row.aged7, row.kept7, row.aged30, row.kept30, row.left7];
const list = (value: string | undefined) => T.lists[value ?? ""] ?? value ?? "";

const json = (value: string) => {
  try {
    const parsed: unknown = JSON.parse(value);
    return Array.isArray(parsed) ? parsed.map(String) : [value];
  } catch {
    return [value];
  }
};

/** One table as its header and rows of text, the same for the page and its CSV file. */
export function reportTable(report: AnalyticsReport, table: ReportTable): { columns: readonly string[]; rows: (string | number)[][] } {
  const days = report.days.length;
  const columns = T.tables[table].columns;
  switch (table) {
    case "days":
      return { columns, rows: report.days.map((day) => [day.day, day.views, day.visitors]) };
    case "pages":
      return { columns, rows: report.pages.map((row) => [row.value, row.views, Math.round((row.visitors ?? 0) / days)]) };
    case "channels":
      return { columns, rows: report.channels.map((row) => [T.channels[row.value] ?? row.value, row.views]) };
    case "landings":
      return { columns, rows: report.landings.map((row) => { const [path = "", channel = ""] = json(row.value); return [path, T.channels[channel] ?? channel, row.views]; }) };
    case "referrers":
      return { columns, rows: report.referrers.map((row) => [row.value, row.views]) };
    case "campaigns":
      return { columns, rows: (report.campaigns ?? []).map((row) => [...json(row.value).slice(0, 3), row.views]) };
    case "subIds":
      return { columns, rows: (report.subIds ?? []).map((row) => [row.value, row.views]) };
    case "clickIds":
      return { columns, rows: (report.clickIds ?? []).map((row) => [row.value, row.views]) };
    case "excluded":
      return { columns, rows: (report.excluded ?? []).map((row) => [T.reasons[row.value] ?? row.value, row.views]) };
    case "signUpsByPage":
      return { columns, rows: report.signUpsByPage.map((row) => [row.key[0]!, list(row.key[1]), ...quality(row)]) };
    case "signUpsByEntry":
      return { columns, rows: report.signUpsByEntry.map((row) => [row.key[0] || T.channels.unknown!, list(row.key[1]), ...quality(row)]) };
    case "signUpsBySource":
      return { columns, rows: (report.signUpsBySource ?? []).map((row) => [T.channels[row.key[0]!] ?? row.key[0]!, row.key[1]!, row.key[2]!, row.key[3]!, list(row.key[4]), ...quality(row)]) };
    case "signUpsBySubId":
      return { columns, rows: (report.signUpsBySubId ?? []).map((row) => [`${row.key[0]}=${row.key[1]}`, list(row.key[2]), ...quality(row)]) };
    case "offerClicksBySource":
      return { columns, rows: (report.offerClicks?.bySource ?? []).map((row) => [T.channels[row.key[0]!] ?? row.key[0]!, row.key[1]!, row.key[2]!, row.key[3]!, row.people, row.excluded]) };
    case "offerClicksBySubId":
      return { columns, rows: (report.offerClicks?.bySubId ?? []).map((row) => [row.key[0]!, row.people, row.excluded]) };
    case "offerClicksExcluded":
      return { columns, rows: (report.offerClicks?.excluded ?? []).map((row) => [(MACHINE_CLICK_LABELS as Record<string, string>)[row.reason] ?? row.reason, row.clicks]) };
    case "leads":
      return { columns, rows: (report.leads ?? []).map(leadRow) };
    case "linkClicks":
      return { columns, rows: (report.linkClicks ?? []).map((row) => [list(row.channel), row.name, row.clicks, row.clickers, row.machineFetches]) };
  }
}
