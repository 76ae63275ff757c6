import { describe, expect, it } from "vitest";
import { campaigns, linkClicks, newsletterIssues, shortLinks } from "~/db/schema";
import { DB_KINDS, useTestDatabase } from "../../../tests/support/test-db";
import { linkClickFigures } from "./link-click-report.server";

const ZONE = "America/New_York";
/** Noon in New York on a day (16:00 or 17:00 UTC): inside that local day whatever the season. */
const at = (day: string, hour = "17:00") => new Date(`${day}T${hour}:00Z`);

describe.each(DB_KINDS)("link clicks by alert and newsletter issue on %s", (kind) => {
  const database = useTestDatabase(kind);

  it("counts the range's clicks by people, the people and the machines' fetches per campaign, named by alert or issue", async () => {
    const { db } = database;
    const [alert] = await db.insert(campaigns).values({ channel: "sms", name: "Gold at a record", body: "Gold closed at a record. https://x.test" }).returning();
    const [mail] = await db.insert(campaigns).values({ channel: "email", name: "newsletter-7", body: "" }).returning();
    await db.insert(newsletterIssues).values({ subject: "The Week in Sound Money", campaignId: mail!.id });
    await db.insert(shortLinks).values([
      { code: "AlertAa", url: "https://news.example.test/gold", campaignId: alert!.id },
      { code: "MailBbb", url: "https://news.example.test/bonds", campaignId: mail!.id },
    ]);
    const click = (code: string, campaignId: string, visitor: string, clickedAt: Date, machine: string | null = null) => ({ code, campaignId, visitor, clickedAt, machine });
    await db.insert(linkClicks).values([
      click("AlertAa", alert!.id, "v1", at("2026-03-02")),
      click("AlertAa", alert!.id, "v1", at("2026-03-02", "18:00")),
      click("AlertAa", alert!.id, "v2", at("2026-03-03")),
      click("AlertAa", alert!.id, "p1", at("2026-03-02"), "link-preview"),
      click("MailBbb", mail!.id, "v3", at("2026-03-03")),
      click("MailBbb", mail!.id, "s1", at("2026-03-03"), "mail-scanner"),
      click("MailBbb", mail!.id, "s2", at("2026-03-03"), "soon-after-delivery"),
      // 23:30 in New York on March 4: the next UTC day, still the range's last local day.
      click("MailBbb", mail!.id, "v4", new Date("2026-03-05T04:30:00Z")),
      // Outside the range: the day before it, and the day after it in New York.
      click("AlertAa", alert!.id, "v5", at("2026-03-01")),
      click("MailBbb", mail!.id, "v6", new Date("2026-03-05T05:30:00Z")),
    ]);

    expect(await linkClickFigures(db, { from: "2026-03-02", to: "2026-03-04" }, { timeZone: ZONE })).toEqual([
      { campaignId: alert!.id, channel: "sms", name: "Gold at a record", clicks: 3, clickers: 2, machineFetches: 1 },
      { campaignId: mail!.id, channel: "email", name: "The Week in Sound Money", clicks: 2, clickers: 2, machineFetches: 2 },
    ]);
    expect(await linkClickFigures(db, { from: "2026-03-06", to: "2026-03-07" }, { timeZone: ZONE })).toEqual([]);
  });
});
