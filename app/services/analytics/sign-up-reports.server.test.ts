import { describe, expect, it } from "vitest";
import { DB_KINDS, useTestDatabase } from "../../../tests/support/test-db";
import { fixture, NOW, RANGE } from "../../../tests/support/sign-up-fixture";
import { signUpFigures } from "./sign-up-reports.server";

// [sign-ups, confirmed, 7+ days old, still subscribed at 7 days, 30+ days old, still subscribed at 30 days, left within 7 days]
const figures = (rows: Awaited<ReturnType<typeof signUpFigures>>) =>
  rows.map((row) => [...row.key, row.signUps, row.confirmed, row.aged7, row.kept7, row.aged30, row.kept30, row.left7]);

describe.each(DB_KINDS)("sign-up quality figures on %s", (kind) => {
  const database = useTestDatabase(kind);

  it("gives each grouping's sign-ups, confirmations, 7- and 30-day retention and early leavers exactly", async () => {
    const { db } = database;
    await fixture(db);
    const options = { timeZone: "America/New_York", now: NOW };
    expect(figures(await signUpFigures(db, RANGE, { ...options, grouping: "page" }))).toEqual([
      ["/opt-in", "sms", 4, 3, 3, 1, 3, 0, 1],
      ["/articles/gold", "email", 3, 2, 3, 1, 3, 1, 1],
      ["/", "email", 1, 1, 0, 0, 0, 0, 0],
      ["/articles/silver", "email", 1, 1, 1, 1, 0, 0, 0],
    ]);
    expect(figures(await signUpFigures(db, RANGE, { ...options, grouping: "source" }))).toEqual([
      ["search", "", "", "", "email", 4, 3, 4, 2, 3, 1, 1],
      ["paid", "newsmax", "cpc", "spring", "sms", 3, 2, 3, 1, 3, 0, 1],
      ["direct", "", "", "", "email", 1, 1, 0, 0, 0, 0, 0],
      ["paid", "newsmax", "cpc", "summer", "sms", 1, 1, 0, 0, 0, 0, 0],
    ]);
    expect(figures(await signUpFigures(db, RANGE, { ...options, grouping: "subId" }))).toEqual([
      ["sub2", "AFF1", "sms", 2, 2, 2, 1, 2, 0, 1],
      ["sub2", "AFF2", "sms", 2, 1, 1, 0, 1, 0, 0],
    ]);
    // The January sign-ups are in January's figures, by the site's day.
    expect(figures(await signUpFigures(db, { from: "2026-01-01", to: "2026-01-31" }, { ...options, grouping: "page" }))).toEqual([["/articles/gold", "email", 2, 2, 2, 2, 2, 2, 0]]);
  });
});
