import { createServer, type Server } from "node:http";

export type SentMessage = {
  to: string;
  from?: string;
  messagingServiceSid?: string;
  body: string;
  statusCallback?: string;
  sid: string;
  /** Milliseconds since the epoch, when the stand-in accepted it. */
  acceptedAt: number;
};

/**
 * A stand-in for Twilio's Messages API on 127.0.0.1, so the Twilio transport is exercised over
 * real HTTP without leaving the machine. Numbers in `optedOut` answer error 21610 the way Twilio
 * does; `failNext` makes the next sends answer 503 (or `failStatus`); `dropNext` accepts the next
 * sends and then cuts the connection without an answer (the provider has the message, the sender
 * does not know). GET on the Messages list answers Twilio's filtered list (To, From), newest first.
 */
export async function startTwilioStandIn(options: { accountSid: string; authToken: string; port?: number }) {
  const sent: SentMessage[] = [];
  const optedOut = new Set<string>();
  let failNext = 0;
  let failStatus = 503;
  let dropNext = 0;
  let counter = 0;
  const expectedAuth = `Basic ${Buffer.from(`${options.accountSid}:${options.authToken}`).toString("base64")}`;

  const server: Server = createServer((req, res) => {
    const reply = (status: number, body: unknown) => {
      res.writeHead(status, { "Content-Type": "application/json" });
      res.end(JSON.stringify(body));
    };
    if (req.method === "GET" && req.url === "/__messages") return reply(200, sent);
    const url = new URL(req.url ?? "/", "http://stand-in");
    if (url.pathname !== `/2010-04-01/Accounts/${options.accountSid}/Messages.json` || (req.method !== "POST" && req.method !== "GET")) {
      return reply(404, { message: "not found" });
    }
    if (req.headers.authorization !== expectedAuth) return reply(401, { code: 20003, message: "Authenticate" });
    if (req.method === "GET") {
      const to = url.searchParams.get("To");
      const from = url.searchParams.get("From");
      const pageSize = Number(url.searchParams.get("PageSize") ?? "50");
      const messages = sent
        .filter((message) => (!to || message.to === to) && (!from || message.from === from))
        .reverse()
        .slice(0, pageSize)
        .map((message) => ({
          sid: message.sid,
          to: message.to,
          from: message.from ?? null,
          body: message.body,
          status: "sent",
          // Twilio's format: RFC 2822, whole seconds.
          date_created: new Date(Math.floor(message.acceptedAt / 1000) * 1000).toUTCString().replace("GMT", "+0000"),
        }));
      return reply(200, { messages, page_size: pageSize });
    }
    let raw = "";
    req.on("data", (chunk) => (raw += chunk));
    req.on("end", () => {
      const form = new URLSearchParams(raw);
      const to = form.get("To") ?? "";
      if (failNext > 0) {
        failNext--;
        return reply(failStatus, failStatus === 429 ? { code: 20429, message: "Too Many Requests" } : { code: 20500, message: "Service unavailable" });
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
        acceptedAt: Date.now(),
      });
      if (dropNext > 0) {
        dropNext--;
        return req.socket.destroy();
      }
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
    failNextSends: (count: number, status = 503) => {
      failNext = count;
      failStatus = status;
    },
    dropNextAnswers: (count: number) => {
      dropNext = count;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
