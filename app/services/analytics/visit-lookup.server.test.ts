import { describe, expect, it } from "vitest";
import type { Db } from "~/db/client.server";
import { attributionOf } from "./attribution";
import { createRecorder, replacesEntry, type VisitEntry } from "./recorder";
import { createVisitLookup } from "./visit-lookup.server";

const CHROME = "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36";
const CHROME_NEXT = CHROME.replace("Chrome/131.0.0.0", "Chrome/131.0.6778.86");
const FIREFOX = "Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0";
const browser = (extra: Record<string, string> = {}, userAgent = CHROME) => ({ host: "patriotinvestor.example", "user-agent": userAgent, "accept-language": "en-US", "sec-fetch-mode": "navigate", ...extra });
// 2026-03-02 15:20 in New York.
const AT = Date.parse("2026-03-02T20:20:00Z");

function setup(start = AT) {
  const clock = { now: start };
  const recorder = createRecorder({ timeZone: "America/New_York", viewsPerMinute: 1000, ownHosts: ["patriotinvestor.example"], now: () => clock.now });
  // The memory lookups below must not touch the database: a database that is not there proves it.
  const noDb = (): Db => {
    throw new Error("the lookup read the database");
  };
  const lookup = createVisitLookup({ recorder, db: noDb, site: "https://patriotinvestor.example" });
  return { recorder, lookup, clock };
}

describe("the visit lookup", () => {
  it("finds the visitor's entry of the day by network and browser family, never by the exact address", async () => {
    const { recorder, lookup, clock } = setup();
    recorder.count({ path: "/articles/gold-rush", query: "" }, browser({ referer: "https://www.google.com/" }), "203.0.113.9");
    clock.now += 120_000;
    // Reading on: internal views are not entries.
    recorder.count({ path: "/articles/silver", query: "" }, browser({ referer: "https://patriotinvestor.example/articles/gold-rush" }), "203.0.113.9");
    const entry = await lookup.entryOf("203.0.113.40", CHROME_NEXT, { memoryOnly: true });
    expect(entry).toMatchObject({ at: AT, path: "/articles/gold-rush", channel: "search", referrer: "google.com" });
    expect(await lookup.entryOf("203.0.114.9", CHROME, { memoryOnly: true })).toBeUndefined();
    expect(await lookup.entryOf("203.0.113.9", FIREFOX, { memoryOnly: true })).toBeUndefined();
    expect(await lookup.entryOf("unknown", CHROME, { memoryOnly: true })).toBeUndefined();
  });

  it("keeps the first entry from somewhere: a direct one gives way, a later campaign does not replace a search", async () => {
    const { recorder, lookup, clock } = setup();
    recorder.count({ path: "/", query: "" }, browser(), "198.51.100.7");
    expect(await lookup.entryOf("198.51.100.7", CHROME, { memoryOnly: true })).toMatchObject({ path: "/", channel: "direct" });
    clock.now += 60_000;
    recorder.count({ path: "/opt-in", query: "sub2=abc&utm_source=newsmax&utm_medium=cpc&utm_campaign=spring&gclid=zz" }, browser(), "198.51.100.7");
    clock.now += 60_000;
    recorder.count({ path: "/articles/x", query: "" }, browser({ referer: "https://www.bing.com/" }), "198.51.100.7");
    expect(await lookup.entryOf("198.51.100.7", CHROME, { memoryOnly: true })).toEqual({
      at: AT + 60_000,
      path: "/opt-in",
      channel: "paid",
      referrer: "",
      source: "newsmax",
      medium: "cpc",
      campaign: "spring",
      clickIds: ["gclid"],
      subs: ["", "abc", "", "", ""],
    });
    // The flush carries the entry of the interval: the one kept, once per visitor.
    const taken = recorder.take();
    expect([...taken.entries.values()].map((entry) => entry.path)).toEqual(["/opt-in"]);
  });

  it("finds yesterday's entry after midnight, and bots leave none", async () => {
    const { recorder, lookup, clock } = setup(Date.parse("2026-03-03T04:50:00Z")); // 23:50 in New York
    recorder.count({ path: "/articles/late", query: "" }, browser({ referer: "https://duckduckgo.com/" }), "192.0.2.1");
    recorder.count({ path: "/articles/late", query: "" }, browser({ referer: "https://duckduckgo.com/" }, "curl/8.5.0"), "192.0.2.99");
    clock.now += 30 * 60_000;
    expect(recorder.siteHour().day).toBe("2026-03-03");
    expect(await lookup.entryOf("192.0.2.1", CHROME, { memoryOnly: true })).toMatchObject({ path: "/articles/late", channel: "search" });
    expect(await lookup.entryOf("192.0.2.99", "curl/8.5.0", { memoryOnly: true })).toBeUndefined();
  });

  it("orders two entries as the table's upsert does", () => {
    const entry = (channel: string, at: number): VisitEntry => ({ at, path: "/", channel, referrer: "", source: "", medium: "", campaign: "", clickIds: [], subs: ["", "", "", "", ""] });
    expect(replacesEntry(undefined, entry("direct", 5))).toBe(true);
    expect(replacesEntry(entry("direct", 1), entry("search", 5))).toBe(true);
    expect(replacesEntry(entry("search", 5), entry("direct", 1))).toBe(false);
    expect(replacesEntry(entry("search", 5), entry("paid", 1))).toBe(true);
    expect(replacesEntry(entry("search", 1), entry("paid", 5))).toBe(false);
  });
});

