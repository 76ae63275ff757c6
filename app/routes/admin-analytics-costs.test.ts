import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { adCosts, auditLog } from "~/db/schema";
import { createFlusher } from "~/services/analytics/flusher.server";
import { createRecorder } from "~/services/analytics/recorder";
import { createRollupWriter } from "~/services/analytics/rollup-writer.server";
import { createSiteClock } from "~/services/analytics/site-clock";
import { optInToSms } from "~/services/subscription/sms-opt-in.server";
import { NO_EVIDENCE } from "../../tests/support/test-db";
import { outcome, SITE, useStaffSessions } from "../../tests/support/staff-session";
import { loader as csvLoader } from "./admin-analytics-csv";
import { loader as analyticsLoader } from "./admin-analytics";
import { action, loader } from "./admin-analytics-costs";

const CHROME = "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36";
const PAGE = "/admin/analytics/costs";

const get = (path: string, cookie: string) => ({ request: new Request(`${SITE}${path}`, { headers: { cookie } }), params: {}, context: {} }) as never;
const post = (cookie: string, fields: Record<string, string>) =>
  ({
    request: new Request(`${SITE}${PAGE}`, { method: "POST", headers: { cookie, Origin: SITE, "Content-Type": "application/x-www-form-urlencoded" }, body: new URLSearchParams(fields).toString() }),
    params: {},
    context: {},
  }) as never;

/** The form's file upload as a browser sends it: multipart with its length declared. */
async function upload(cookie: string, csv: string) {
  const form = new FormData();
  form.set("file", new File([csv], "costs.csv", { type: "text/csv" }));
  const draft = new Request(`${SITE}${PAGE}`, { method: "POST", body: form });
  const body = await draft.arrayBuffer();
  const headers = { cookie, Origin: SITE, "Content-Type": draft.headers.get("content-type")!, "Content-Length": String(body.byteLength) };
  return { request: new Request(`${SITE}${PAGE}`, { method: "POST", headers, body }), params: {}, context: {} } as never;
}

type Answer = { data: { notice: { title: string; description: string }; refused?: { line: number; reason: string }[]; refusedCount?: number }; init?: { status?: number } };

