import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { createPostgresDatabase } from "../support/test-db";
import { minutesToSendingHours } from "../support/e2e-env";
import { startTwilioStandIn } from "../support/twilio-stand-in";
import { startSite, type SiteProcess } from "./support/site";
import { waitFor } from "./support/traffic";

const TWILIO = { accountSid: `AC${"c4a9".repeat(8)}`, authToken: "campaign-auth-token-0123456789", from: "+18005550142" };
const SUBSCRIBERS = 5_200;
const BODY = "Patriot Investor: system-test alert. Reply STOP to opt out";

/**
 * A market alert to ~5,000 people through the Twilio stand-in: the sending process is killed
 * (kill -9) twice, once right after the provider accepted texts whose answers never arrived, then
 * two processes finish the campaign on the same PostgreSQL. Every eligible person gets the text
 * exactly once; nobody else gets it.
 */
describe("a market alert survives kill -9 and two senders", () => {
  const cleanup: (() => Promise<unknown>)[] = [];
  afterAll(async () => {
    for (const step of cleanup.reverse()) await step().catch(() => {});
  });

  it("texts every eligible person exactly once", async () => {
    const database = await createPostgresDatabase();
    cleanup.push(() => database.drop());
    const twilio = await startTwilioStandIn({ accountSid: TWILIO.accountSid, authToken: TWILIO.authToken });
    cleanup.push(() => twilio.close());
    const env = {
      DATABASE_URL: database.url,
      TWILIO_ACCOUNT_SID: TWILIO.accountSid,
      TWILIO_AUTH_TOKEN: TWILIO.authToken,
      TWILIO_FROM: TWILIO.from,
      TWILIO_API_BASE: twilio.url,
      SMS_MPS: "600",
      SEND_IN_DOUBT_SECONDS: "15",
      SEND_TEST_QUIET_HOURS_OFFSET_MINUTES: String(minutesToSendingHours()),
    };
    const sites: SiteProcess[] = [];
    cleanup.push(() => Promise.all(sites.map((site) => site.kill9())));
    sites.push(await startSite(env));

    const client = new pg.Client({ connectionString: database.url });
    await client.connect();
    cleanup.push(() => client.end());
    // Four time zones; every 50th person opted out, every 97th on our opt-out list.
    await client.query(`
      INSERT INTO subscribers (channel, phone_e164, first_name, last_name, status, source, click_id)
      SELECT 'sms', '+1' || (ARRAY['212', '312', '303', '213'])[1 + g % 4] || (2000000 + g)::text, 'Sam', 'Adams',
        CASE WHEN g % 50 = 0 THEN 'opted_out' ELSE 'active' END, 'opt-in', 'system-alert'
      FROM generate_series(1, ${SUBSCRIBERS}) g`);
    await client.query(`INSERT INTO dnc_numbers (phone, source) SELECT substr(phone_e164, 3), 'internal' FROM subscribers WHERE right(phone_e164, 4)::int % 97 = 0`);
    const eligible = new Set(
      (
        await client.query<{ phone: string }>(`
          SELECT phone_e164 AS phone FROM subscribers s WHERE status = 'active' AND click_id = 'system-alert'
            AND NOT EXISTS (SELECT 1 FROM dnc_numbers d WHERE d.phone = substr(s.phone_e164, 3) AND d.source = 'internal')`)
      ).rows.map((row) => row.phone),
    );
    expect(eligible.size).toBeGreaterThan(5_000);
    const {
      rows: [campaign],
    } = await client.query<{ id: string }>(
      `INSERT INTO campaigns (channel, name, body, audience, status, scheduled_at) VALUES ('sms', 'System test', $1, '{"clickId": "system-alert"}', 'scheduled', now()) RETURNING id`,
      [BODY],
    );
    const alertsSent = () => twilio.sent.filter((message) => message.body === BODY).length;

    // First kill: just after the provider accepted texts whose answers were cut off (in doubt).
    await waitFor("1,500 texts", async () => alertsSent() >= 1_500, 60_000);
    twilio.dropNextAnswers(40);
    await waitFor("the cut-off answers", async () => alertsSent() >= 1_700, 30_000);
    await sites.pop()!.kill9();
    sites.push(await startSite(env));

    // Second kill in the middle of sending, then two processes finish the campaign together.
    await waitFor("3,200 texts", async () => alertsSent() >= 3_200, 60_000);
    await sites.pop()!.kill9();
    sites.push(...(await Promise.all([startSite(env), startSite(env)])));
    await waitFor(
      "the campaign to complete",
      async () => (await client.query<{ status: string }>("SELECT status FROM campaigns WHERE id = $1", [campaign!.id])).rows[0]!.status === "completed",
      120_000,
    );
    await Promise.all(sites.map((site) => site.stop()));
    sites.length = 0;

    const perPhone = new Map<string, number>();
    for (const message of twilio.sent.filter((m) => m.body === BODY)) perPhone.set(message.to, (perPhone.get(message.to) ?? 0) + 1);
    const duplicates = [...perPhone].filter(([, count]) => count > 1);
    expect(duplicates).toEqual([]);
    expect([...perPhone.keys()].filter((phone) => !eligible.has(phone))).toEqual([]);
    expect([...eligible].filter((phone) => !perPhone.has(phone))).toEqual([]);
    const ledger = await client.query<{ state: string; reason: string | null; n: string }>(
      "SELECT state, reason, count(*)::text AS n FROM campaign_recipients WHERE campaign_id = $1 GROUP BY 1, 2 ORDER BY 1, 2",
      [campaign!.id],
    );
    const byState = Object.fromEntries(ledger.rows.map((row) => [`${row.state}:${row.reason ?? ""}`, Number(row.n)]));
    expect(byState["sent:"]).toBe(eligible.size);
    expect(byState["skipped:internal_dnc"]).toBeGreaterThan(0);
    expect(Object.keys(byState).sort()).toEqual(["sent:", "skipped:internal_dnc"]);
    // Every sent row carries the SID the provider gave that person's text, the in-doubt ones too.
    const sidByPhone = new Map(twilio.sent.filter((m) => m.body === BODY).map((m) => [m.to, m.sid]));
    const recorded = await client.query<{ address: string; provider_id: string }>("SELECT address, provider_id FROM campaign_recipients WHERE campaign_id = $1 AND state = 'sent'", [campaign!.id]);
    expect(recorded.rows.filter((row) => sidByPhone.get(row.address) !== row.provider_id)).toEqual([]);
  });
});
