import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { createRecorder, SEP } from "./recorder";
import { judgeUserAgentUncached } from "./user-agent";

const corpus = (name: string) =>
  readFileSync(path.resolve("tests/fixtures/user-agents", name), "utf8")
    .split("\n")
    .filter((line) => line.trim() && !line.startsWith("#"));

const BOTS = corpus("bots.txt");
const BROWSERS = corpus("browsers.txt");

/** What a browser sends with a navigation: the bots get the same, so only their user agent can give them away. */
const browserHeaders = (userAgent: string) => ({
  host: "patriotinvestor.example",
  "user-agent": userAgent,
  accept: "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8",
  "accept-language": "en-US,en;q=0.9",
  "accept-encoding": "gzip, deflate, br",
  "sec-fetch-mode": "navigate",
  "sec-fetch-dest": "document",
  "sec-fetch-site": "none",
  "sec-fetch-user": "?1",
});

function countAll(userAgents: string[]) {
  const recorder = createRecorder({ timeZone: "America/New_York", viewsPerMinute: 60, ownHosts: ["patriotinvestor.example"] });
  userAgents.forEach((userAgent, index) => recorder.count({ path: "/articles/bonds-guide", query: "" }, browserHeaders(userAgent), `198.51.${index >> 8}.${index & 255}`));
  const counts = recorder.take();
  const views = [...counts.views.values()].reduce((sum, value) => sum + value, 0);
  const byReason: Record<string, number> = {};
  for (const [key, value] of counts.excluded) {
    const reason = key.split(SEP)[2]!;
    byReason[reason] = (byReason[reason] ?? 0) + value;
  }
  return { views, byReason };
}

describe("the bot corpus (tests/fixtures/user-agents)", () => {
  it("holds at least 300 distinct bot, crawler and preview user agents and 300 current browsers", () => {
    expect(new Set(BOTS).size).toBe(BOTS.length);
    expect(new Set(BROWSERS).size).toBe(BROWSERS.length);
    expect(BOTS.length).toBeGreaterThanOrEqual(300);
    expect(BROWSERS.length).toBeGreaterThanOrEqual(300);
    const devices = new Set(BROWSERS.map((ua) => judgeUserAgentUncached(ua).device));
    expect([...devices].sort()).toEqual(["desktop", "phone", "tablet"]);
  });

  it("excludes at least 99% of the bots by their user agent alone, even with every browser header", () => {
    const { views, byReason } = countAll(BOTS);
    const missed = BOTS.filter((ua) => !judgeUserAgentUncached(ua).reason);
    expect(views).toBe(missed.length);
    expect(missed.length / BOTS.length, `let through: ${missed.join(" | ")}`).toBeLessThanOrEqual(0.01);
    // Every reason of the user-agent check is represented.
    expect(Object.keys(byReason).sort()).toEqual(["bot-list", "headless", "link-preview", "not-a-browser"]);
  });

  it("excludes none of the browsers", () => {
    const wrongly = BROWSERS.filter((ua) => judgeUserAgentUncached(ua).reason);
    expect(wrongly).toEqual([]);
    expect(countAll(BROWSERS)).toEqual({ views: BROWSERS.length, byReason: {} });
  });

  it("excludes a browser's user agent sent without the headers that browser always sends", () => {
    const recorder = createRecorder({ timeZone: "America/New_York", viewsPerMinute: 60, ownHosts: [] });
    const chrome = BROWSERS.find((ua) => ua.includes("Chrome/131") && ua.includes("Windows"))!;
    const { "accept-language": _language, ...noLanguage } = browserHeaders(chrome);
    const { "sec-fetch-mode": _mode, ...noFetchMetadata } = browserHeaders(chrome);
    recorder.count({ path: "/", query: "" }, noLanguage, "203.0.113.1");
    recorder.count({ path: "/", query: "" }, noFetchMetadata, "203.0.113.2");
    recorder.count({ path: "/", query: "" }, { host: "x" }, "203.0.113.3");
    // Safari 16.3 predates fetch metadata: without it, still a person.
    const oldSafari = "Mozilla/5.0 (iPhone; CPU iPhone OS 16_3 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/16.3 Mobile/15E148 Safari/604.1";
    const { "sec-fetch-mode": _oldMode, ...oldSafariHeaders } = browserHeaders(oldSafari);
    recorder.count({ path: "/", query: "" }, oldSafariHeaders, "203.0.113.4");
    const counts = recorder.take();
    expect([...counts.excluded.entries()].map(([key, value]) => [key.split(SEP)[2], value]).sort()).toEqual([
      ["missing-headers", 2],
      ["no-user-agent", 1],
    ]);
    expect([...counts.views.values()]).toEqual([1]);
  });
});
