import { and, desc, eq, gte } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { smsTransportLog } from "~/db/schema";
import { NoAnswerError, providerRequest, type ProviderResponse } from "./provider-http.server";

export type SendResult =
  | { ok: true; providerId: string; providerStatus: string }
  | { ok: false; retryable: boolean; error: string; optedOut?: boolean; inDoubt?: boolean };

/** Whether the provider already accepted a given text: answers a send interrupted before we recorded it. */
export type SentLookup = { found: true; providerId: string; providerStatus: string } | { found: false } | { found: null; error: string };

export type SmsTransport = {
  name: "log" | "twilio";
  send(message: { id: number; to: string; body: string }): Promise<SendResult>;
  /** The newest message to `to` with exactly `body`, created at or after `since`. */
  lookup?(query: { to: string; body: string; since: Date }): Promise<SentLookup>;
};

/**
 * Default transport: the message counts as sent and is printed to the server log. With a
 * database it also keeps what it "sent" (sms_transport_log), so it can answer `lookup` the way
 * Twilio's message list does.
 */
export function createLogTransport(log: (entry: Record<string, unknown>, message: string) => void, db?: Db): SmsTransport {
  return {
    name: "log",
    async send(message) {
      log({ smsId: message.id, to: message.to, body: message.body }, "SMS (log transport, not sent to a carrier)");
      if (!db) return { ok: true, providerId: `log-${message.id}`, providerStatus: "logged" };
      const [row] = await db.insert(smsTransportLog).values({ toPhone: message.to, body: message.body }).returning({ id: smsTransportLog.id });
      return { ok: true, providerId: `log-t${row!.id}`, providerStatus: "logged" };
    },
    lookup: db
      ? async (query) => {
          const [row] = await db
            .select({ id: smsTransportLog.id })
            .from(smsTransportLog)
            .where(and(eq(smsTransportLog.toPhone, query.to), eq(smsTransportLog.body, query.body), gte(smsTransportLog.createdAt, query.since)))
            .orderBy(desc(smsTransportLog.id))
            .limit(1);
          return row ? { found: true, providerId: `log-t${row.id}`, providerStatus: "logged" } : { found: false };
        }
      : undefined,
  };
}

export type TwilioSettings = {
  accountSid: string;
  authToken: string;
  from?: string;
  messagingServiceSid?: string;
  apiBase: string;
  statusCallbackUrl?: string;
};

/** Twilio's REST API: https://www.twilio.com/docs/messaging/api/message-resource#create-a-message-resource */
export function createTwilioTransport(settings: TwilioSettings, timeoutMs = 10_000): SmsTransport {
  const messagesUrl = `${settings.apiBase.replace(/\/$/, "")}/2010-04-01/Accounts/${settings.accountSid}/Messages.json`;
  const authorization = `Basic ${Buffer.from(`${settings.accountSid}:${settings.authToken}`).toString("base64")}`;
  return {
    name: "twilio",
    async send(message) {
      const form = new URLSearchParams({ To: message.to, Body: message.body });
      if (settings.messagingServiceSid) form.set("MessagingServiceSid", settings.messagingServiceSid);
      else if (settings.from) form.set("From", settings.from);
      if (settings.statusCallbackUrl) form.set("StatusCallback", settings.statusCallbackUrl);
      let response: ProviderResponse;
      try {
        response = await providerRequest(messagesUrl, {
          method: "POST",
          headers: { Authorization: authorization, "Content-Type": "application/x-www-form-urlencoded" },
          body: form.toString(),
          timeoutMs,
        });
      } catch (error) {
        // Not connected at all (refused, no such host): nothing reached Twilio, so the text is tried
        // again after the back-off. Any other missing answer: Twilio may have accepted the message
        // before the connection broke, so it is in doubt until Twilio is asked.
        if (error instanceof NoAnswerError && error.neverSent) return { ok: false, retryable: true, error: `Twilio unreachable: ${error.message}` };
        return { ok: false, retryable: true, inDoubt: true, error: `Twilio unreachable: ${(error as Error).message}` };
      }
      const body = response.body as { sid?: string; status?: string; code?: number; message?: string };
      if (response.status >= 200 && response.status < 300 && body.sid) return { ok: true, providerId: body.sid, providerStatus: body.status ?? "queued" };
      const error = `Twilio ${response.status}${body.code ? ` error ${body.code}` : ""}: ${body.message ?? "no message"}`;
      // 21610: the person replied STOP to our number; Twilio will refuse every send.
      if (body.code === 21610) return { ok: false, retryable: false, error, optedOut: true };
      return { ok: false, retryable: response.status >= 500 || response.status === 429, error };
    },
    /**
     * Twilio's message list filtered by To, newest first (https://www.twilio.com/docs/messaging/api/message-resource#read-multiple-message-resources).
     * Not filtered by DateSent: a message Twilio accepted but has not handed to the carrier yet has
     * no date_sent; date_created is compared here instead.
     */
    async lookup(query) {
      const params = new URLSearchParams({ To: query.to, PageSize: "50" });
      if (settings.from) params.set("From", settings.from);
      let response: ProviderResponse;
      try {
        response = await providerRequest(`${messagesUrl}?${params}`, { method: "GET", headers: { Authorization: authorization }, timeoutMs });
      } catch (error) {
        return { found: null, error: `Twilio unreachable: ${(error as Error).message}` };
      }
      if (response.status < 200 || response.status >= 300) return { found: null, error: `Twilio ${response.status} on the message list` };
      const body = response.body as { messages?: { sid: string; body: string; status: string; date_created: string }[] };
      if (!Array.isArray(body.messages)) return { found: null, error: "Twilio message list without messages" };
      const match = body.messages.find((message) => message.body === query.body && Date.parse(message.date_created) >= query.since.getTime());
      return match ? { found: true, providerId: match.sid, providerStatus: match.status } : { found: false };
    },
  };
}
