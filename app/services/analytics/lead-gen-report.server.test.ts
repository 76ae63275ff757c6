import { desc, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import type { Db } from "~/db/client.server";
import { analyticsDaily, auditLog, campaignRecipients, consentEvents, subscribers, subscriptionAttributions } from "~/db/schema";
import { DB_KINDS, useTestDatabase } from "../../../tests/support/test-db";
import { deleteCost, listCosts, setCosts } from "./ad-costs.server";
import { leadGenFigures } from "./lead-gen-report.server";
import type { AnalyticsReport } from "./reports.server";
import { reportTable } from "./report-tables";

// "Now": 2026-03-31 12:00 in New York. The range: February and March, local days.
const NOW = new Date("2026-03-31T16:00:00Z");
const RANGE = { from: "2026-02-01", to: "2026-03-31" };
const OPTIONS = { timeZone: "America/New_York", now: NOW };

type Origin = { formPath: string; utmSource: string; utmCampaign: string; sub1?: string; sub2?: string };
type Event = { action: (typeof consentEvents.$inferInsert)["action"]; at: string };

let phones = 0;
async function signUp(db: Db, when: string, origin: Origin, later: Event[] = [], doubleOptIn = false, subscriberId?: string) {
  const id =
    subscriberId ??
    (await db
      .insert(subscribers)
      .values({ channel: "sms", phoneE164: `+1212555${String(++phones).padStart(4, "0")}`, firstName: "A", lastName: "B", status: "active", source: "opt-in" })
      .returning({ id: subscribers.id }))[0]!.id;
  const [event] = await db.insert(consentEvents).values({ subscriberId: id, channel: "sms", action: "opt_in", occurredAt: new Date(when) }).returning({ id: consentEvents.id });
  if (doubleOptIn) await db.insert(campaignRecipients).values({ address: "+12125550000", kind: "doi_request", body: "Reply Y", subscriberId: id, consentEventId: event!.id });
  await db.insert(subscriptionAttributions).values({ subscriberId: id, consentEventId: event!.id, channel: "sms", basis: "form", visitChannel: "paid", utmMedium: "cpc", createdAt: new Date(when), ...origin });
  for (const next of later) await db.insert(consentEvents).values({ subscriberId: id, channel: "sms", action: next.action, occurredAt: new Date(next.at) });
  return id;
}

const visits = (day: string, key: string[], views: number) => ({ dimension: "lead-landing", day, value: JSON.stringify(key), views, visitors: 0 });
const cost = (day: string, source: string, campaign: string, subId: string, amountCents: number) => ({ day, source, campaign, subId, amountCents });
const SPRING = { formPath: "/opt-in", utmSource: "newsmax", utmCampaign: "spring" };

async function fixture(db: Db) {
  // Landing visits by people, from the rollup: sub2's per-click ids fold into their sub1.
  await db.insert(analyticsDaily).values([
    visits("2026-01-15", ["newsmax", "spring", "AFF1", "", "", "", ""], 1000),
    visits("2026-02-20", ["newsmax", "spring", "AFF1", "c1", "", "", ""], 30),
    visits("2026-02-21", ["newsmax", "spring", "AFF1", "c2", "", "", ""], 20),
    visits("2026-02-27", ["newsmax", "spring", "AFF2", "", "", "", ""], 25),
    visits("2026-03-25", ["newsmax", "summer", "", "", "", "", ""], 10),
    visits("2026-03-01", ["", "", "", "", "", "", ""], 7),
    { dimension: "utm", day: "2026-02-20", value: JSON.stringify(["newsmax", "cpc", "spring"]), views: 500, visitors: 0 },
  ]);

  // AFF1: a single opt-in who leaves on day 18 (and comes back from summer); a double opt-in
  // confirmed who replies STOP the next day; a double opt-in never confirmed.
  const s1 = await signUp(db, "2026-02-20T15:00:00Z", { ...SPRING, sub1: "AFF1", sub2: "c1" }, [{ action: "opt_out", at: "2026-03-10T15:00:00Z" }]);
  await signUp(db, "2026-02-21T15:00:00Z", { ...SPRING, sub1: "AFF1", sub2: "c2" }, [
    { action: "doi_confirmed", at: "2026-02-21T15:01:00Z" },
    { action: "opt_out", at: "2026-02-22T15:00:00Z" },
  ], true);
  await signUp(db, "2026-02-22T15:00:00Z", { ...SPRING, sub1: "AFF1" }, [{ action: "doi_expired", at: "2026-02-24T15:00:00Z" }], true);
  // AFF2: a "Reply Y" never answered.
  await signUp(db, "2026-02-27T15:00:00Z", { ...SPRING, sub1: "AFF2" }, [{ action: "doi_expired", at: "2026-03-01T15:00:00Z" }], true);
  // Summer, too young for the 7-day rate: s1 back six days ago, and one who left the next day.
  await signUp(db, "2026-03-25T15:00:00Z", { ...SPRING, utmCampaign: "summer" }, [], false, s1);
  await signUp(db, "2026-03-28T15:00:00Z", { ...SPRING, utmCampaign: "summer" }, [{ action: "opt_out", at: "2026-03-29T15:00:00Z" }]);
  // Not from the landing page: an article's form with the same source is no lead of the ads.
  await signUp(db, "2026-02-20T16:00:00Z", { formPath: "/articles/gold", utmSource: "newsmax", utmCampaign: "spring", sub1: "AFF1" });

  await setCosts(
    db,
    [
      cost("2026-01-31", "newsmax", "spring", "AFF1", 99900),
      cost("2026-02-20", "newsmax", "spring", "AFF1", 10000),
      cost("2026-02-21", "newsmax", "spring", "AFF1", 5001),
      cost("2026-02-27", "newsmax", "spring", "AFF2", 2000),
      cost("2026-03-25", "newsmax", "", "", 3333),
      cost("2026-03-01", "facebook", "", "", 1000),
    ],
    "admin@example.com",
  );
}

describe.each(DB_KINDS)("the lead-gen report on %s", (kind) => {
  const database = useTestDatabase(kind);

  it("gives landing visits, opt-ins, conversion, costs per lead and per confirmed lead and the 7-day opt-out rate to the cent", async () => {
    const { db } = database;
    await fixture(db);
    const rows = await leadGenFigures(db, RANGE, OPTIONS);
    const figures = rows.map((row) => [row.total ? "total" : "row", row.source, row.campaign, row.subId, row.visits, row.optIns, row.confirmed, row.aged7, row.left7, row.costCents]);
    expect(figures).toEqual([
      ["total", "newsmax", "", "", 85, 6, 4, 4, 1, 20334],
      ["row", "newsmax", "spring", "AFF1", 50, 3, 2, 3, 1, 15001],
      ["row", "newsmax", "", "", 0, 0, 0, 0, 0, 3333],
      ["row", "newsmax", "spring", "AFF2", 25, 1, 0, 1, 0, 2000],
      ["row", "newsmax", "summer", "", 10, 2, 2, 0, 0, 0],
      ["total", "facebook", "", "", 0, 0, 0, 0, 0, 1000],
      ["row", "facebook", "", "", 0, 0, 0, 0, 0, 1000],
      ["total", "", "", "", 7, 0, 0, 0, 0, 0],
      ["row", "", "", "", 7, 0, 0, 0, 0, 0],
    ]);

    // As the page and the CSV file show them: rates to a tenth of a percent, money to the cent
    // (half a cent up), nothing where there is nothing to divide by.
    const table = reportTable({ days: [], leads: rows } as unknown as AnalyticsReport, "leads");
    expect(table.rows.slice(0, 5)).toEqual([
      ["newsmax", "All campaigns and sub-ids", "", 85, 6, 4, "7.1%", "203.34", "33.89", "50.84", 4, "25.0%"],
      ["newsmax", "spring", "AFF1", 50, 3, 2, "6.0%", "150.01", "50.00", "75.01", 3, "33.3%"],
      ["newsmax", "", "", 0, 0, 0, "", "33.33", "", "", 0, ""],
      ["newsmax", "spring", "AFF2", 25, 1, 0, "4.0%", "20.00", "20.00", "", 1, "0.0%"],
      ["newsmax", "summer", "", 10, 2, 2, "20.0%", "", "", "", 0, ""],
    ]);
    expect(table.rows.at(-1)).toEqual(["(none)", "", "", 7, 0, 0, "0.0%", "", "", "", 0, ""]);

    // January holds only the visits and the cost before the range (the same source, campaign and sub-id: one row).
    expect((await leadGenFigures(db, { from: "2026-01-01", to: "2026-01-31" }, OPTIONS)).map((row) => [row.total, row.visits, row.optIns, row.costCents])).toEqual([
      [true, 1000, 0, 99900],
      [false, 1000, 0, 99900],
    ]);
  });

  it("writes an audit entry for every change of a cost, and none when nothing changes", async () => {
    const { db } = database;
    const key = { day: "2026-03-02", source: "google", campaign: "brand", subId: "" };
    expect(await setCosts(db, [{ ...key, amountCents: 4250 }], "ann@example.com")).toEqual({ changed: 1 });
    expect(await setCosts(db, [{ ...key, amountCents: 4250 }], "ann@example.com")).toEqual({ changed: 0 });
    expect(await setCosts(db, [{ ...key, amountCents: 4300 }], "bob@example.com")).toEqual({ changed: 1 });
    expect(await listCosts(db, { from: "2026-03-02", to: "2026-03-02" })).toEqual([{ ...key, amountCents: 4300 }]);
    expect(await deleteCost(db, key, "bob@example.com")).toBe(true);
    expect(await deleteCost(db, key, "bob@example.com")).toBe(false);
    const entries = await db.select({ actor: auditLog.actor, action: auditLog.action, before: auditLog.before, after: auditLog.after }).from(auditLog).where(eq(auditLog.entity, "ad_costs")).orderBy(desc(auditLog.id)).limit(3);
    const described = (amount: string) => JSON.stringify({ ...key, amount });
    expect(entries.reverse()).toEqual([
      { actor: "ann@example.com", action: "ad_cost.set", before: null, after: described("42.50") },
      { actor: "bob@example.com", action: "ad_cost.set", before: described("42.50"), after: described("43.00") },
      { actor: "bob@example.com", action: "ad_cost.delete", before: described("43.00"), after: null },
    ]);
  });
});
