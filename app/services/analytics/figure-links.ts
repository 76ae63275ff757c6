import { SIGN_UP_FILTER_TEXTS } from "~/lib/sign-up-filter-texts";
import { LEAD_PAGE_PATH, LEAD_SUB_ID } from "./lead-gen";
import type { LeadRow } from "./lead-gen-report.server";
import type { AnalyticsReport, ReportRange } from "./reports.server";
import type { ReportTable } from "./report-tables";
import { signUpListHref, type SignUpFilter, type SignUpState, type SubParam } from "./sign-up-filter";
import type { SignUpFigures } from "./sign-up-reports.server";

/** A figure that opens the list of what it counts: where, and an accessible name that says so. */
export type FigureLink = { href: string; label: string };

const number = new Intl.NumberFormat("en-US");

/** The states of the seven quality columns of a sign-up table, in order (undefined: every sign-up). */
const QUALITY_STATES: (SignUpState | undefined)[] = [undefined, "confirmed", "aged7", "kept7", "aged30", "kept30", "left7"];
const quality = (row: SignUpFigures) => [row.signUps, row.confirmed, row.aged7, row.kept7, row.aged30, row.kept30, row.left7];

/** A link for a count, none for zero: an empty list helps nobody. */
function link(count: number, filter: SignUpFilter): FigureLink | null {
  if (count <= 0) return null;
  return { href: signUpListHref(filter), label: SIGN_UP_FILTER_TEXTS.figureLink(number.format(count), filter) };
}

function qualityLinks(rows: SignUpFigures[], keyColumns: number, keyFilter: (row: SignUpFigures) => SignUpFilter, range: ReportRange) {
  return rows.map((row) => {
    const base: SignUpFilter = { ...keyFilter(row), channel: row.key.at(-1) === "sms" ? "sms" : "email", range };
    const figures = quality(row).map((count, index) => link(count, { ...base, ...(QUALITY_STATES[index] ? { state: QUALITY_STATES[index] } : {}) }));
    return [...Array<null>(keyColumns).fill(null), ...figures];
  });
}

/** The lead table's opt-in counts: opt-ins, confirmed, opt-ins 7+ days old (its rates and money stay plain). */
function leadLinks(rows: LeadRow[], range: ReportRange) {
  return rows.map((row) => {
    const base: SignUpFilter = row.total
      ? { form: LEAD_PAGE_PATH, source: row.source, range }
      : { form: LEAD_PAGE_PATH, source: row.source, campaign: row.campaign, sub: { name: LEAD_SUB_ID, value: row.subId }, range };
    const cells: (FigureLink | null)[] = Array<null>(12).fill(null);
    cells[4] = link(row.optIns, base);
    cells[5] = link(row.confirmed, { ...base, state: "confirmed" });
    cells[10] = link(row.aged7, { ...base, state: "aged7" });
    return cells;
  });
}

/**
 * The links of a table's figures, cell by cell as reportTable lays its rows out (null: a plain
 * figure), for the sign-up tables and the lead table; views, visitors and clicks count no list of
 * people and have none (decision 157). The CSV files never carry them.
 */
export function figureLinks(report: AnalyticsReport, table: ReportTable): (FigureLink | null)[][] | undefined {
  const range = report.range;
  switch (table) {
    case "signUpsByPage":
      return qualityLinks(report.signUpsByPage, 2, (row) => ({ form: row.key[0]! }), range);
    case "signUpsByEntry":
      return qualityLinks(report.signUpsByEntry, 2, (row) => ({ entry: row.key[0]! }), range);
    case "signUpsBySource":
      return qualityLinks(report.signUpsBySource ?? [], 5, (row) => ({ visit: row.key[0]!, source: row.key[1]!, medium: row.key[2]!, campaign: row.key[3]! }), range);
    case "signUpsBySubId":
      return qualityLinks(report.signUpsBySubId ?? [], 2, (row) => ({ sub: { name: row.key[0] as SubParam, value: row.key[1]! } }), range);
    case "leads":
      return leadLinks(report.leads ?? [], range);
    default:
      return undefined;
  }
}
