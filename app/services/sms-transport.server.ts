export type SendResult =
  | { ok: true; providerId: string; providerStatus: string }
  | { ok: false; retryable: boolean; error: string; optedOut?: boolean };

export type SmsTransport = {
  name: "log" | "twilio";
  send(message: { id: number; to: string; body: string }): Promise<SendResult>;
};

/** Default transport: the message counts as sent and is printed to the server log. */
export function createLogTransport(log: (entry: Record<string, unknown>, message: string) => void): SmsTransport {
  return {
    name: "log",
    async send(message) {
      log({ smsId: message.id, to: message.to, body: message.body }, "SMS (log transport, not sent to a carrier)");
      return { ok: true, providerId: `log-${message.id}`, providerStatus: "logged" };
    },
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
  const url = `${settings.apiBase.replace(/\/$/, "")}/2010-04-01/Accounts/${settings.accountSid}/Messages.json`;
  const authorization = `Basic ${Buffer.from(`${settings.accountSid}:${settings.authToken}`).toString("base64")}`;
  return {
    name: "twilio",
    async send(message) {
      const form = new URLSearchParams({ To: message.to, Body: message.body });
      if (settings.messagingServiceSid) form.set("MessagingServiceSid", settings.messagingServiceSid);
      else if (settings.from) form.set("From", settings.from);
      if (settings.statusCallbackUrl) form.set("StatusCallback", settings.statusCallbackUrl);
      let response: Response;
      try {
        response = await fetch(url, {
          method: "POST",
          headers: { Authorization: authorization, "Content-Type": "application/x-www-form-urlencoded" },
          body: form,
          signal: AbortSignal.timeout(timeoutMs),
        });
      } catch (error) {
        return { ok: false, retryable: true, error: `Twilio unreachable: ${(error as Error).message}` };
      }
      const body = (await response.json().catch(() => ({}))) as { sid?: string; status?: string; code?: number; message?: string };
      if (response.ok && body.sid) return { ok: true, providerId: body.sid, providerStatus: body.status ?? "queued" };
      const error = `Twilio ${response.status}${body.code ? ` error ${body.code}` : ""}: ${body.message ?? "no message"}`;
      // 21610: the person replied STOP to our number; Twilio will refuse every send.
      if (body.code === 21610) return { ok: false, retryable: false, error, optedOut: true };
      return { ok: false, retryable: response.status >= 500 || response.status === 429, error };
    },
  };
}
