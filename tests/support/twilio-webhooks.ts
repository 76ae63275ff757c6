import { randomBytes } from "node:crypto";
import type { APIRequestContext } from "@playwright/test";
import webhooks from "twilio/lib/webhooks/webhooks.js";
import { E2E_BASE_URL, E2E_TWILIO } from "./e2e-env";
import type { SentMessage } from "./twilio-stand-in";

/** The texts the Twilio stand-in accepted for a number, oldest first. */
export async function textsTo(request: APIRequestContext, e164: string): Promise<SentMessage[]> {
  const all = (await (await request.get(`${E2E_TWILIO.url}/__messages`)).json()) as SentMessage[];
  return all.filter((message) => message.to === e164);
}

/**
 * Posts an inbound text the way Twilio does, signed with the auth token (or not). Its SID is
 * random: spec files in other workers post texts at the same time, and a SID seen before is a
 * redelivery the server answers once.
 */
export async function inboundText(request: APIRequestContext, from: string, body: string, sign = true) {
  const params = { MessageSid: `SM${randomBytes(16).toString("hex")}`, AccountSid: E2E_TWILIO.accountSid, From: from, To: E2E_TWILIO.from, Body: body, NumMedia: "0" };
  const signature = sign ? webhooks.getExpectedTwilioSignature(E2E_TWILIO.authToken, `${E2E_BASE_URL}/api/sms/inbound`, params) : "bm90IGEgc2lnbmF0dXJl";
  return request.post("/api/sms/inbound", { form: params, headers: { "X-Twilio-Signature": signature } });
}

/** Posts a delivery report for a sent text the way Twilio does, signed. */
export async function deliveryReport(request: APIRequestContext, messageSid: string, status: string, errorCode?: string) {
  const params: Record<string, string> = { MessageSid: messageSid, MessageStatus: status, AccountSid: E2E_TWILIO.accountSid, ...(errorCode ? { ErrorCode: errorCode } : {}) };
  const signature = webhooks.getExpectedTwilioSignature(E2E_TWILIO.authToken, `${E2E_BASE_URL}/api/sms/status`, params);
  return request.post("/api/sms/status", { form: params, headers: { "X-Twilio-Signature": signature } });
}
