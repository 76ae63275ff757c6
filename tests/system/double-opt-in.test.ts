import webhooks from "twilio/lib/webhooks/webhooks.js";
import { afterAll, describe, expect, it } from "vitest";
import { createPostgresDatabase } from "../support/test-db";
import { startPostbackStandIn } from "../support/postback-stand-in";
import { startTwilioStandIn } from "../support/twilio-stand-in";
import { BUILD_SITE_URL, startSite } from "./support/site";
import { mobileNumber, randomClientIp, toE164, waitFor } from "./support/traffic";

const TWILIO = { accountSid: `AC${"d01a".repeat(8)}`, authToken: "doi-twilio-auth-token-0123456789", from: "+18005550177" };

const cleanups: (() => Promise<void> | void)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

/**
 * SMS_DOUBLE_OPT_IN=true through the production server and Twilio's API (a local stand-in): the
 * answer says pending, the only text asks for Y, a signed "Y" webhook brings the welcome and the
 * conversion postback; a second number answering N gets the opt-out confirmation and no postback.
 */
describe("double opt-in through the server", () => {
  it("asks for Y, and only the Y subscribes", async () => {
    const twilio = await startTwilioStandIn({ accountSid: TWILIO.accountSid, authToken: TWILIO.authToken });
    cleanups.push(twilio.close);
    const postbacks = await startPostbackStandIn();
    cleanups.push(postbacks.close);
    const database = await createPostgresDatabase();
    cleanups.push(database.drop);
    const site = await startSite({
      DATABASE_URL: database.url,
      SMS_DOUBLE_OPT_IN: "true",
      CONVERSION_POSTBACK_URL: postbacks.template,
      TWILIO_ACCOUNT_SID: TWILIO.accountSid,
      TWILIO_AUTH_TOKEN: TWILIO.authToken,
      TWILIO_FROM: TWILIO.from,
      TWILIO_API_BASE: twilio.url,
    });
    cleanups.push(() => void site.stop());

    const texts = (e164: string) => twilio.sent.filter((message) => message.to === e164).map((message) => message.body);
    const optIn = async (phone: string, clickId: string) => {
      const response = await fetch(`${site.url}/api/phone-optin`, {
        method: "POST",
        headers: { "Content-Type": "application/json", "X-Forwarded-For": randomClientIp() },
        body: JSON.stringify({ firstName: "Molly", lastName: "Pitcher", phone, clickId, smsConsent: true, termsConsent: true }),
      });
      return { status: response.status, body: await response.json() };
    };
    let sid = 0;
    const reply = (from: string, body: string) => {
      const params = { MessageSid: `SM${String(++sid).padStart(32, "e")}`, AccountSid: TWILIO.accountSid, From: from, To: TWILIO.from, Body: body };
      const signature = webhooks.getExpectedTwilioSignature(TWILIO.authToken, `${BUILD_SITE_URL}/api/sms/inbound`, params);
      return fetch(`${site.url}/api/sms/inbound`, { method: "POST", body: new URLSearchParams(params), headers: { "X-Twilio-Signature": signature } });
    };

    const yes = mobileNumber(910_001);
    const no = mobileNumber(910_002);
    for (const [phone, clickId] of [[yes, "doi-click-yes"], [no, "doi-click-no"]] as const) {
      expect(await optIn(phone, clickId)).toEqual({ status: 200, body: { success: true, dnc: false, error: null, pending: true } });
    }
    await waitFor("both confirmation requests", async () => texts(toE164(yes)).length === 1 && texts(toE164(no)).length === 1);
    expect(texts(toE164(yes))[0]).toMatch(/^Patriot Investor: Reply Y to confirm market alert texts/);

    expect((await reply(toE164(yes), "Y")).status).toBe(200);
    expect((await reply(toE164(no), "N")).status).toBe(200);
    await waitFor("the welcome and the opt-out confirmation", async () => texts(toE164(yes)).length === 2 && texts(toE164(no)).length === 2);
    expect(texts(toE164(yes))[1]).toContain("STOP");
    expect(texts(toE164(yes))[1]).not.toMatch(/Reply Y/);
    expect(texts(toE164(no))[1]).toMatch(/unsubscribed/);
    await waitFor("the conversion postback", async () => postbacks.accepted.size === 1);
    expect([...postbacks.accepted.values()]).toMatchObject([{ clickId: "doi-click-yes", event: "doi_confirmed" }]);
    expect(await site.stop()).toBe(0);
    expect(postbacks.calls.map((call) => call.clickId)).toEqual(["doi-click-yes"]);
  });
});
