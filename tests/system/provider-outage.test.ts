import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSmtpCapture } from "../support/smtp-capture";
import { createPostgresDatabase } from "../support/test-db";
import { startTwilioStandIn } from "../support/twilio-stand-in";
import { openSiteDatabase, rows } from "./support/inspect";
import { BUILD_SITE_URL, freePort, startSite, type SiteProcess } from "./support/site";
import { mobileNumber, postOptIn, randomClientIp, toE164, waitFor } from "./support/traffic";

const TWILIO = { accountSid: `AC${"0d0e".repeat(8)}`, authToken: "provider-outage-auth-token-012345", from: "+18005550188" };

/**
 * The mail server and the SMS provider are unreachable (nothing listens on their ports): sign-up
 * and opt-in still succeed, the messages wait in their outboxes (the welcome text in the send
 * engine's ledger) and are retried with back-off (a refused connection sent nothing), and
 * each is delivered exactly once after the services come up.
 */
describe("SMTP and the SMS provider unreachable", () => {
  let database: Awaited<ReturnType<typeof createPostgresDatabase>>;
  let site: SiteProcess;
  let smtpPort: number;
  let twilioPort: number;
  const stopLater: (() => Promise<void>)[] = [];

  beforeAll(async () => {
    database = await createPostgresDatabase();
    [smtpPort, twilioPort] = [await freePort(), await freePort()];
    site = await startSite({
      DATABASE_URL: database.url,
      SMTP_URL: `smtp://127.0.0.1:${smtpPort}`,
      TWILIO_ACCOUNT_SID: TWILIO.accountSid,
      TWILIO_AUTH_TOKEN: TWILIO.authToken,
      TWILIO_FROM: TWILIO.from,
      TWILIO_API_BASE: `http://127.0.0.1:${twilioPort}`,
    });
  });

  afterAll(async () => {
    await site?.stop();
    for (const stop of stopLater) await stop();
    await database?.drop();
  });

  it("accepts the sign-up and the opt-in, retries with back-off, then delivers each once", async () => {
    const email = `outage-${Date.now()}@example.com`;
    const signUp = await fetch(`${site.url}/api/auth/sign-up/email`, {
      method: "POST",
      headers: { "Content-Type": "application/json", Origin: BUILD_SITE_URL, "X-Forwarded-For": randomClientIp() },
      body: JSON.stringify({ email, password: "Lexington-Green-1775", name: "Outage Test" }),
    });
    expect(signUp.status).toBe(200);
    const phone = mobileNumber(800_123);
    const optIn = await postOptIn(site.url, phone);
    expect(optIn.status).toBe(200);

    const handle = await openSiteDatabase({ url: database.url });
    type Row = { status: string; attempts: number; retry_in_s: number };
    const state = async () => ({
      mail: (await rows<Row>(handle, `SELECT status, attempts, extract(epoch FROM next_attempt_at - now())::float AS retry_in_s FROM email_messages WHERE to_address = '${email}'`))[0],
      sms: (await rows<Row>(handle, `SELECT state AS status, attempts, extract(epoch FROM next_attempt_at - now())::float AS retry_in_s FROM campaign_recipients WHERE address = '${toE164(phone)}' AND kind = 'welcome'`))[0],
    });
    try {
      // Both sends failed once and wait for their next try, later rather than at once.
      const failed = await waitFor("a failed first attempt of both messages", async () => {
        const now = await state();
        // The SMS row counts its attempt when it is claimed: wait for the answer to be recorded.
        return now.mail && now.sms && now.mail.attempts >= 1 && now.sms.attempts >= 1 && now.sms.status !== "sending" ? now : undefined;
      });
      for (const message of [failed.mail!, failed.sms!]) {
        expect(message.status).toBe("queued");
        expect(message.retry_in_s).toBeGreaterThan(0);
      }

      const smtp = await startSmtpCapture({ smtpPort, httpPort: await freePort() });
      stopLater.push(smtp.close);
      const twilio = await startTwilioStandIn({ accountSid: TWILIO.accountSid, authToken: TWILIO.authToken, port: twilioPort });
      stopLater.push(twilio.close);

      await waitFor("the verification mail", async () => smtp.mails.some((mail) => mail.to.includes(email)), 60_000);
      await waitFor("the welcome text", async () => twilio.sent.some((message) => message.to === toE164(phone)), 60_000);
      await new Promise((resolve) => setTimeout(resolve, 3_000));
      expect(smtp.mails.filter((mail) => mail.to.includes(email))).toHaveLength(1);
      expect(twilio.sent.filter((message) => message.to === toE164(phone))).toHaveLength(1);
      const delivered = await state();
      expect([delivered.mail!.status, delivered.sms!.status]).toEqual(["sent", "sent"]);
      expect(delivered.mail!.attempts).toBeGreaterThanOrEqual(2);
      expect(delivered.sms!.attempts).toBeGreaterThanOrEqual(2);
    } finally {
      await handle.close();
    }
  });
});
