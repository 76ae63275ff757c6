import { and, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "~/db/client.server";
import { campaignRecipients, consentEvents, rndAnswers, subscribers } from "~/db/schema";
import { startCampaign, TEST_SITE } from "../../../tests/support/campaigns";
import { startRndStandIn } from "../../../tests/support/rnd-stand-in";
import { DB_KINDS, NO_EVIDENCE, useTestDatabase } from "../../../tests/support/test-db";
import { createRndApi } from "../providers/rnd-api.server";
import type { SmsTransport } from "../providers/sms-transport.server";
import { drainCampaigns } from "../sending/engine.server";
import { createSmsChannel } from "../sending/sms-channel.server";
import { optInToSms } from "../subscription/sms-opt-in.server";
import { buildCertificate } from "./certificate.server";
import { DEFAULT_RND_POLICY, type RndPolicy } from "./rnd-check";
import { consentSigner } from "./signing.server";
import { importRndResults, parseRndResults, rndAnswersFor, rndUploadRows } from "./rnd.server";

const quiet = { info: () => {}, warn: () => {}, error: () => {} };
const API_KEY = "rnd-test-key-0123456789";
// Sixty days after the opt-ins of this test run, on a Monday at noon in New York (inside every window).
const later = (() => {
  const day = new Date(Date.now() + 60 * 86_400_000);
  day.setUTCHours(17, 0, 0, 0);
  while (day.getUTCDay() === 0 || day.getUTCDay() === 6) day.setUTCDate(day.getUTCDate() + 1);
  return day;
})();

let counter = 0;
/** An opt-in on the page's terms for `phone` (a new number of this file when not given). */
async function optedIn(db: Db, cohort: string, phone = `2124567${String(100 + ++counter).padStart(3, "0")}`) {
  const result = await optInToSms(
    db,
    {
      firstName: "Nathan",
      lastName: "Hale",
      phone,
      clickId: cohort,
      smsConsent: true,
      termsConsent: true,
      source: "opt-in",
      evidence: NO_EVIDENCE,
    },
    { siteName: "Patriot Investor", dncPolicy: "refuse" },
  );
  if (!result.ok) throw new Error(result.code);
  return { id: result.subscriberId, phone, e164: `+1${phone}` };
}

function sendTo(db: Db, rnd: { policy: RndPolicy; api?: ReturnType<typeof createRndApi> }) {
  const sent: string[] = [];
  const transport: SmsTransport = {
    name: "log",
    async send(message) {
      // The opt-ins' own welcome texts go through the same engine: only the alert counts here.
      if (message.body === BODY) sent.push(message.to);
      return { ok: true, providerId: `SM-${message.id}`, providerStatus: "queued" };
    },
  };
  const run = () =>
    drainCampaigns({
      db,
      channel: createSmsChannel({ transport, ratePerSecond: 1000, dncPolicy: "refuse", rnd }),
      logger: quiet,
      siteUrl: TEST_SITE,
      dncPolicy: "refuse",
      clock: () => later,
    });
  return { sent, run };
}

async function outcome(db: Db, campaignId: string) {
  const rows = await db
    .select({ address: campaignRecipients.address, state: campaignRecipients.state, reason: campaignRecipients.reason })
    .from(campaignRecipients)
    .where(eq(campaignRecipients.campaignId, campaignId));
  return Object.fromEntries(rows.map((row) => [row.address, `${row.state}${row.reason ? ` ${row.reason}` : ""}`]));
}

const today = () => new Date().toISOString().slice(0, 10);
const BODY = "Patriot Investor: Treasury yields moved. Reply STOP to opt out";

describe.each(DB_KINDS)("Reassigned Numbers Database checks on %s", (kind) => {
  const database = useTestDatabase(kind);
  let standIn: Awaited<ReturnType<typeof startRndStandIn>>;
  beforeAll(async () => {
    standIn = await startRndStandIn({ apiKey: API_KEY });
  });
  afterAll(() => standIn.stop());

  it("asks the API before a campaign text to consent older than 30 days: 'yes' skips and lapses the consent, 'no' sends, 'no data' follows the setting", async () => {
    const { db } = database;
    const cohort = `rnd-api-${kind}`;
    const reassigned = await optedIn(db, cohort);
    const kept = await optedIn(db, cohort);
    const unknown = await optedIn(db, cohort);
    // Disconnected after the opt-in (today): the number may belong to someone else by now.
    standIn.disconnected.set(reassigned.phone, new Date(Date.now() + 10 * 86_400_000).toISOString().slice(0, 10));
    standIn.noData.add(unknown.phone);
    const api = createRndApi({ url: standIn.url, apiKey: API_KEY });

    const { sent, run } = sendTo(db, { policy: DEFAULT_RND_POLICY, api });
    const first = await startCampaign(db, BODY, { clickId: cohort }, later);
    await run();
    expect(sent).toEqual([kept.e164]);
    expect(await outcome(db, first)).toEqual({
      [reassigned.e164]: "skipped rnd_reassigned",
      [kept.e164]: "sent",
      [unknown.e164]: "skipped rnd_no_data",
    });
    // Each number was asked once, about its consent date.
    expect(
      standIn.asked
        .filter((query) => [reassigned.phone, kept.phone, unknown.phone].includes(query.phoneNumber))
        .map((query) => query.date),
    ).toEqual([today(), today(), today()]);
    // The "yes" ended the consent, with an event in the evidence; the answers are kept.
    const [lapsed] = await db
      .select({ status: subscribers.status })
      .from(subscribers)
      .where(eq(subscribers.id, reassigned.id));
    expect(lapsed!.status).toBe("lapsed");
    const events = await db
      .select({ action: consentEvents.action, note: consentEvents.inboundBody })
      .from(consentEvents)
      .where(eq(consentEvents.subscriberId, reassigned.id));
    expect(events.map((event) => event.action)).toEqual(["opt_in", "rnd_lapsed"]);
    expect(await rndAnswersFor(db, reassigned.phone)).toMatchObject([
      { askedDate: today(), answer: "yes", source: "api" },
    ]);
    // The certificate carries the answer and the lapse as evidence.
    const certificate = await buildCertificate(
      db,
      reassigned.id,
      consentSigner("rnd-test-secret-0123456789-abcdefghijklmnop"),
    );
    expect(certificate!.rnd).toMatchObject([
      { askedDate: today(), answer: "yes", source: "api", answeredAt: later.toISOString() },
    ]);
    expect(certificate!.events.map((event) => event.action)).toEqual(["opt_in", "rnd_lapsed"]);

    // RND_NO_DATA=send: the unknown number gets the next alert; the fresh "no" is not asked again.
    const asked = standIn.asked.length;
    const withNoDataSent = sendTo(db, { policy: { ...DEFAULT_RND_POLICY, noData: "send" }, api });
    const second = await startCampaign(db, BODY, { clickId: cohort }, later);
    await withNoDataSent.run();
    expect(withNoDataSent.sent.sort()).toEqual([kept.e164, unknown.e164].sort());
    expect(Object.keys(await outcome(db, second))).not.toContain(reassigned.e164);
    // The "no data" answer is fresh too, so the API is asked nothing new.
    expect(standIn.asked.length).toBe(asked);

    // A new opt-in renews the consent: younger than 30 days, nothing to ask.
    await optedIn(db, cohort, reassigned.phone);
    const [renewed] = await db
      .select({ status: subscribers.status })
      .from(subscribers)
      .where(eq(subscribers.id, reassigned.id));
    expect(renewed!.status).toBe("active");
  });

  it("without an answer nobody with old consent is texted; an unreachable API holds the text instead of dropping it", async () => {
    const { db } = database;
    const cohort = `rnd-none-${kind}`;
    const person = await optedIn(db, cohort);
    const noApi = sendTo(db, { policy: DEFAULT_RND_POLICY });
    const first = await startCampaign(db, BODY, { clickId: cohort }, later);
    await noApi.run();
    expect(noApi.sent).toEqual([]);
    expect(await outcome(db, first)).toEqual({ [person.e164]: "skipped rnd_no_answer" });

    standIn.state.down = true;
    try {
      const down = sendTo(db, { policy: DEFAULT_RND_POLICY, api: createRndApi({ url: standIn.url, apiKey: API_KEY }) });
      const second = await startCampaign(db, BODY, { clickId: cohort }, later);
      await down.run();
      expect(down.sent).toEqual([]);
      expect(await outcome(db, second)).toEqual({ [person.e164]: "queued rnd_unavailable" });
    } finally {
      standIn.state.down = false;
    }
  });

  it("exports the numbers that need an answer for the bulk upload and imports the results file with a report", async () => {
    const { db } = database;
    const cohort = `rnd-file-${kind}`;
    const a = await optedIn(db, cohort);
    const b = await optedIn(db, cohort);
    const rows = await rndUploadRows(db, DEFAULT_RND_POLICY, later);
    expect(rows).toEqual(
      expect.arrayContaining([
        { phone: a.phone, date: today() },
        { phone: b.phone, date: today() },
      ]),
    );
    // Not due yet: consent from today is not 30 days old in the next week.
    expect((await rndUploadRows(db, DEFAULT_RND_POLICY, new Date())).map((row) => row.phone)).not.toContain(a.phone);

    const file = [
      "Phone Number,Date,Result",
      `${a.phone},${today().replaceAll("-", "")},Yes`,
      `(${b.phone.slice(0, 3)}) ${b.phone.slice(3, 6)}-${b.phone.slice(6)},${today()},No`,
      "123,2026-01-01,no",
      `${b.phone},2026-02-30,no`,
      `${b.phone},${today()},maybe`,
      "",
    ].join("\n");
    const report = await importRndResults(db, file, "rnd-results.csv");
    expect(report).toMatchObject({ lines: 5, recorded: 2, yes: 1, no: 1, noData: 0, lapsed: 1, refusedCount: 3 });
    expect(report.refused.map((line) => [line.line, line.reason])).toEqual([
      [4, "not a 10-digit US number"],
      [5, "not a date"],
      [6, "the answer is not “yes”, “no” or “no data”"],
    ]);
    const [first] = await db.select({ status: subscribers.status }).from(subscribers).where(eq(subscribers.id, a.id));
    expect(first!.status).toBe("lapsed");
    // A month on, neither is listed for upload again: a's consent lapsed, b's "no" is still fresh.
    const inAMonth = new Date(Date.now() + 30 * 86_400_000);
    expect((await rndUploadRows(db, DEFAULT_RND_POLICY, inAMonth)).map((row) => row.phone)).not.toContain(a.phone);
    expect((await rndUploadRows(db, DEFAULT_RND_POLICY, inAMonth)).map((row) => row.phone)).not.toContain(b.phone);
    // Sixty days on, b's "no" is too old to rely on: b needs a new answer.
    expect((await rndUploadRows(db, DEFAULT_RND_POLICY, later)).map((row) => row.phone)).toContain(b.phone);

    const { sent, run } = sendTo(db, { policy: DEFAULT_RND_POLICY });
    const campaign = await startCampaign(db, BODY, { clickId: cohort }, later);
    await run();
    // The file's "no" was answered today: 60 days later it is too old to rely on.
    expect(sent).toEqual([]);
    expect(await outcome(db, campaign)).toEqual({ [b.e164]: "skipped rnd_no_answer" });
  });

  it("keeps the answers as evidence: no row can be changed or deleted", async () => {
    const { db } = database;
    await importRndResults(db, `2124569999,${today()},no`, "evidence.csv");
    const failure = (promise: Promise<unknown>) =>
      promise.then(
        () => "no error",
        (error: Error & { cause?: Error }) => `${error.message} ${error.cause?.message ?? ""}`,
      );
    expect(await failure(db.execute(sql`UPDATE rnd_answers SET answer = 'yes' WHERE phone = '2124569999'`))).toMatch(
      /append-only/,
    );
    expect(await failure(db.execute(sql`DELETE FROM rnd_answers WHERE phone = '2124569999'`))).toMatch(/append-only/);
    const kept = await db
      .select({ answer: rndAnswers.answer })
      .from(rndAnswers)
      .where(and(eq(rndAnswers.phone, "2124569999"), eq(rndAnswers.source, "file")));
    expect(kept).toEqual([{ answer: "no" }]);
  });
});

describe("reading an RND results file", () => {
  it("takes tabs, pipes, quotes, a leading 1 and US dates, and 'no data' in any case", () => {
    const { results, refused } = parseRndResults(`"12125550100"\t11/20/2026\tNO DATA\n2125550101|2026-11-20|n`);
    expect(refused).toEqual([]);
    expect(results).toEqual([
      { phone: "2125550100", date: "2026-11-20", answer: "no_data" },
      { phone: "2125550101", date: "2026-11-20", answer: "no" },
    ]);
  });
});
