import { describe, expect, it } from "vitest";
import { createFlusher } from "~/services/analytics/flusher.server";
import { createRecorder } from "~/services/analytics/recorder";
import { createRollupWriter } from "~/services/analytics/rollup-writer.server";
import { recordOfferClick } from "~/services/analytics/offer-clicks.server";
import { createSiteClock, dayBefore } from "~/services/analytics/site-clock";
import { ANALYTICS_TEXTS } from "~/lib/analytics-texts";
import { optInToSms } from "~/services/subscription/sms-opt-in.server";
import { NO_EVIDENCE } from "../../tests/support/test-db";
import { outcome, SITE, useStaffSessions } from "../../tests/support/staff-session";
import { loader as csvLoader } from "./admin-analytics-csv";
import { loader as jsonLoader } from "./admin-analytics-json";
import { loader as liveLoader } from "./admin-analytics-live";
import { loader as pageLoader } from "./admin-analytics";

const CHROME = "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36";
const browser = { "user-agent": CHROME, "accept-language": "en", "sec-fetch-mode": "navigate" };

const get = (path: string, cookie: string) => ({ request: new Request(`${SITE}${path}`, { headers: { cookie } }), params: {}, context: {} }) as never;

describe("/admin/analytics and its CSV files", () => {
  const sessions = useStaffSessions("pglite");

  it("shows an admin the day's views and visitors, the pages, channels, campaigns, sub-ids and exclusions", async () => {
    const writer = createRollupWriter(sessions.db);
    const recorder = createRecorder({ timeZone: "America/New_York", viewsPerMinute: 100, ownHosts: [] });
    recorder.count({ path: "/opt-in", query: "sub2=cl1ck-9&utm_source=fb&utm_medium=cpc&utm_campaign=%3DHYPERLINK(1)" }, browser, "203.0.113.9");
    recorder.count({ path: "/articles/bonds-guide", query: "" }, { ...browser, referer: "https://www.google.com/" }, "198.51.100.4");
    recorder.count({ path: "/articles/bonds-guide", query: "" }, { "user-agent": "curl/8.5.0" }, "198.51.100.5");
    await createFlusher({ recorder, writer, salts: writer, site: SITE }).flush();
    const today = createSiteClock("America/New_York")().day;

    const admin = await sessions.signedIn("admin");
    const page = (await pageLoader(get(`/admin/analytics?from=${today}&to=${today}`, admin))) as Awaited<ReturnType<typeof pageLoader>>;
    expect(page).toMatchObject({ admin: true, views: 2, averageDailyVisitors: 2, excluded: 1, days: [{ day: today, views: 2, visitors: 2 }] });
    // The day before, to compare with: nothing counted then.
    expect(page.previous).toEqual({ range: { from: dayBefore(today, 1), to: dayBefore(today, 1) }, views: 0, averageDailyVisitors: 0 });
    expect(ANALYTICS_TEXTS.previous(0, 2, "2026-03-01", "2026-03-01")).toBe("none before against 0 from 2026-03-01 to 2026-03-01");
    expect(ANALYTICS_TEXTS.previous(8, 10, "2026-02-01", "2026-02-28")).toBe("+25% against 8 from 2026-02-01 to 2026-02-28");
    expect(ANALYTICS_TEXTS.previous(3, 2, "2026-02-01", "2026-02-28")).toBe("−33.3% against 3 from 2026-02-01 to 2026-02-28");
    const table = (name: string) => page.tables.find((entry) => entry.table === name)!.rows;
    expect(table("pages")).toEqual([["/articles/bonds-guide", 1, 1], ["/opt-in", 1, 1]]);
    expect(table("channels")).toEqual([["Paid", 1], ["Search", 1]]);
    expect(table("campaigns")).toEqual([["fb", "cpc", "=HYPERLINK(1)", 1]]);
    expect(table("subIds")).toEqual([["sub2=cl1ck-9", 1]]);
    expect(table("excluded")).toEqual([["Known crawler or bot", 1]]);
    // The last 30 minutes, whatever the range: people's views only, the bot left out (decision 156).
    expect(page.live).toMatchObject({ views: 2, visitors: 2, flushSeconds: 5, pages: [{ path: "/articles/bonds-guide", views: 1 }, { path: "/opt-in", views: 1 }] });
    expect(page.live.minutes).toHaveLength(30);
    expect(page.live.minutes.at(-1)!.views + page.live.minutes.at(-2)!.views).toBe(2);

    // The default range is the last 30 days, today included.
    const month = (await pageLoader(get("/admin/analytics", admin))) as Awaited<ReturnType<typeof pageLoader>>;
    expect(month.days).toHaveLength(30);
    expect(month.days.at(-1)).toEqual({ day: today, views: 2, visitors: 2 });

    // Every table as CSV, formula-safe.
    const csv = (await csvLoader(get(`/admin/analytics.csv?table=campaigns&from=${today}&to=${today}`, admin))) as Response;
    expect(csv.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect(await csv.text()).toBe(`Source,Medium,Campaign,Page views\r\nfb,cpc,'=HYPERLINK(1),1\r\n`);
  });

  it("shows an editor the content figures only, and refuses the others' CSV", async () => {
    const editor = await sessions.signedIn("editor");
    const page = (await pageLoader(get("/admin/analytics", editor))) as Awaited<ReturnType<typeof pageLoader>>;
    expect(page.admin).toBe(false);
    expect(page.tables.map((entry) => entry.table)).toEqual(["days", "pages", "channels", "landings", "referrers", "signUpsByPage", "signUpsByEntry"]);
    expect(page.excluded).toBe(0);
    expect(await outcome(() => csvLoader(get("/admin/analytics.csv?table=campaigns", editor)))).toBe(403);
    expect(await outcome(() => csvLoader(get("/admin/analytics.csv?table=pages", editor)))).toBe(200);
    expect(await outcome(() => csvLoader(get("/admin/analytics.csv?table=signUpsByPage", editor)))).toBe(200);
    expect(await outcome(() => csvLoader(get("/admin/analytics.csv?table=signUpsByEntry", editor)))).toBe(200);
    for (const table of ["signUpsBySource", "signUpsBySubId", "offerClicksBySource", "offerClicksBySubId", "offerClicksExcluded"]) expect(await outcome(() => csvLoader(get(`/admin/analytics.csv?table=${table}`, editor)))).toBe(403);
  });

  it("shows the sign-ups of the range by form page, by source and campaign and by sub-id, each with its CSV", async () => {
    const page = "https://patriotinvestor.example/opt-in?f_name=Betsy&sub2=AFF-9&utm_source=newsmax&utm_medium=cpc&utm_campaign=Fall";
    const result = await optInToSms(
      sessions.db,
      { firstName: "Betsy", lastName: "Ross", phone: "(212) 456-7781", smsConsent: true, termsConsent: true, source: "opt-in", evidence: { ...NO_EVIDENCE, pageUrl: page } },
      { siteName: "Patriot Investor", dncPolicy: "refuse" },
    );
    expect(result).toMatchObject({ ok: true });
    const today = createSiteClock("America/New_York")().day;
    const admin = await sessions.signedIn("admin");
    const report = (await pageLoader(get(`/admin/analytics?from=${today}&to=${today}`, admin))) as Awaited<ReturnType<typeof pageLoader>>;
    const table = (name: string) => report.tables.find((entry) => entry.table === name)!.rows;
    expect(table("signUpsByPage")).toEqual([["/opt-in", "SMS", 1, 1, 0, 0, 0, 0, 0]]);
    // A tagged landing is its own entry (decision 149).
    expect(table("signUpsByEntry")).toEqual([["/opt-in", "SMS", 1, 1, 0, 0, 0, 0, 0]]);
    expect(table("signUpsBySource")).toEqual([["Paid", "newsmax", "cpc", "Fall", "SMS", 1, 1, 0, 0, 0, 0, 0]]);
    expect(table("signUpsBySubId")).toEqual([["sub2=AFF-9", "SMS", 1, 1, 0, 0, 0, 0, 0]]);
    const csv = (await csvLoader(get(`/admin/analytics.csv?table=signUpsBySubId&from=${today}&to=${today}`, admin))) as Response;
    expect(await csv.text()).toBe(
      `Sub-id,List,Sign-ups,Confirmed,7+ days old,Still subscribed at 7 days,30+ days old,Still subscribed at 30 days,Left within 7 days\r\nsub2=AFF-9,SMS,1,1,0,0,0,0,0\r\n`,
    );
  });

  it("answers the same figures as JSON to a staff session, the content tables only to an editor, 401 without one", async () => {
    const today = createSiteClock("America/New_York")().day;
    const range = `from=${today}&to=${today}`;
    for (const role of ["admin", "editor"] as const) {
      const cookie = await sessions.signedIn(role);
      const page = (await pageLoader(get(`/admin/analytics?${range}`, cookie))) as Awaited<ReturnType<typeof pageLoader>>;
      const response = (await jsonLoader(get(`/admin/analytics.json?${range}`, cookie))) as Response;
      expect(response.headers.get("content-type")).toMatch(/^application\/json/);
      expect(response.headers.get("cache-control")).toBe("private, no-store");
      // The same figures; `live` is read again at the moment of each request.
      const { live, ...figures } = (await response.json()) as typeof page;
      const { live: pageLive, ...pageFigures } = JSON.parse(JSON.stringify(page)) as typeof page;
      expect(figures).toEqual(pageFigures);
      expect({ ...live, at: "", atLabel: "" }).toEqual({ ...pageLive, at: "", atLabel: "" });
      // The section alone, as the open page fetches it.
      const alone = (await liveLoader(get("/admin/analytics/live", cookie))) as unknown as { data: typeof live; init: ResponseInit };
      expect(alone.init.headers).toEqual({ "Cache-Control": "private, no-store" });
      expect({ ...alone.data, at: "", atLabel: "" }).toEqual({ ...pageLive, at: "", atLabel: "" });
    }
    const signedOut = (await liveLoader(get("/admin/analytics/live", ""))) as unknown as { init: ResponseInit };
    expect(signedOut.init.status).toBe(401);
    expect(await outcome(() => jsonLoader(get("/admin/analytics.json", "")))).toBe(401);
    const reader = await sessions.signedIn("reader");
    expect(await outcome(() => jsonLoader(get("/admin/analytics.json", reader)))).toBe(403);
    expect(await outcome(() => liveLoader(get("/admin/analytics/live", reader)))).toBe(403);
    const admin = await sessions.signedIn("admin");
    expect(await outcome(() => jsonLoader(get("/admin/analytics.json?from=2026-03-10&to=2026-03-01", admin)))).toBe(400);
  });

  it("shows an admin the offer clicks by source and by sub-id, people beside the excluded, each with its CSV", async () => {
    const today = createSiteClock("America/New_York")().day;
    const person = { day: today, channel: "paid", source: "newsmax", medium: "cpc", campaign: "gold", subs: ["A-7", "", "", "", ""], machine: null };
    await recordOfferClick(sessions.db, person);
    await recordOfferClick(sessions.db, person);
    await recordOfferClick(sessions.db, { ...person, machine: "link-preview" });
    const admin = await sessions.signedIn("admin");
    const report = (await pageLoader(get(`/admin/analytics?from=${today}&to=${today}`, admin))) as Awaited<ReturnType<typeof pageLoader>>;
    const table = (name: string) => report.tables.find((entry) => entry.table === name)!.rows;
    expect(table("offerClicksBySource")).toEqual([["Paid", "newsmax", "cpc", "gold", 2, 1]]);
    expect(table("offerClicksBySubId")).toEqual([["sub1=A-7", 2, 1]]);
    expect(table("offerClicksExcluded")).toEqual([["Link preview (messaging and social apps)", 1]]);
    const csv = (await csvLoader(get(`/admin/analytics.csv?table=offerClicksBySubId&from=${today}&to=${today}`, admin))) as Response;
    expect(await csv.text()).toBe(`Sub-id,Clicks by people,Left out\r\nsub1=A-7,2,1\r\n`);
  });

  it("refuses bad dates and unknown tables with a 400 that says why, and readers with a 403", async () => {
    const admin = await sessions.signedIn("admin");
    const refusal = await pageLoader(get("/admin/analytics?from=2026-13-01&to=2026-12-31", admin)).catch((error: unknown) => error);
    expect(refusal).toMatchObject({ init: { status: 400 }, data: { message: "Bad dates: Dates must be written YYYY-MM-DD, e.g. 2026-03-01." } });
    expect(await outcome(() => pageLoader(get("/admin/analytics?from=2026-03-10&to=2026-03-01", admin)))).toBe(400);
    expect(await outcome(() => pageLoader(get("/admin/analytics?from=2024-01-01&to=2026-03-01", admin)))).toBe(400);
    expect(await outcome(() => csvLoader(get("/admin/analytics.csv?table=people", admin)))).toBe(400);
    const reader = await sessions.signedIn("reader");
    expect(await outcome(() => pageLoader(get("/admin/analytics", reader)))).toBe(403);
  });
});
