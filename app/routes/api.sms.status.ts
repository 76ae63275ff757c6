import { eq } from "drizzle-orm";
import { data } from "react-router";
import type { Route } from "./+types/api.sms.status";
import { getDb } from "~/db/database.server";
import { smsMessages } from "~/db/schema";
import { readTwilioWebhook } from "~/http/twilio-webhook.server";

/** Twilio's delivery-status callback: records the provider's latest status on the message. */
export async function action({ request }: Route.ActionArgs) {
  const webhook = await readTwilioWebhook(request, "/api/sms/status");
  if ("answer" in webhook) return webhook.answer;
  const { fields } = webhook;
  if (!fields.MessageSid || !fields.MessageStatus) return data({ error: "MessageSid and MessageStatus are required." }, { status: 400 });
  const db = await getDb();
  await db
    .update(smsMessages)
    .set({
      providerStatus: fields.MessageStatus.slice(0, 40),
      error: fields.ErrorCode ? `Twilio error ${fields.ErrorCode.slice(0, 10)}` : undefined,
    })
    .where(eq(smsMessages.providerId, fields.MessageSid));
  return new Response(null, { status: 204 });
}
