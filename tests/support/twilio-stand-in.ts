import { createServer, type Server } from "node:http";

export type SentMessage = { to: string; from?: string; messagingServiceSid?: string; body: string; statusCallback?: string; sid: string };

/**
 * A stand-in for Twilio's Messages API on 127.0.0.1, so the Twilio transport is exercised over
 * real HTTP without leaving the machine. Numbers in `optedOut` answer error 21610 the way Twilio
 * does; `failNext` makes the next sends answer 503.
 */
export async function startTwilioStandIn(options: { accountSid: string; authToken: string; port?: number }) {
  const sent: SentMessage[] = [];
  const optedOut = new Set<string>();
  let failNext = 0;
  let counter = 0;
  const expectedAuth = `Basic ${Buffer.from(`${options.accountSid}:${options.authToken}`).toString("base64")}`;

  const server: Server = createServer((req, res) => {
    const reply = (status: number, body: unknown) => {
      res.writeHead(status, { "Content-Type": "application/json" });
      res.end(JSON.stringify(body));
    };
    if (req.method === "GET" && req.url === "/__messages") return reply(200, sent);
    if (req.method !== "POST" || req.url !== `/2010-04-01/Accounts/${options.accountSid}/Messages.json`) return reply(404, { message: "not found" });
    if (req.headers.authorization !== expectedAuth) return reply(401, { code: 20003, message: "Authenticate" });
    let raw = "";
    req.on("data", (chunk) => (raw += chunk));
    req.on("end", () => {
      const form = new URLSearchParams(raw);
      const to = form.get("To") ?? "";
      if (failNext > 0) {
        failNext--;
        return reply(503, { code: 20500, message: "Service unavailable" });
      }
      if (optedOut.has(to)) return reply(400, { code: 21610, message: "Attempt to send to unsubscribed recipient" });
      const sid = `SM${String(++counter).padStart(32, "0")}`;
      sent.push({
        to,
        from: form.get("From") ?? undefined,
        messagingServiceSid: form.get("MessagingServiceSid") ?? undefined,
        body: form.get("Body") ?? "",
        statusCallback: form.get("StatusCallback") ?? undefined,
        sid,
      });
      reply(201, { sid, status: "queued" });
    });
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, "127.0.0.1", resolve));
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}`,
    sent,
    optedOut,
    failNextSends: (count: number) => {
      failNext = count;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
