import { describe, expect, it } from "vitest";
import { createRecorder, SEP, VIEW_FIELDS, type Counts } from "./recorder";
import { parseEnv } from "~/http/env.server";
import { createSiteClock } from "./site-clock";

const CHROME = "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36";
const IPHONE = "Mozilla/5.0 (iPhone; CPU iPhone OS 18_2 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.2 Mobile/15E148 Safari/604.1";
const browser = (extra: Record<string, string> = {}, userAgent = CHROME) => ({
  host: "patriotinvestor.example",
  "user-agent": userAgent,
  "accept-language": "en-US",
  "sec-fetch-mode": "navigate",
  ...extra,
});

// 2026-03-02 15:20 in New York (EST, UTC-5).
const AT = Date.parse("2026-03-02T20:20:00Z");

function recorderAt(start = AT, viewsPerMinute = 60) {
  let now = start;
  const recorder = createRecorder({ timeZone: "America/New_York", viewsPerMinute, ownHosts: ["patriotinvestor.example"], now: () => now });
  return { recorder, advance: (ms: number) => (now += ms) };
}

const fields = (counts: Counts) =>
  [...counts.views].map(([key, views]) => ({ ...Object.fromEntries(key.split(SEP).map((value, index) => [VIEW_FIELDS[index], value])), views }));
const reasons = (counts: Counts) => Object.fromEntries([...counts.excluded].map(([key, value]) => [key.split(SEP)[2], value]));

describe("the recorder", () => {
  it("counts a view by its whole signature in the site's day and hour", () => {
    const { recorder } = recorderAt();
    const target = { path: "/opt-in", query: "sub2=cl1ck&utm_source=Facebook&utm_medium=cpc&utm_campaign=Spring&fbclid=x&gclid=y" };
    recorder.count(target, browser({ referer: "https://m.facebook.com/" }), "203.0.113.9");
    recorder.count(target, browser({ referer: "https://m.facebook.com/" }), "203.0.113.9");
    expect(fields(recorder.take())).toEqual([
      {
        day: "2026-03-02",
        hour: "2026-03-02T20:00:00.000Z",
        path: "/opt-in",
        channel: "paid",
        referrer: "facebook.com",
        source: "facebook",
        medium: "cpc",
        campaign: "Spring",
        clickIds: "gclid,fbclid",
        sub1: "",
        sub2: "cl1ck",
        sub3: "",
        sub4: "",
        sub5: "",
        device: "desktop",
        views: 2,
      },
    ]);
  });

  it("takes the device from Sec-CH-UA-Mobile or the user agent, and drops the referrer of the site's own pages", () => {
    const { recorder } = recorderAt();
    recorder.count({ path: "/blog", query: "" }, browser({ referer: "https://www.patriotinvestor.example/home", "sec-ch-ua-mobile": "?1" }), "203.0.113.9");
    recorder.count({ path: "/blog", query: "" }, browser({ referer: "https://landing.example/" , host: "landing.example" }, IPHONE), "203.0.113.9");
    const rows = fields(recorder.take());
    expect(rows.map((row) => [row.channel, row.referrer, row.device, row.views])).toEqual([["internal", "", "phone", 2]]);
  });

  it("excludes prefetches, and views past the per-client rate within a minute, by reason", () => {
    const { recorder, advance } = recorderAt(AT, 3);
    recorder.count({ path: "/", query: "" }, browser({ "sec-purpose": "prefetch" }), "203.0.113.9");
    for (let i = 0; i < 5; i++) recorder.count({ path: `/p${i}`, query: "" }, browser(), "203.0.113.9");
    // Another client (address) is limited on its own; the next minute starts again.
    recorder.count({ path: "/", query: "" }, browser(), "203.0.113.10");
    advance(60_000);
    recorder.count({ path: "/", query: "" }, browser(), "203.0.113.9");
    const counts = recorder.take();
    expect(reasons(counts)).toEqual({ prefetch: 1, "rate-limit": 2 });
    expect([...counts.views.values()].reduce((a, b) => a + b)).toBe(5);
  });

  it("keeps per day, network and browser the paths a visitor saw, and no address", () => {
    const { recorder } = recorderAt();
    recorder.count({ path: "/a", query: "" }, browser(), "203.0.113.9");
    recorder.count({ path: "/b", query: "" }, browser(), "203.0.113.200");
    recorder.count({ path: "/a", query: "" }, browser({}, IPHONE), "2001:db8:1:2::1");
    const counts = recorder.take();
    expect([...counts.visitors].map(([key, paths]) => [key.split(SEP), [...paths]])).toEqual([
      [["2026-03-02", "203.0.113", "Chrome 131 Windows"], ["/a", "/b"]],
      [["2026-03-02", "2001:db8:1", "Safari 18 iOS"], ["/a"]],
    ]);
  });

  it("counts people's views by minute and path, and each visitor once a minute, for the last 30 minutes", () => {
    const { recorder, advance } = recorderAt(AT + 10_000);
    recorder.count({ path: "/a", query: "" }, browser(), "203.0.113.9");
    recorder.count({ path: "/a", query: "" }, browser(), "203.0.113.9");
    recorder.count({ path: "/a", query: "" }, browser({}, "curl/8.5.0"), "203.0.113.9");
    advance(60_000);
    recorder.count({ path: "/b", query: "" }, browser(), "203.0.113.9");
    const counts = recorder.take();
    expect([...counts.minutes].map(([key, views]) => [...key.split(SEP), views])).toEqual([
      [String(AT), "/a", 2],
      [String(AT + 60_000), "/b", 1],
    ]);
    expect([...counts.minuteVisitors].map((key) => key.split(SEP))).toEqual([
      [String(AT), "2026-03-02", "203.0.113", "Chrome 131 Windows"],
      [String(AT + 60_000), "2026-03-02", "203.0.113", "Chrome 131 Windows"],
    ]);
    // Put back after a failed flush, and taken out when it was written after all.
    recorder.putBack(counts);
    recorder.subtract(counts);
    expect(recorder.take().minutes.size).toBe(0);
  });

  it("puts back counts a flush could not write and takes out counts found written", () => {
    const { recorder } = recorderAt();
    recorder.count({ path: "/a", query: "" }, browser(), "203.0.113.9");
    recorder.count({ path: "/a", query: "" }, { host: "x" }, "203.0.113.9");
    const first = recorder.take();
    recorder.count({ path: "/a", query: "" }, browser(), "203.0.113.9");
    recorder.putBack(first);
    expect(recorder.held()).toEqual({ views: 2, excluded: 1, visitors: 1 });
    recorder.subtract(first);
    expect(recorder.held()).toEqual({ views: 1, excluded: 0, visitors: 1 });
  });
});

