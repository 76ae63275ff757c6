import { data } from "react-router";
import type { Route } from "./+types/api.sms.inbound";
import { getDb } from "~/db/database.server";
import { getPublicSiteConfig } from "~/http/site.server";
import { getEnv } from "~/http/env.server";
import { logger } from "~/http/logger.server";
import { EMPTY_TWIML, readTwilioWebhook } from "~/http/twilio-webhook.server";
import { handleInboundSms } from "~/services/subscription/inbound-sms.server";

export function loader() {
  return data({ error: "Twilio posts inbound messages here." }, { status: 405, headers: { Allow: "POST" } });
}

/** Twilio's inbound-message webhook. Replies go through the outbox, so the TwiML answer is empty. */
export async function action({ request }: Route.ActionArgs) {
  if (request.method !== "POST") return data({ error: "Use POST." }, { status: 405, headers: { Allow: "POST" } });
  const webhook = await readTwilioWebhook(request, "/api/sms/inbound");
  if ("answer" in webhook) return webhook.answer;
  const { fields } = webhook;
  const { MessageSid, From, Body } = fields;
  if (!MessageSid || !From) return data({ error: "MessageSid and From are required." }, { status: 400 });

  const site = getPublicSiteConfig();
  const result = await handleInboundSms(
    await getDb(),
    { messageSid: MessageSid, from: From, body: Body ?? "", optOutType: fields.OptOutType },
    site,
    { postbackUrl: getEnv().CONVERSION_POSTBACK_URL, postbackAdPlatform: getEnv().CONVERSION_POSTBACK_AD_PLATFORM },
  );
  // A message no keyword matched goes to the log for a person to read (it may still be an opt-out).
  if (result.intent === "other") logger.warn({ messageSid: MessageSid, from: From, body: Body }, "inbound SMS needs review");
  return new Response(EMPTY_TWIML, { headers: { "Content-Type": "text/xml" } });
}