describe("/admin/analytics/costs: ad costs entered and imported, and the lead-gen report", () => {
  const sessions = useStaffSessions("pglite");

  it("saves, replaces and removes a cost from the form, in cents, each change in the audit log", async () => {
    const admin = await sessions.signedIn("admin");
    const saved = (await action(post(admin, { intent: "set", day: "2026-03-02", source: "NewsMax", campaign: "Spring", subId: "AFF1", amount: "$1,120.5" }))) as unknown as Answer;
    expect(saved.data.notice).toEqual({ title: "Cost Saved", description: "$1120.50 for newsmax on 2026-03-02.", variant: "success" });
    expect(await sessions.db.select({ amountCents: adCosts.amountCents, updatedBy: adCosts.updatedBy }).from(adCosts)).toEqual([{ amountCents: 112050, updatedBy: "admin.pglite@example.com" }]);

    const same = (await action(post(admin, { intent: "set", day: "2026-03-02", source: "newsmax", campaign: "Spring", subId: "AFF1", amount: "1120.50" }))) as unknown as Answer;
    expect(same.data.notice.title).toBe("Nothing Changed");
    await action(post(admin, { intent: "set", day: "2026-03-02", source: "newsmax", campaign: "Spring", subId: "AFF1", amount: "99.99" }));

    const page = (await loader(get(`${PAGE}?from=2026-03-01&to=2026-03-31`, admin))) as Awaited<ReturnType<typeof loader>>;
    expect(page.costs).toEqual([{ day: "2026-03-02", source: "newsmax", campaign: "Spring", subId: "AFF1", amountCents: 9999, amount: "99.99" }]);
    expect(page.total).toBe("99.99");

    const refused = (await action(post(admin, { intent: "set", day: "2026-03-02", source: "newsmax", amount: "12.345" }))) as unknown as Answer;
    expect(refused.init?.status).toBe(400);
    expect(refused.data.notice.description).toBe("Not saved: the amount must be dollars and cents, e.g. 125.40, not negative.");

    const removed = (await action(post(admin, { intent: "delete", day: "2026-03-02", source: "newsmax", campaign: "Spring", subId: "AFF1" }))) as unknown as Answer;
    expect(removed.data.notice.title).toBe("Cost Removed");
    expect(await sessions.db.select().from(adCosts)).toEqual([]);
    const audit = await sessions.db.select({ action: auditLog.action, actor: auditLog.actor }).from(auditLog).where(eq(auditLog.entity, "ad_costs")).orderBy(auditLog.id);
    expect(audit).toEqual([
      { action: "ad_cost.set", actor: "admin.pglite@example.com" },
      { action: "ad_cost.set", actor: "admin.pglite@example.com" },
      { action: "ad_cost.delete", actor: "admin.pglite@example.com" },
    ]);
  });

  it("imports a cost file whole, or refuses it whole with every bad line and why", async () => {
    const admin = await sessions.signedIn("admin");
    const bad = (await action(await upload(admin, "date,source,campaign,sub_id,amount\n2026-04-01,google,brand,,10\n2026-04-31,google,brand,,10\n2026-04-02,google,brand,,ten\n"))) as unknown as Answer;
    expect(bad.init?.status).toBe(400);
    expect(bad.data.notice.description).toBe("2 lines refused; nothing was imported. Fix them and send the file again.");
    expect(bad.data.refused).toEqual([
      { line: 3, reason: "the date must be written YYYY-MM-DD, e.g. 2026-03-01" },
      { line: 4, reason: "the amount must be dollars and cents, e.g. 125.40, not negative" },
    ]);
    expect(await sessions.db.select().from(adCosts)).toEqual([]);

    const good = (await action(await upload(admin, "date,source,campaign,sub_id,amount\n2026-04-01,google,brand,,10\n2026-04-02,google,brand,,20.02\n"))) as unknown as Answer;
    expect(good.data.notice).toEqual({ title: "Imported", description: "2 costs read, 2 new or changed.", variant: "success" });
    const page = (await loader(get(`${PAGE}?from=2026-04-01&to=2026-04-30`, admin))) as Awaited<ReturnType<typeof loader>>;
    expect(page.costs.map((cost) => [cost.day, cost.amount])).toEqual([["2026-04-02", "20.02"], ["2026-04-01", "10.00"]]);
    expect(page.total).toBe("30.02");
    const imported = await sessions.db.select({ action: auditLog.action }).from(auditLog).where(eq(auditLog.action, "ad_cost.import"));
    expect(imported).toHaveLength(2);

    const notCsv = (await action(await upload(admin, "date,source\n2026-04-01,google\n"))) as unknown as Answer;
    expect(notCsv.init?.status).toBe(400);
    expect(notCsv.data.notice.title).toBe("Not Imported");
  });

  it("shows the ad landing page's visits, opt-ins and cost per lead on /admin/analytics, with its CSV, to admins only", async () => {
    const timeZone = "America/New_York";
    const today = createSiteClock(timeZone)().day;
    const query = "f_name=Betsy&sub1=AFF-9&sub2=c1ck&utm_source=newsmax&utm_medium=cpc&utm_campaign=Fall";
    const writer = createRollupWriter(sessions.db);
    const recorder = createRecorder({ timeZone, viewsPerMinute: 100, ownHosts: [] });
    const browser = { "user-agent": CHROME, "accept-language": "en", "sec-fetch-mode": "navigate" };
    recorder.count({ path: "/opt-in", query }, browser, "203.0.113.9");
    recorder.count({ path: "/opt-in", query: query.replace("c1ck", "c2ck") }, browser, "203.0.113.10");
    recorder.count({ path: "/opt-in", query }, { "user-agent": "curl/8.5.0" }, "198.51.100.5");
    await createFlusher({ recorder, writer, salts: writer, site: SITE }).flush();
    const result = await optInToSms(
      sessions.db,
      { firstName: "Betsy", lastName: "Ross", phone: "(212) 456-7781", smsConsent: true, termsConsent: true, source: "opt-in", evidence: { ...NO_EVIDENCE, pageUrl: `https://patriotinvestor.example/opt-in?${query}` } },
      { siteName: "Patriot Investor", dncPolicy: "refuse" },
    );
    expect(result).toMatchObject({ ok: true });

    const admin = await sessions.signedIn("admin");
    await action(post(admin, { intent: "set", day: today, source: "newsmax", campaign: "Fall", subId: "AFF-9", amount: "12.35" }));
    const report = (await analyticsLoader(get(`/admin/analytics?from=${today}&to=${today}`, admin))) as Awaited<ReturnType<typeof analyticsLoader>>;
    const leads = report.tables.find((entry) => entry.table === "leads")!;
    // Two people's visits (the bot is left out), one opt-in confirmed at once (single opt-in).
    expect(leads.rows).toEqual([
      ["newsmax", "All campaigns and sub-ids", "", 2, 1, 1, "50.0%", "12.35", "12.35", "12.35", 0, ""],
      ["newsmax", "Fall", "AFF-9", 2, 1, 1, "50.0%", "12.35", "12.35", "12.35", 0, ""],
    ]);
    const csv = (await csvLoader(get(`/admin/analytics.csv?table=leads&from=${today}&to=${today}`, admin))) as Response;
    expect((await csv.text()).split("\r\n").slice(0, 2)).toEqual([
      "Source,Campaign,Sub-id (sub1),Landing visits,Opt-ins,Confirmed,Conversion rate,Cost (USD),Cost per lead,Cost per confirmed lead,Opt-ins 7+ days old,Opt-out rate within 7 days",
      "newsmax,All campaigns and sub-ids,,2,1,1,50.0%,12.35,12.35,12.35,0,",
    ]);

    const editor = await sessions.signedIn("editor");
    expect(await outcome(() => csvLoader(get("/admin/analytics.csv?table=leads", editor)))).toBe(403);
    expect(await outcome(() => loader(get(PAGE, editor)))).toBe(403);
    expect(await outcome(() => action(post(editor, { intent: "set", day: today, source: "x", amount: "1" })))).toBe(403);
    const editorPage = (await analyticsLoader(get("/admin/analytics", editor))) as Awaited<ReturnType<typeof analyticsLoader>>;
    expect(editorPage.tables.map((entry) => entry.table)).not.toContain("leads");
  });
});
