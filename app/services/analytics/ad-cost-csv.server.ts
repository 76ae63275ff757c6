import { parse } from "csv-parse/sync";
import { COST_CSV_COLUMNS, readCost, type CostEntry, type CostKey } from "./ad-costs";

/** A cost file's reader: server only, as csv-parse needs Node's Buffer (the page's bundle must not). */

export const COST_CSV_MAX_ROWS = 5_000;

export type CostRefusal = { line: number; reason: string };
export type CostCsv = { ok: true; entries: CostEntry[]; refused: CostRefusal[] } | { ok: false; message: string };

const keyOf = (key: CostKey) => JSON.stringify([key.day, key.source, key.campaign, key.subId]);

/**
 * Reads a cost file: a header naming the columns (`date`, `source` and `amount` required,
 * `campaign` and `sub_id` optional, any order; `sub-id`, `subid` and `cost` accepted too), then one
 * cost a line. Every bad line is refused with its line number and why; a key given twice is
 * refused on its second line (the file would not say which amount is meant).
 */
export function parseCostCsv(text: string): CostCsv {
  let records: { record: string[]; info: { lines: number } }[];
  try {
    records = parse(text, { bom: true, skip_empty_lines: true, relax_column_count: true, info: true }) as never;
  } catch (error) {
    return { ok: false, message: `The file is not valid CSV: ${(error as Error).message.slice(0, 200)}` };
  }
  const aliases: Record<string, string> = { "sub-id": "sub_id", subid: "sub_id", "sub id": "sub_id", cost: "amount", day: "date" };
  const header = (records[0]?.record ?? []).map((name) => {
    const clean = name.trim().toLowerCase();
    return aliases[clean] ?? clean;
  });
  const missing = ["date", "source", "amount"].filter((name) => !header.includes(name));
  if (missing.length > 0) return { ok: false, message: `The first line must name the columns (${COST_CSV_COLUMNS.join(", ")}); missing: ${missing.join(", ")}.` };
  const unknown = header.find((name) => !(COST_CSV_COLUMNS as readonly string[]).includes(name));
  if (unknown !== undefined) return { ok: false, message: `Unknown column “${unknown}”. Columns: ${COST_CSV_COLUMNS.join(", ")}.` };
  if (records.length - 1 > COST_CSV_MAX_ROWS) return { ok: false, message: `At most ${COST_CSV_MAX_ROWS.toLocaleString("en-US")} lines per file.` };

  const entries: CostEntry[] = [];
  const refused: CostRefusal[] = [];
  const seen = new Map<string, number>();
  for (const { record, info } of records.slice(1)) {
    const line = info.lines;
    if (record.length !== header.length) {
      refused.push({ line, reason: `has ${record.length} fields, the header ${header.length}` });
      continue;
    }
    const field = (name: string) => record[header.indexOf(name)] ?? "";
    const read = readCost({ day: field("date"), source: field("source"), campaign: field("campaign"), subId: field("sub_id"), amount: field("amount") });
    if (!read.ok) {
      refused.push({ line, reason: read.reason });
      continue;
    }
    const earlier = seen.get(keyOf(read.entry));
    if (earlier !== undefined) {
      refused.push({ line, reason: `the same date, source, campaign and sub-id as line ${earlier}` });
      continue;
    }
    seen.set(keyOf(read.entry), line);
    entries.push(read.entry);
  }
  return { ok: true, entries, refused };
}
