import { data } from "react-router";
import type { Route } from "./+types/api.sms.status";
import { getDb } from "~/db/database.server";
import { readTwilioWebhook } from "~/http/twilio-webhook.server";
import { recordDeliveryStatus } from "~/services/sending/delivery-status.server";

/** Twilio's delivery-status callback (signed): records the message's furthest status. */
export async function action({ request }: Route.ActionArgs) {
  const webhook = await readTwilioWebhook(request, "/api/sms/status");
  if ("answer" in webhook) return webhook.answer;
  const { fields } = webhook;
  if (!fields.MessageSid || !fields.MessageStatus) return data({ error: "MessageSid and MessageStatus are required." }, { status: 400 });
  await recordDeliveryStatus(await getDb(), { messageSid: fields.MessageSid, status: fields.MessageStatus, errorCode: fields.ErrorCode });
  return new Response(null, { status: 204 });
}
