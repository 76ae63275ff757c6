import { describe, expect, it } from "vitest";
import { centsPer, formatCents, parseCents, readCost } from "./ad-costs";
import { parseCostCsv } from "./ad-cost-csv.server";

describe("ad cost amounts in whole cents", () => {
  it("reads dollars and cents by their digits, never through floating point", () => {
    expect(parseCents("0.07")).toBe(7);
    expect(parseCents("12.5")).toBe(1250);
    expect(parseCents("$1,234.56")).toBe(123456);
    expect(parseCents(" 300 ")).toBe(30000);
    // 0.1 + 0.2 is not 0.3 in binary; 1.15 * 100 is 114.99999999999999.
    expect(parseCents("1.15")).toBe(115);
    expect(parseCents("4.35")).toBe(435);
    for (const bad of ["", "-5", "1.234", "12,34", "1,2345.00", "five", "1e3", "$", ".50", "100000001"]) expect(parseCents(bad)).toBeNull();
  });

  it("writes cents with two decimals and shares a cost to the nearest cent", () => {
    expect(formatCents(0)).toBe("0.00");
    expect(formatCents(7)).toBe("0.07");
    expect(formatCents(123456)).toBe("1234.56");
    expect(centsPer(10000, 3)).toBe(3333);
    expect(centsPer(20000, 3)).toBe(6667);
    // Half a cent goes up: $0.05 over two leads is 3 cents.
    expect(centsPer(5, 2)).toBe(3);
    expect(centsPer(100, 0)).toBeNull();
  });

  it("normalises a cost as the landing page's parameters are: the source lower-case, campaign and sub-id as written", () => {
    expect(readCost({ day: "2026-03-01", source: " NewsMax ", campaign: "Spring", subId: "AFF1", amount: "10" })).toEqual({
      ok: true,
      entry: { day: "2026-03-01", source: "newsmax", campaign: "Spring", subId: "AFF1", amountCents: 1000 },
    });
    expect(readCost({ day: "2026-02-30", source: "fb", amount: "1" })).toMatchObject({ ok: false, reason: expect.stringContaining("YYYY-MM-DD") });
    expect(readCost({ day: "2026-02-28", source: "", amount: "1" })).toMatchObject({ ok: false, reason: expect.stringContaining("source") });
    expect(readCost({ day: "2026-02-28", source: "fb", amount: "-1" })).toMatchObject({ ok: false, reason: expect.stringContaining("amount") });
  });
});

describe("the cost CSV file", () => {
  it("reads every good line and refuses each bad one with its line number and reason", () => {
    const file = [
      "Date,Source,Campaign,Sub-ID,Amount",
      "2026-03-01,newsmax,Spring,AFF1,120.50",
      "2026-03-01,newsmax,Spring,AFF2,\"1,000\"",
      "",
      "2026-03-01,NewsMax,Spring,AFF1,5",
      "2026-03-32,newsmax,Spring,AFF1,5",
      "2026-03-02,,Spring,AFF1,5",
      "2026-03-02,newsmax,Spring,AFF1,5.005",
      "2026-03-02,newsmax,Spring",
      "2026-03-02,facebook,,,80",
    ].join("\r\n");
    const parsed = parseCostCsv(`\uFEFF${file}\r\n`);
    expect(parsed).toEqual({
      ok: true,
      entries: [
        { day: "2026-03-01", source: "newsmax", campaign: "Spring", subId: "AFF1", amountCents: 12050 },
        { day: "2026-03-01", source: "newsmax", campaign: "Spring", subId: "AFF2", amountCents: 100000 },
        { day: "2026-03-02", source: "facebook", campaign: "", subId: "", amountCents: 8000 },
      ],
      refused: [
        { line: 5, reason: "the same date, source, campaign and sub-id as line 2" },
        { line: 6, reason: "the date must be written YYYY-MM-DD, e.g. 2026-03-01" },
        { line: 7, reason: "the source is missing (the utm_source of the ads)" },
        { line: 8, reason: "the amount must be dollars and cents, e.g. 125.40, not negative" },
        { line: 9, reason: "has 3 fields, the header 5" },
      ],
    });
  });

  it("takes the columns in any order, campaign and sub-id optional", () => {
    expect(parseCostCsv("amount,source,date\n9.99,google,2026-03-05\n")).toEqual({
      ok: true,
      entries: [{ day: "2026-03-05", source: "google", campaign: "", subId: "", amountCents: 999 }],
      refused: [],
    });
  });

  it("refuses a file without the required columns, with an unknown column, or that is not CSV", () => {
    expect(parseCostCsv("date,source\n2026-03-01,fb\n")).toEqual({ ok: false, message: "The first line must name the columns (date, source, campaign, sub_id, amount); missing: amount." });
    expect(parseCostCsv("date,source,amount,clicks\n")).toMatchObject({ ok: false, message: expect.stringContaining("Unknown column “clicks”") });
    expect(parseCostCsv('date,source,amount\n"2026-03-01,fb,1\n')).toMatchObject({ ok: false, message: expect.stringContaining("not valid CSV") });
    expect(parseCostCsv("")).toMatchObject({ ok: false });
  });
});