describe("a subscription's attribution", () => {
  const search: VisitEntry = { at: AT, path: "/articles/gold-rush", channel: "search", referrer: "google.com", source: "", medium: "", campaign: "", clickIds: [], subs: ["", "", "", "", ""] };

  it("takes the visit's entry, with the page that held the form", () => {
    expect(attributionOf("https://patriotinvestor.example/articles/gold-rush", search)).toEqual({
      basis: "visit",
      formPath: "/articles/gold-rush",
      entryPath: "/articles/gold-rush",
      entryAt: new Date(AT),
      visitChannel: "search",
      referrer: "google.com",
      source: "",
      medium: "",
      campaign: "",
      clickIds: [],
      subs: ["", "", "", "", ""],
    });
  });

  it("lets the form page's own landing parameters win over the day's entry", () => {
    const attribution = attributionOf("https://patriotinvestor.example/opt-in?f_name=Betsy&sub2=X1&utm_source=Y&utm_campaign=Fall&msclkid=q", search);
    expect(attribution).toMatchObject({ basis: "form", formPath: "/opt-in", entryPath: "/opt-in", entryAt: null, visitChannel: "paid", referrer: "", source: "y", campaign: "Fall", clickIds: ["msclkid"], subs: ["", "X1", "", "", ""] });
    // The same visit's referrer is kept when the entry was that very page.
    const landed = { ...search, path: "/opt-in", channel: "paid", referrer: "facebook.com" };
    expect(attributionOf("https://patriotinvestor.example/opt-in?sub2=X1", landed)).toMatchObject({ basis: "form", referrer: "facebook.com", entryAt: new Date(AT) });
  });

  it("says unknown when neither the form's page nor a visit tells", () => {
    expect(attributionOf("https://patriotinvestor.example/", undefined)).toMatchObject({ basis: "none", formPath: "/", entryPath: "", visitChannel: "unknown" });
    expect(attributionOf(null, undefined)).toMatchObject({ basis: "none", formPath: "" });
    // A partner's server calling the JSON endpoint without a Referer: no form page, the visit if any.
    expect(attributionOf("https://patriotinvestor.example/api/phone-optin", search)).toMatchObject({ basis: "visit", formPath: "", entryPath: "/articles/gold-rush" });
  });
});