describe("the site clock", () => {
  it("gives the local day and the instant the local hour began, across midnight and daylight saving", () => {
    const clock = createSiteClock("America/New_York");
    expect(clock(Date.parse("2026-03-02T04:59:59Z"))).toMatchObject({ day: "2026-03-01", hour: "2026-03-02T04:00:00.000Z" });
    expect(clock(Date.parse("2026-03-02T05:00:00Z"))).toMatchObject({ day: "2026-03-02", hour: "2026-03-02T05:00:00.000Z" });
    // Summer time: midnight in New York is 04:00 UTC.
    expect(clock(Date.parse("2026-07-01T04:30:00Z"))).toMatchObject({ day: "2026-07-01", hour: "2026-07-01T04:00:00.000Z" });
    const india = createSiteClock("Asia/Kolkata");
    expect(india(Date.parse("2026-03-02T20:20:00Z"))).toMatchObject({ day: "2026-03-03", hour: "2026-03-02T19:30:00.000Z" });
  });

  it("is configured by ANALYTICS_TIME_ZONE, an IANA name checked at start", () => {
    expect(parseEnv({}).ANALYTICS_TIME_ZONE).toBe("America/New_York");
    expect(parseEnv({ ANALYTICS_TIME_ZONE: "America/Chicago" }).ANALYTICS_TIME_ZONE).toBe("America/Chicago");
    expect(() => parseEnv({ ANALYTICS_TIME_ZONE: "Eastern" })).toThrow(/ANALYTICS_TIME_ZONE: must be an IANA time zone name/);
  });
});
