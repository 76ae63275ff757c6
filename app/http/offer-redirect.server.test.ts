import { describe, expect, it } from "vitest";
import type { Db } from "~/db/client.server";
import type { OfferClick } from "~/services/analytics/offer-clicks.server";
import { createRecorder } from "~/services/analytics/recorder";
import { createVisitLookup } from "~/services/analytics/visit-lookup.server";
import { useTestDatabase } from "../../tests/support/test-db";
import { answerOfferRedirect, type OfferRedirectRequest } from "./offer-redirect.server";

const SITE = "https://patriotinvestor.example";
const TEMPLATE = "https://sponsor.example/guide?s1={sub1}&s2={sub2}&src={utm_source}&cmp={utm_campaign}";
const CHROME = "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36";
const browser = (extra: Record<string, string> = {}) => ({ host: "patriotinvestor.example", "user-agent": CHROME, "accept-language": "en-US", "sec-fetch-mode": "navigate", ...extra });

/** The database the lookups read when memory has no entry (an empty one: no salt, no entries). */
let database: { db: Db };

function setup(offerUrl = TEMPLATE) {
  const recorder = createRecorder({ timeZone: "America/New_York", viewsPerMinute: 1000, ownHosts: ["patriotinvestor.example"] });
  const visits = createVisitLookup({ recorder, db: () => database.db, site: SITE });
  const counted: OfferClick[] = [];
  const options = { offerUrl, visits, today: () => "2026-03-02", count: (click: OfferClick) => counted.push(click) };
  const click = (request: Partial<OfferRedirectRequest>) =>
    answerOfferRedirect({ method: "GET", origin: SITE, referer: undefined, ip: "203.0.113.9", userAgent: CHROME, navigation: true, acceptLanguage: true, ...request }, options);
  return { recorder, click, counted };
}

describe("the offer redirect", () => {
  database = useTestDatabase("pglite");

  it("fills the template from the linking page's own query, and counts the click under it", async () => {
    const { click, counted } = setup();
    expect(await click({ referer: `${SITE}/gold?sub1=A-1&sub2=b%20c&utm_source=NewsMax&utm_campaign=fall` })).toEqual({
      status: 302,
      location: "https://sponsor.example/guide?s1=A-1&s2=b%20c&src=newsmax&cmp=fall",
    });
    expect(counted).toEqual([{ day: "2026-03-02", channel: "paid", source: "newsmax", medium: "", campaign: "fall", subs: ["A-1", "b c", "", "", ""], machine: null }]);
  });

  it("else takes the visitor's entry of the day: an ad landing seen earlier, then /gold without a query", async () => {
    const { recorder, click, counted } = setup();
    recorder.count({ path: "/opt-in", query: "sub2=X-1775&utm_source=fb&utm_medium=cpc" }, browser({ referer: "https://www.facebook.com/" }), "203.0.113.9");
    const answer = await click({ referer: `${SITE}/gold` });
    expect(answer).toEqual({ status: 302, location: "https://sponsor.example/guide?s1=&s2=X-1775&src=fb&cmp=" });
    expect(counted[0]).toMatchObject({ channel: "paid", source: "fb", medium: "cpc", subs: ["", "X-1775", "", "", ""], machine: null });
  });

  it("ignores a Referer from another site, whose query says nothing of this visit", async () => {
    const { click, counted } = setup();
    expect(await click({ referer: "https://evil.example/gold?sub1=forged&utm_source=spam" })).toEqual({ status: 302, location: "https://sponsor.example/guide?s1=&s2=&src=&cmp=" });
    expect(counted[0]).toMatchObject({ channel: "unknown", source: "", subs: ["", "", "", "", ""] });
  });

  it("only ever leads to OFFER_URL: the request chooses no part of the address but the encoded values", async () => {
    const { click } = setup();
    for (const value of ["https://evil.example/", "//evil.example", "@evil.example", "%0d%0aLocation:%20https://evil.example"]) {
      const answer = await click({ referer: `${SITE}/gold?sub1=${encodeURIComponent(value)}&utm_source=${encodeURIComponent(value)}` });
      expect(answer.status).toBe(302);
      const location = new URL((answer as { location: string }).location);
      expect(location.origin).toBe("https://sponsor.example");
      expect(location.pathname).toBe("/guide");
      expect(location.searchParams.get("s1")).toBe(value.replace(/[\r\n]/g, ""));
    }
    const plain = setup("https://offers.example.com/free-retirement-wealth-guide");
    expect(await plain.click({ referer: `${SITE}/gold?sub1=A` })).toEqual({ status: 302, location: "https://offers.example.com/free-retirement-wealth-guide" });
  });

  it("counts a machine's request apart, by reason, and answers other methods 405", async () => {
    const { click, counted } = setup();
    await click({ method: "HEAD", referer: `${SITE}/gold?sub1=A` });
    await click({ userAgent: "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)", referer: `${SITE}/gold?sub1=A` });
    await click({ acceptLanguage: false, referer: `${SITE}/gold?sub1=A` });
    await click({ navigation: false });
    expect(counted.map((entry) => entry.machine)).toEqual(["head", "bot-list", "missing-headers", "missing-headers"]);
    expect(counted[0]!.subs[0]).toBe("A");
    expect(await click({ method: "POST" })).toEqual({ status: 405 });
    expect(counted).toHaveLength(4);
  });
});
