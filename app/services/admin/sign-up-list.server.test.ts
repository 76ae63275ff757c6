import { describe, expect, it } from "vitest";
import type { Db } from "~/db/client.server";
import { figureLinks } from "~/services/analytics/figure-links";
import { analyticsReport } from "~/services/analytics/reports.server";
import { reportTable, type ReportTable } from "~/services/analytics/report-tables";
import { parseSignUpFilter } from "~/services/analytics/sign-up-filter.server";
import { fixture, NOW, RANGE, signUp, subscriber } from "../../../tests/support/sign-up-fixture";
import { DB_KINDS, useTestDatabase } from "../../../tests/support/test-db";
import { countSignUps, listSignUps, signUpsCsvStream } from "./sign-up-list.server";
import { PAGE_SIZE } from "./reports.server";

const TIME_ZONE = "America/New_York";
const TODAY = "2026-03-31";
const options = { timeZone: TIME_ZONE, now: NOW };

/** More ad opt-ins, split by sub1 (the lead table's sub-id), on both lists: a total row and rows per sub1. */
async function leads(db: Db) {
  const ad = { formPath: "/opt-in", visitChannel: "paid", utmSource: "newsmax", utmMedium: "cpc", utmCampaign: "spring" };
  await signUp(db, await subscriber(db, "sms", 20), "sms", "2026-03-02T15:00:00Z", { ...ad, sub1: "PUB-1" }, [{ action: "opt_out", at: "2026-03-03T15:00:00Z" }]);
  await signUp(db, await subscriber(db, "sms", 21), "sms", "2026-03-05T15:00:00Z", { ...ad, sub1: "PUB-1" });
  await signUp(db, await subscriber(db, "email", 22), "email", "2026-03-06T15:00:00Z", { ...ad, sub1: "PUB-2" }, [{ action: "email_confirm", at: "2026-03-06T15:01:00Z" }]);
  await signUp(db, await subscriber(db, "sms", 23), "sms", "2026-03-30T15:00:00Z", { ...ad, utmSource: "", utmCampaign: "", sub1: "" });
}

async function csvLines(stream: ReadableStream<Uint8Array>) {
  return (await new Response(stream).text()).split("\r\n").filter(Boolean);
}

describe.each(DB_KINDS)("the subscriber lists the sign-up figures link to, on %s", (kind) => {
  const database = useTestDatabase(kind);

  it("lists exactly as many sign-ups as each figure of the sign-up and lead tables counts", async () => {
    const { db } = database;
    await fixture(db);
    await leads(db);
    const report = await analyticsReport(db, RANGE, { admin: true, ...options });
    let checked = 0;
    for (const table of ["signUpsByPage", "signUpsByEntry", "signUpsBySource", "signUpsBySubId", "leads"] as ReportTable[]) {
      const { rows } = reportTable(report, table);
      const links = figureLinks(report, table)!;
      expect(links).toHaveLength(rows.length);
      expect(rows.length).toBeGreaterThan(0);
      for (const [rowIndex, row] of rows.entries()) {
        for (const [index, link] of links[rowIndex]!.entries()) {
          const cell = row[index];
          if (!link) {
            // No link: a zero, or a figure that is no count of people (a rate, money, a key).
            if (typeof cell === "number" && (table !== "leads" || [4, 5, 10].includes(index))) expect(cell, `${table} ${rowIndex}:${index}`).toBe(0);
            continue;
          }
          expect(typeof cell).toBe("number");
          expect(link.label.startsWith(`${cell}: `)).toBe(true);
          const url = new URL(link.href, "https://news.example.test");
          expect(url.pathname).toBe("/admin/subscribers");
          const parsed = parseSignUpFilter(url.searchParams, TODAY);
          if (!parsed.ok) throw new Error(parsed.error);
          expect(parsed.filter.range).toEqual(RANGE);
          const count = await countSignUps(db, parsed.filter, options);
          expect(count, `${table} row ${rowIndex} column ${index}: ${link.href}`).toBe(cell);
          const list = await listSignUps(db, parsed.filter, { ...options, page: 1 });
          expect(list.total).toBe(cell);
          expect(list.rows).toHaveLength(Math.min(count, PAGE_SIZE));
          expect(await csvLines(signUpsCsvStream(db, parsed.filter, options))).toHaveLength(count + 1);
          checked++;
        }
      }
    }
    // Every table's links were followed, not a handful.
    expect(checked).toBeGreaterThan(40);
  });

  it("lists who a figure counts, the search narrows it, and the CSV carries each sign-up's time", async () => {
    const { db } = database;
    // Still subscribed at 7 days among the article's e-mail sign-ups: reader 1 only (reader 2 left on day 2, reader 3 never confirmed).
    const kept = { form: "/articles/gold", channel: "email" as const, range: RANGE, state: "kept7" as const };
    const list = await listSignUps(db, kept, { ...options, page: 1 });
    expect(list.rows.map((row) => row.email)).toEqual(["reader1@example.com"]);
    expect(list.rows[0]!.signedUpAt.toISOString()).toBe("2026-02-10T15:00:00.000Z");
    expect((await listSignUps(db, { form: "/articles/gold", channel: "email", range: RANGE, state: "left7" }, { ...options, page: 1 })).rows.map((row) => row.email)).toEqual([
      "reader2@example.com",
    ]);
    // A person who signed up twice is listed once per sign-up: s1 came by spring (AFF1) and back by summer (AFF2).
    const both = await listSignUps(db, { form: "/opt-in", source: "newsmax", range: RANGE }, { ...options, page: 1 });
    expect(both.total).toBe(7);
    expect(new Set(both.rows.map((row) => row.id)).size).toBe(6);
    // "No source" is a filter of its own, not the absence of one.
    expect(await countSignUps(db, { form: "/opt-in", source: "", range: RANGE }, options)).toBe(1);
    // Without days, every sign-up of all time: January's two gold e-mails too.
    expect(await countSignUps(db, { form: "/articles/gold" }, options)).toBe(5);
    // The list's search narrows the filtered list.
    expect(await countSignUps(db, { form: "/articles/gold", range: RANGE }, { ...options, search: "reader2@" })).toBe(1);
    expect(await countSignUps(db, { form: "/articles/gold", range: RANGE }, { ...options, search: "nobody" })).toBe(0);
    const lines = await csvLines(signUpsCsvStream(db, kept, options));
    expect(lines[0]).toBe("signed_up_at,created_at,channel,status,source,first_name,last_name,phone_e164,email,click_id");
    expect(lines.slice(1).map((line) => [line.split(",")[0], line.split(",")[8]])).toEqual([["2026-02-10T15:00:00.000Z", "reader1@example.com"]]);
  });
});
