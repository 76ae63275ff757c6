import { cleanValue } from "./landing";

/**
 * Ad costs as whole cents (decision 155): what is parsed from the form and from a CSV file, and
 * how money is written. No floating point touches an amount: "12.5" is read as 1250 by its digits.
 * The analytics page renders in the browser too, so this module imports nothing of Node's; the
 * CSV reader (csv-parse needs Buffer) lives in ad-cost-csv.server.ts.
 */

/** One day's cost of a source, optionally of one campaign and sub-id ("" where not split). */
export type CostKey = { day: string; source: string; campaign: string; subId: string };
export type CostEntry = CostKey & { amountCents: number };

/** Well above any day's spend on one source; keeps sums far inside Number.MAX_SAFE_INTEGER. */
export const MAX_COST_CENTS = 100_000_000_00;

const MONEY = /^\$?\s*(\d{1,3}(?:,\d{3})+|\d+)(?:\.(\d{1,2}))?$/;

/** "1,234.5", "$12", "0.07" → cents; null for anything else (negative, three decimals, words). */
export function parseCents(text: string): number | null {
  const match = MONEY.exec(text.trim());
  if (!match) return null;
  const cents = Number(match[1]!.replaceAll(",", "")) * 100 + Number((match[2] ?? "").padEnd(2, "0"));
  return Number.isSafeInteger(cents) && cents <= MAX_COST_CENTS ? cents : null;
}

/** Cents as dollars with two decimals and no grouping ("1234.50"), for tables and CSV files. */
export function formatCents(cents: number): string {
  const sign = cents < 0 ? "-" : "";
  const whole = Math.abs(cents);
  return `${sign}${Math.floor(whole / 100)}.${String(whole % 100).padStart(2, "0")}`;
}

/** `total` cents shared over `count`, to the nearest cent (half a cent up); null when there is nothing to share over. */
export function centsPer(total: number, count: number): number | null {
  if (count <= 0) return null;
  return Math.floor((2 * total + count) / (2 * count));
}

const DAY = /^\d{4}-\d{2}-\d{2}$/;

export function isCostDay(text: string) {
  if (!DAY.test(text)) return false;
  const date = new Date(`${text}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === text;
}

/**
 * A cost as entered, checked and normalised as the landing page's parameters are (decision 149):
 * the source lower-cased, campaign and sub-id kept as written, each cut to 100 characters.
 */
export function readCost(input: { day?: string; source?: string; campaign?: string; subId?: string; amount?: string }): { ok: true; entry: CostEntry } | { ok: false; reason: string } {
  const day = (input.day ?? "").trim();
  if (!isCostDay(day)) return { ok: false, reason: "the date must be written YYYY-MM-DD, e.g. 2026-03-01" };
  const source = cleanValue(input.source ?? "", true);
  if (!source) return { ok: false, reason: "the source is missing (the utm_source of the ads)" };
  const amountCents = parseCents(input.amount ?? "");
  if (amountCents === null) return { ok: false, reason: "the amount must be dollars and cents, e.g. 125.40, not negative" };
  return { ok: true, entry: { day, source, campaign: cleanValue(input.campaign ?? ""), subId: cleanValue(input.subId ?? ""), amountCents } };
}

export const COST_CSV_COLUMNS = ["date", "source", "campaign", "sub_id", "amount"] as const;
