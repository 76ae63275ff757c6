import { createLogTransport, createTwilioTransport, type SmsTransport } from "~/services/providers/sms-transport.server";
import type { Db } from "~/db/client.server";
import type { Env } from "./env.server";
import { logger } from "./logger.server";

/** Twilio when its settings are present, otherwise the log transport. */
export function smsTransportFromEnv(env: Env, db?: Db): SmsTransport {
  if (env.TWILIO_ACCOUNT_SID && env.TWILIO_AUTH_TOKEN) {
    return createTwilioTransport({
      accountSid: env.TWILIO_ACCOUNT_SID,
      authToken: env.TWILIO_AUTH_TOKEN,
      from: env.TWILIO_FROM,
      messagingServiceSid: env.TWILIO_MESSAGING_SERVICE_SID,
      apiBase: env.TWILIO_API_BASE,
      statusCallbackUrl: `${env.SITE_URL}/api/sms/status`,
    });
  }
  return createLogTransport((entry, message) => logger.info(entry, message), db);
}
