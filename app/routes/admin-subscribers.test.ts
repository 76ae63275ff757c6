import { describe, expect, it } from "vitest";
import { subscribers } from "~/db/schema";
import { SIGN_UP_FILTER_TEXTS } from "~/lib/sign-up-filter-texts";
import { createSiteClock } from "~/services/analytics/site-clock";
import { optInToSms } from "~/services/subscription/sms-opt-in.server";
import { outcome, SITE, useStaffSessions } from "../../tests/support/staff-session";
import { NO_EVIDENCE } from "../../tests/support/test-db";
import { loader as analyticsLoader } from "./admin-analytics";
import { loader as csvLoader } from "./admin-subscribers-csv";
import { loader as pageLoader } from "./admin-subscribers";

const get = (path: string, cookie: string) => ({ request: new Request(`${SITE}${path}`, { headers: { cookie } }), params: {}, context: {} }) as never;

type Page = { data: { total: number; filtered: boolean; filterError: string | null; filterParams: Record<string, string>; rows: { phoneE164: string | null; signedUpAt: string | null }[] }; init: { status?: number } | null };
const open = async (path: string, cookie: string) => (await pageLoader(get(path, cookie))) as unknown as Page;

describe("/admin/subscribers filtered by sign-up, as the analytics figures link to it", () => {
  const sessions = useStaffSessions("pglite");
  let today = "";

  it("opens from a figure of /admin/analytics the very sign-ups it counts, and no link for an editor", async () => {
    const page = "https://patriotinvestor.example/opt-in?sub1=PUB-4&utm_source=newsmax&utm_medium=cpc&utm_campaign=Fall";
    const result = await optInToSms(
      sessions.db,
      { firstName: "Betsy", lastName: "Ross", phone: "(212) 456-7781", smsConsent: true, termsConsent: true, source: "opt-in", evidence: { ...NO_EVIDENCE, pageUrl: page } },
      { siteName: "Patriot Investor", dncPolicy: "refuse" },
    );
    expect(result).toMatchObject({ ok: true });
    // Someone who did not sign up through a form: in the whole list, in no filtered one.
    await sessions.db.insert(subscribers).values({ channel: "sms", phoneE164: "+12125550199", firstName: "Paul", lastName: "Revere", status: "active", source: "sms-keyword" });
    today = createSiteClock("America/New_York")().day;

    const admin = await sessions.signedIn("admin");
    const report = (await analyticsLoader(get(`/admin/analytics?from=${today}&to=${today}`, admin))) as Awaited<ReturnType<typeof analyticsLoader>>;
    const byPage = report.tables.find((entry) => entry.table === "signUpsByPage")!;
    expect(byPage.rows).toEqual([["/opt-in", "SMS", 1, 1, 0, 0, 0, 0, 0]]);
    const signUps = byPage.links![0]![2]!;
    expect(signUps.href).toBe(`/admin/subscribers?form=%2Fopt-in&channel=sms&from=${today}&to=${today}`);
    expect(signUps.label).toBe(`1: open the list of these sign-ups (SMS list, form on /opt-in, signed up on ${today})`);
    expect(byPage.links![0]![3]!.href).toContain("&state=confirmed");
    // Zeros and the key columns stay plain.
    expect(byPage.links![0]!.filter(Boolean)).toHaveLength(2);
    const lead = report.tables.find((entry) => entry.table === "leads")!;
    expect(lead.links![1]![4]!.href).toBe(`/admin/subscribers?form=%2Fopt-in&source=newsmax&campaign=Fall&sub=sub1%3DPUB-4&from=${today}&to=${today}`);

    const list = await open(signUps.href, admin);
    expect(list.init?.status ?? 200).toBe(200);
    expect(list.data).toMatchObject({ total: 1, filtered: true, filterError: null, filterParams: { form: "/opt-in", channel: "sms", from: today, to: today } });
    expect(list.data.rows.map((row) => row.phoneE164)).toEqual(["+12124567781"]);
    expect(list.data.rows[0]!.signedUpAt).toMatch(/^\d{4}-/);
    // Following the lead table's opt-ins gives the same person.
    expect((await open(lead.links![1]![4]!.href, admin)).data.total).toBe(1);
    // Unfiltered, the whole list as before.
    expect((await open("/admin/subscribers", admin)).data).toMatchObject({ total: 2, filtered: false });

    const editor = await sessions.signedIn("editor");
    const editorReport = (await analyticsLoader(get(`/admin/analytics?from=${today}&to=${today}`, editor))) as Awaited<ReturnType<typeof analyticsLoader>>;
    expect(editorReport.tables.every((entry) => !("links" in entry))).toBe(true);
    expect(await outcome(() => pageLoader(get(signUps.href, editor)))).toBe(403);
    expect(await outcome(() => csvLoader(get(`/admin/subscribers.csv?form=%2Fopt-in`, editor)))).toBe(403);
  });

  it("combines the filters with the search, and keeps them in the CSV file", async () => {
    const admin = await sessions.signedIn("admin");
    const filter = `form=%2Fopt-in&source=newsmax&from=${today}&to=${today}`;
    expect((await open(`/admin/subscribers?${filter}&q=Betsy`, admin)).data.total).toBe(1);
    expect((await open(`/admin/subscribers?${filter}&q=Revere`, admin)).data.total).toBe(0);
    expect((await open(`/admin/subscribers?${filter}&state=left7`, admin)).data.total).toBe(0);
    expect((await open(`/admin/subscribers?form=%2Farticles%2Fgold`, admin)).data.total).toBe(0);

    const csv = (await csvLoader(get(`/admin/subscribers.csv?${filter}`, admin))) as Response;
    expect(csv.headers.get("content-disposition")).toMatch(/filename="sign-ups-/);
    const lines = (await csv.text()).split("\r\n").filter(Boolean);
    expect(lines).toHaveLength(2);
    expect(lines[1]).toContain("'+12124567781");
    const all = (await csvLoader(get("/admin/subscribers.csv", admin))) as Response;
    expect((await all.text()).split("\r\n").filter(Boolean)).toHaveLength(3);
  });

  it("refuses a bad filter with a 400 that says why, on the page and in the CSV", async () => {
    const admin = await sessions.signedIn("admin");
    const cases: [string, string][] = [
      ["state=happy", SIGN_UP_FILTER_TEXTS.errors.state],
      ["channel=fax", SIGN_UP_FILTER_TEXTS.errors.channel],
      ["sub=sub9%3Dx", SIGN_UP_FILTER_TEXTS.errors.sub],
      ["sub=AFF-1", SIGN_UP_FILTER_TEXTS.errors.sub],
      ["from=2026-13-01", "Dates must be written YYYY-MM-DD, e.g. 2026-03-01."],
      ["from=2026-03-10&to=2026-03-01", "The first day must not be after the last day."],
      [`source=${"x".repeat(501)}`, SIGN_UP_FILTER_TEXTS.errors.tooLong("source", 500)],
    ];
    for (const [query, message] of cases) {
      const page = await open(`/admin/subscribers?${query}`, admin);
      expect(page.init?.status, query).toBe(400);
      expect(page.data).toMatchObject({ filterError: message, total: 0, rows: [] });
      const csv = (await csvLoader(get(`/admin/subscribers.csv?${query}`, admin))) as Response;
      expect(csv.status).toBe(400);
      expect(await csv.text()).toBe(`${message}\n`);
    }
    // An empty list or state is no filter, as a form's empty choice would send.
    expect((await open("/admin/subscribers?channel=&state=", admin)).data).toMatchObject({ filtered: false, total: 2 });
  });
});
