import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { DB_KINDS, useTestDatabase } from "../../../tests/support/test-db";
import { offerClickReport, recordOfferClick, type OfferClick } from "./offer-clicks.server";

const click = (day: string, extra: Partial<OfferClick> = {}): OfferClick => ({ day, channel: "paid", source: "newsmax", medium: "cpc", campaign: "fall", subs: ["A", "", "", "", ""], machine: null, ...extra });

describe.each(DB_KINDS)("offer clicks on %s", (kind) => {
  const database = useTestDatabase(kind);

  it("adds each click to its day's row, people and machines apart, and reports them by source, sub-id and reason", async () => {
    const { db } = database;
    for (let i = 0; i < 3; i++) await recordOfferClick(db, click("2026-03-02"));
    await recordOfferClick(db, click("2026-03-02", { machine: "head" }));
    await recordOfferClick(db, click("2026-03-03", { machine: "bot-list", subs: ["A", "B", "", "", ""] }));
    await recordOfferClick(db, click("2026-03-03", { channel: "unknown", source: "", medium: "", campaign: "", subs: ["", "", "", "", ""] }));
    // Out of the range.
    await recordOfferClick(db, click("2026-03-05"));

    // Storage grows with days and sources, not clicks.
    const stored = await db.execute<{ n: unknown }>(sql`SELECT count(*) AS n FROM offer_clicks`);
    expect(Number(stored.rows[0]!.n)).toBe(5);

    const report = await offerClickReport(db, { from: "2026-03-01", to: "2026-03-04" });
    expect(report.bySource).toEqual([
      { key: ["paid", "newsmax", "cpc", "fall"], people: 3, excluded: 2 },
      { key: ["unknown", "", "", ""], people: 1, excluded: 0 },
    ]);
    expect(report.bySubId).toEqual([
      { key: ["sub1=A"], people: 3, excluded: 2 },
      { key: ["sub2=B"], people: 0, excluded: 1 },
    ]);
    expect(report.excluded).toEqual([
      { reason: "bot-list", clicks: 1 },
      { reason: "head", clicks: 1 },
    ]);
  });
});
