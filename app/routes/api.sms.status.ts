import { eq } from "drizzle-orm";
import { data } from "react-router";
import type { Route } from "./+types/api.sms.status";
import { getDb } from "~/db/database.server";
import { smsMessages } from "~/db/schema";
import { BodyError, readSignedTwilioForm } from "~/http/twilio-webhook.server";

/** Twilio's delivery-status callback: records the provider's latest status on the message. */
export async function action({ request }: Route.ActionArgs) {
  let fields: Record<string, string> | null;
  try {
    fields = await readSignedTwilioForm(request, "/api/sms/status");
  } catch (error) {
    if (error instanceof BodyError) return data({ error: error.message }, { status: error.status });
    throw error;
  }
  if (!fields) return data({ error: "Invalid Twilio signature." }, { status: 403 });
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
