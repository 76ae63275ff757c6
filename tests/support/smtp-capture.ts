import { createServer as createHttpServer } from "node:http";
import { SMTPServer } from "smtp-server";

export type CapturedMail = {
  to: string[];
  subject: string;
  text: string;
  links: string[];
  /** The header block, unfolded (one header per line). */
  headers: string;
  messageId: string;
  receivedAt: string;
  /** The decoded text/plain and text/html parts (of a multipart message or a single-part one). */
  plain: string | null;
  html: string | null;
};

function decodeQuotedPrintable(body: string) {
  return body.replace(/=\r?\n/g, "").replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
}

function decodePart(body: string, headers: string) {
  const encoding = /^Content-Transfer-Encoding: *([\w-]+)/im.exec(headers)?.[1]?.toLowerCase();
  if (encoding === "quoted-printable") return Buffer.from(decodeQuotedPrintable(body), "latin1").toString("utf8");
  if (encoding === "base64") return Buffer.from(body.replace(/\s+/g, ""), "base64").toString("utf8");
  return body;
}

/** The text/plain and text/html parts, found through the MIME tree (boundaries nest). */
function parts(headers: string, body: string, found: { plain: string | null; html: string | null } = { plain: null, html: null }) {
  const type = /^Content-Type: *([^;\s]+)/im.exec(headers)?.[1]?.toLowerCase() ?? "text/plain";
  if (type.startsWith("multipart/")) {
    const boundary = /boundary="?([^";\r\n]+)"?/i.exec(headers)?.[1];
    if (!boundary) return found;
    for (const part of body.split(`--${boundary}`).slice(1)) {
      if (part.startsWith("--")) break;
      const [partHead = "", ...partBody] = part.replace(/^\r?\n/, "").split(/\r?\n\r?\n/);
      parts(partHead.replace(/\r?\n[ \t]+/g, " "), partBody.join("\n\n").replace(/\r?\n$/, ""), found);
    }
  } else if (type === "text/plain") found.plain ??= decodePart(body, headers);
  else if (type === "text/html") found.html ??= decodePart(body, headers);
  return found;
}

function parse(raw: string, recipients: string[]): CapturedMail {
  const [head = "", ...rest] = raw.split(/\r?\n\r?\n/);
  const headers = head.replace(/\r?\n[ \t]+/g, " ");
  const subject = /^Subject: (.*)$/im.exec(headers)?.[1]?.trim() ?? "";
  const quoted = /Content-Transfer-Encoding: quoted-printable/i.test(headers);
  const body = rest.join("\n\n");
  const text = quoted ? decodeQuotedPrintable(body) : body;
  const messageId = /^Message-ID: *(<[^>]+>)/im.exec(headers)?.[1] ?? "";
  return {
    to: recipients,
    subject,
    text,
    links: [...text.matchAll(/https?:\/\/[^\s<>"]+/g)].map((m) => m[0]),
    headers,
    messageId,
    receivedAt: new Date().toISOString(),
    ...parts(headers, rest.join("\n\n")),
  };
}

/**
 * A real SMTP server (the smtp-server package) on 127.0.0.1 that keeps every mail, plus an HTTP
 * endpoint to read them: GET /__mail?to=address. The app talks SMTP to it through nodemailer.
 * Addresses in `refuse` are answered as a receiving server answers a mailbox that does not exist
 * (`550 5.1.1` at RCPT TO); each refusal is kept in `refused`.
 */
export async function startSmtpCapture(options: { smtpPort: number; httpPort: number; refuse?: Iterable<string> }) {
  const mails: CapturedMail[] = [];
  const refuse = new Set([...(options.refuse ?? [])].map((address) => address.toLowerCase()));
  const refused: string[] = [];
  const smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    logger: false,
    onRcptTo(address, _session, callback) {
      const to = address.address.toLowerCase();
      if (!refuse.has(to)) return callback();
      refused.push(to);
      callback(Object.assign(new Error(`5.1.1 <${to}>: Recipient address rejected: User unknown in virtual mailbox table`), { responseCode: 550 }));
    },
    onData(stream, session, callback) {
      let raw = "";
      stream.on("data", (chunk: Buffer) => (raw += chunk.toString("utf8")));
      stream.on("end", () => {
        mails.push(parse(raw, session.envelope.rcptTo.map((r) => r.address.toLowerCase())));
        callback();
      });
    },
  });
  // A sender killed mid-connection (the crash tests) resets its socket: expected, not a failure.
  smtp.on("error", () => {});
  await new Promise<void>((resolve) => smtp.listen(options.smtpPort, "127.0.0.1", () => resolve()));
  const http = createHttpServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://localhost");
    // The provider's events API (Mailgun's shape): was a message with this Message-ID accepted?
    const events = /^\/v3\/[^/]+\/events$/.exec(url.pathname);
    if (events) {
      const wanted = url.searchParams.get("message-id") ?? "";
      const items = mails
        .filter((mail) => mail.messageId.replace(/[<>]/g, "") === wanted.replace(/[<>]/g, ""))
        .map((mail) => ({ event: "accepted", id: `ev-${mail.messageId}`, recipient: mail.to[0], message: { headers: { "message-id": mail.messageId.replace(/[<>]/g, "") } } }));
      res.writeHead(200, { "Content-Type": "application/json" });
      res.end(JSON.stringify({ items, paging: {} }));
      return;
    }
    const to = url.searchParams.get("to")?.toLowerCase();
    res.writeHead(200, { "Content-Type": "application/json" });
    res.end(JSON.stringify(to ? mails.filter((mail) => mail.to.includes(to)) : mails));
  });
  await new Promise<void>((resolve) => http.listen(options.httpPort, "127.0.0.1", () => resolve()));
  return {
    mails,
    refuse,
    refused,
    close: async () => {
      await new Promise<void>((resolve) => smtp.close(() => resolve()));
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}
